"""Choosing a window's memories among its candidate statements, and turning the choice into a
report whose items are the trail's own sentences.

`shortlist` ranks the candidates by their cue scores (`cues.py`): a hypothesis is never taken, a
statement a later one replaces gives way to it, a near-repeat is taken once, and each statement
goes to one section only. The model then labels the shortlist (`labels_to_report`): it chooses,
the trail supplies the words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.events import Event
from synth.extract.candidates import Candidate, window_candidates
from synth.extract.cues import (
    BLOCKER,
    SECTIONS,
    is_hypothesis,
    refutes,
    reports_done,
    resolves,
    section_scores,
    steers,
)

# Chosen on the dev split of bench/quality (see bench/README.md, "Extraction").
FLOOR = 1.0  # a statement scoring below this in every section is not shortlisted
SHORTLIST = 8  # statements the model labels per window
KEEP_WITHOUT_MODEL = FLOOR  # a shortlisted statement scoring this much is kept whatever the model says
PER_SECTION = 2  # and one episode: what the window was about
SAME_STATEMENT = 0.6  # content-word overlap above which two statements say the same thing
OVERTAKEN = 0.35  # overlap with a later refutation or resolution that makes a statement stale
DONE_OVERLAP = 0.2  # overlap with a later statement reporting a blocker's act done

_CONTENT = re.compile(r"[a-z0-9][a-z0-9_.%/-]*")
_SMALL = frozenset("the a an and or of to in on for with is are was were be it this that we i "
                   "you our my by at as from".split())
_FAILED = re.compile(r"(?i)\b(?:fail(?:s|ed|ing)?|did not|didn't|does not|doesn't|not fix|"
                     r"still (?:fails|broken|slow|there)|no effect|timed out|error|broke|regress)")
_PARTIAL = re.compile(r"(?i)\bpartial(?:ly)?\b|\bremains?\b|\bexcept\b")


# On equal scores a statement goes to the more specific section: "Go with X, not Y: we need Z"
# opening a session is the user's decision before it is what the session was about.
PRECEDENCE = ("decisions", "preferences_learned", "blockers", "outcomes", "open_questions",
              "worked_on")


@dataclass(frozen=True, slots=True)
class Pick:
    """A shortlisted statement: its section by the cues, and that section's score."""

    candidate: Candidate
    section: str
    score: float
    result: str | None = None  # an outcome's result when the picker knows it (the learned head)


def content_words(text: str) -> frozenset[str]:
    return frozenset(w.strip(".") for w in _CONTENT.findall(text.casefold()) if w not in _SMALL)


def overlap(a: str, b: str) -> float:
    left, right = content_words(a), content_words(b)
    return len(left & right) / min(len(left), len(right)) if left and right else 0.0


def _replaced(candidate: Candidate, section: str, later: list[tuple[Candidate, str]]) -> bool:
    """A decision or preference a later one of the same section restates or changes."""
    if section not in ("decisions", "preferences_learned"):
        return False
    return any(other.index > candidate.index and other_section == section
               and overlap(candidate.text, other.text) >= SAME_STATEMENT
               for other, other_section in later)


def _overtaken(candidate: Candidate, later: list[Candidate]) -> bool:
    """A claim a later statement on the same subject rejects ("the pool is not the leak"), or a
    blocker a later one resolves or reports done: the later statement is the one that holds."""
    blocking = BLOCKER.search(candidate.text) is not None
    for other in later:
        shared = overlap(candidate.text, other.text)
        if shared >= OVERTAKEN and (refutes(other) or resolves(other)) and not refutes(candidate):
            return True
        if blocking and shared >= DONE_OVERLAP and reports_done(candidate, other):
            return True
    return False


def _fixed_later(pick: Pick, picks: list[Pick]) -> bool:
    """A failed outcome a later successful outcome on the same subject replaces ("make test has
    one failure" ... "make test: 25 passed"): what holds at the window's end is kept."""
    if pick.section != "outcomes" or _FAILED.search(pick.candidate.text) is None:
        return False
    return any(other.section == "outcomes" and other.candidate.index > pick.candidate.index
               and _FAILED.search(other.candidate.text) is None
               and overlap(pick.candidate.text, other.candidate.text) >= OVERTAKEN
               for other in picks)


def steered_paragraphs(candidates: list[Candidate]) -> set[tuple[int, int]]:
    """The paragraphs (event, paragraph) holding text that tries to steer a model: pasted
    injections are data, and none of their sentences becomes a memory."""
    return {(c.event_position, c.paragraph) for c in candidates if steers(c)}


def rank(events: list[Event]) -> list[Pick]:
    """Every candidate that may become a memory, best first, each under its best section."""
    candidates = window_candidates(events)
    steered = steered_paragraphs(candidates)
    best: list[Pick] = []
    for candidate in candidates:
        if is_hypothesis(candidate):
            continue  # a guess is not a memory, whether the window settles it or not
        if (candidate.event_position, candidate.paragraph) in steered:
            continue
        if _overtaken(candidate, [c for c in candidates
                                  if c.event_position > candidate.event_position]):
            continue
        scores = section_scores(candidate)
        section = max(PRECEDENCE, key=lambda name: scores[name])  # a tie: the more specific
        if scores[section] >= FLOOR:
            best.append(Pick(candidate, section, scores[section]))
    sections = [(pick.candidate, pick.section) for pick in best]
    best = [pick for pick in best if not _replaced(pick.candidate, pick.section, sections)
            and not _fixed_later(pick, best)]
    return sorted(best, key=lambda pick: (-pick.score, pick.candidate.index))


def shortlist(events: list[Event], size: int = SHORTLIST,
              per_section: int = PER_SECTION) -> list[Pick]:
    """The best statements of the window, at most `per_section` per section, no near-repeats,
    in trail order."""
    chosen: list[Pick] = []
    per: dict[str, int] = {}
    for pick in rank(events):
        if len(chosen) >= size:
            break
        if per.get(pick.section, 0) >= (1 if pick.section == "worked_on" else per_section):
            continue
        if any(overlap(pick.candidate.text, other.candidate.text) >= SAME_STATEMENT
               for other in chosen):
            continue
        chosen.append(pick)
        per[pick.section] = per.get(pick.section, 0) + 1
    return sorted(chosen, key=lambda pick: pick.candidate.index)


def _item(pick: Pick, section: str) -> dict:
    candidate = pick.candidate
    item: dict = {"summary": candidate.text, "evidence": [candidate.seq]}
    if section == "worked_on":
        return item | {"ts_start": candidate.ts, "ts_end": candidate.ts, "session_id": None}
    item["ts"] = candidate.ts
    if section == "decisions":
        item["rationale"] = None
    elif section == "outcomes" and pick.result:
        item["result"] = pick.result
    elif section == "outcomes":
        failed = _FAILED.search(candidate.text) is not None
        partial = _PARTIAL.search(candidate.text) is not None
        item["result"] = "partial" if partial else "failure" if failed else "success"
    return item


def picks_to_report(picks: list[tuple[Pick, str]]) -> dict[str, list[dict]]:
    """The report of the chosen statements, each under the section it was given."""
    report: dict[str, list[dict]] = {name: [] for name in SECTIONS}
    for pick, section in picks:
        report[section].append(_item(pick, section))
    return report
