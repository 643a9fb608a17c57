"""The support check: an item of a report is kept only if the events it cites support it, in
meaning and not only in words. Pure (the embedder is injected) and the same for every backend.

An item is dropped, and counted by reason, when it
- cites no event of its window (`no_evidence`);
- carries text of the prompt's own instructions or examples that its events do not hold
  (`prompt_copy`: a weak model copying "migrate to X after the Y fix ships");
- names a figure, version, path or identifier its events do not hold (`unsupported_figure`);
- shares too few of its content words with its events and is not close in meaning to one of
  their sentences either (`unsupported_words`; `synth.support.paraphrase`);
- says the opposite of the sentence it restates: negation, failure or waiting words, antonyms, a
  question stated as settled, the rejected alternative stated as chosen (`polarity`);
- puts a figure with another figure's subject (`figure_role`) or turns a change around
  (`direction`; `synth.support.figures`);
- states as true a hypothesis that later events of the window rejected (`refuted`);
- is judged contradicted or not addressed by its events in the verify pass of a strong backend
  (`contradicted`, `not_addressed`; `synth.support.verify`, applied after this check).
The rules live in `synth.support`; the thresholds come from the labelled support set
(`bench/support.py --choose`, dev split).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ingest.events import Event
from synth.prompt import VARIANTS
from synth.report import SECTIONS, item_text
from synth.support.figures import derived_difference, direction_conflict, role_conflict
from synth.support.lexical import (
    Support,
    content_words,
    named,
    specifics,
    uncited,
    word_support,
    words,
)
from synth.support.choices import choice_conflict
from synth.support.outcome import (
    attempt_conflict,
    count_conflict,
    failure_conflict,
    first_try_conflict,
    success_conflict,
)
from synth.support.paraphrase import Closeness
from synth.support.polarity import polarity_conflict
from synth.support.refuted import states_guess, Hypothesis, rejected_hypotheses, restates_rejected
from synth.support.comparisons import comparison_conflict, near_swap, pair_swap, whole_conflict
from synth.support.measures import held_as_range, held_in_other_units
from synth.support.status import status_conflict
from synth.support.wishes import wish_conflict
from synth.support.units import Unit, plain_words, units_of

__all__ = ["REASONS", "Evidence", "Support", "SupportCheck", "check_item", "cited_support",
           "content_words", "evidence_for", "ground_items", "specifics", "word_support"]

REASONS = ("no_evidence", "prompt_copy", "unsupported_figure", "unsupported_words", "polarity",
           "figure_role", "direction", "refuted", "contradicted", "not_addressed")
# The share of an item's content words its events must hold (chosen on the labelled set).
MIN_WORD_SUPPORT = 0.4
# Below that share, the cosine to the closest cited sentence that still makes an item a
# paraphrase: chosen on the dev split of the support set (bench/support.py --choose).
MIN_PARAPHRASE = 0.4
NEIGHBOURS = 1  # an event next to a cited one supports too: a model's off-by-one citation


def _ngrams(found: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(found[i:i + n]) for i in range(len(found) - n + 1)}


_PROMPT_NGRAMS = set().union(*(_ngrams(words(text), 4) for text in VARIANTS.values()))


@dataclass(frozen=True)
class Evidence:
    """What an item's cited events (and their neighbours) hold: words (`support`), sentences and
    clauses (`units`), their text, and the hypotheses later events of the window rejected."""

    support: Support
    units: tuple[Unit, ...]
    text: str
    rejected: tuple[Hypothesis, ...] = ()
    whole: tuple[str, ...] = ()  # each event's text, for closeness in meaning

    @classmethod
    def of(cls, events: list[Event], window: list[Event] | None = None,
           index: WindowIndex | None = None) -> Evidence:
        index = index or WindowIndex(window or events)
        units = tuple(unit for event in events for unit in index.units(event))
        rejected = tuple(h for event in events for h in index.rejected(event)) if window else ()
        return cls(Support.of(events), units, "\n".join(e.content for e in events), rejected,
                   tuple(e.content for e in events))


class WindowIndex:
    """Per window, once: each event's units and the hypotheses later events rejected."""

    def __init__(self, window: list[Event]) -> None:
        self.window = window
        self._units: dict[int, list[Unit]] = {}
        self._rejected: dict[int, list[Hypothesis]] | None = None

    def units(self, event: Event) -> list[Unit]:
        if event.seq not in self._units:
            self._units[event.seq] = units_of(event.content, event.seq, event.role)
        return self._units[event.seq]

    def rejected(self, event: Event) -> list[Hypothesis]:
        if self._rejected is None:
            self._rejected = {}
            for hypothesis in rejected_hypotheses(self.window, self.window):
                self._rejected.setdefault(hypothesis.unit.seq, []).append(hypothesis)
        return self._rejected.get(event.seq, [])


@dataclass
class SupportCheck:
    """The check's settings: thresholds, and the closeness in meaning (None: words only)."""

    min_word_support: float | None = None  # None: the module's MIN_WORD_SUPPORT, read at call time
    min_paraphrase: float | None = None  # None: MIN_PARAPHRASE
    closeness: Closeness | None = None
    paraphrased: int = field(default=0)  # items kept by closeness in meaning, for the record


def _evidence(support: Support | Evidence) -> Evidence:
    if isinstance(support, Evidence):
        return support
    lines = support.text.splitlines()
    return Evidence(support, tuple(u for line in lines for u in units_of(line)), support.text,
                    whole=tuple(lines))


def check_item(text: str, support: Support | Evidence, min_word_support: float | None = None,
               check: SupportCheck | None = None) -> str | None:
    """Why the cited events do not support `text`; None when they do."""
    check = check or SupportCheck()
    if min_word_support is None:
        min_word_support = (check.min_word_support if check.min_word_support is not None
                            else MIN_WORD_SUPPORT)
    min_paraphrase = check.min_paraphrase if check.min_paraphrase is not None else MIN_PARAPHRASE
    evidence = _evidence(support)
    held = evidence.support
    text = uncited(text)
    copied = _ngrams(words(text), 4) & _PROMPT_NGRAMS
    if copied and not any(" ".join(gram) in held.text for gram in copied):
        return "prompt_copy"
    found = named(text)
    if any(not held.holds_specific(value, figure)
           and not (figure and (derived_difference(value, text, held.text)
                                or held_in_other_units(value, text, evidence.text)
                                or held_as_range(value, text, evidence.text)))
           for value, figure in found):
        return "unsupported_figure"
    if not found and not content_words(text):
        return "unsupported_words"  # says nothing: `[x] [y], x, y`
    if word_support(text, held) < min_word_support:
        candidates = [unit.text for unit in evidence.units] + list(evidence.whole)
        if check.closeness is None or check.closeness(text, candidates) < min_paraphrase:
            return "unsupported_words"
        check.paraphrased += 1
    return meaning_conflict(text, evidence)


def meaning_conflict(text: str, evidence: Evidence) -> str | None:
    """The rules of meaning, in order: polarity, figure roles, direction, refuted hypotheses.
    An item that is one of its events, or one of their sentences, word for word says what they
    say: no rule judges it."""
    plain = plain_words(text)
    if plain and (any(plain == plain_words(piece) for piece in evidence.whole)
                  or any(plain == plain_words(unit.sentence) for unit in evidence.units)):
        return None
    units = list(evidence.units)
    if (polarity_conflict(text, units) or choice_conflict(text, evidence.text)
            or success_conflict(text, units) or failure_conflict(text, units)
            or status_conflict(text, units) or wish_conflict(text, units)
            or attempt_conflict(text, units) or count_conflict(text, units)
            or first_try_conflict(text, units)):
        return "polarity"
    if (role_conflict(text, evidence.text) or whole_conflict(text, evidence.text)
            or pair_swap(text, evidence.text) or near_swap(text, evidence.text)):
        return "figure_role"
    if direction_conflict(text, evidence.text) or comparison_conflict(text, evidence.text):
        return "direction"
    if restates_rejected(text, list(evidence.rejected), units) or states_guess(text, units):
        return "refuted"
    return None


def _near(events: list[Event], cited: list[int]) -> list[Event]:
    order = [event.seq for event in events]
    position = {seq: i for i, seq in enumerate(order)}
    near = {j for seq in cited if seq in position
            for j in range(max(0, position[seq] - NEIGHBOURS),
                           min(len(order), position[seq] + NEIGHBOURS + 1))}
    return [events[j] for j in sorted(near)]


def cited_support(events: list[Event], cited: list[int]) -> Support:
    """What the cited events and their neighbours in the window hold (words only)."""
    return Support.of(_near(events, cited))


def evidence_for(events: list[Event], cited: list[int],
                 index: WindowIndex | None = None) -> Evidence:
    """What the cited events and their neighbours hold, with the window for refutations."""
    return Evidence.of(_near(events, cited), events, index)


def ground_items(report: dict, events: list[Event], *, min_word_support: float | None = None,
                 check: SupportCheck | None = None) -> tuple[dict, dict[str, int]]:
    """Keep the items their cited events (and those next to them) support; evidence is kept to
    the window's own seqs, in order. Returns (report, dropped items by reason)."""
    by_seq = {event.seq: event for event in events}
    index = WindowIndex(events)
    dropped = dict.fromkeys(REASONS, 0)
    kept: dict[str, list[dict]] = {}
    for name in SECTIONS:
        kept[name] = []
        for item in report.get(name, []):
            cited = [seq for seq in item.get("evidence") or [] if seq in by_seq]
            if not cited:
                dropped["no_evidence"] += 1
                continue
            why = check_item(item_text(item), evidence_for(events, cited, index),
                             min_word_support, check)
            if why is not None:
                dropped[why] += 1
                continue
            kept[name].append({**item, "evidence": sorted(cited)})
    return kept, dropped
