"""Two memories of one project: the same statement, an update of it, or unrelated. The rules and
their thresholds (chosen on the dev split of `bench/quality/consolidation/`); the model path in
`synth.judge` answers the same question.

What a memory is about (its subject) is its content words without the names it picks (the
options: `Redis Streams`, `httpx`), its figures and the verbs of change (switch, fix, measure).
Two memories share a subject when the smaller subject is (nearly) inside the larger one and
neither has a word of its own the other lacks beyond `max_extra`: "error rate of the billing
service" and "error rate of the report service" each have one, so they are two subjects
however close their embeddings are.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from synth.statements import Statement, jaccard, stem, stems

ANSWERS = ("same", "updates", "unrelated")


@dataclass(frozen=True)
class Thresholds:
    """The rules' thresholds, chosen on the dev split (`bench/consolidation.py --sweep`: of the
    1,728 sets swept, 102 left nothing stale, duplicated, wrongly linked or lost on dev; these
    are the middle of them)."""

    same_cosine: float = 0.75  # a restatement: this close in meaning,
    same_terms: float = 0.6  # naming the same things,
    same_subject: float = 0.7  # about the same subject
    update_cosine: float = 0.45  # an update: the same subject, something else said of it
    update_subject: float = 0.75
    resolve_cosine: float = 0.4  # an outcome closing a task
    resolve_subject: float = 0.3  # weighted by rarity in the project
    resolve_extra_cost: float = 0.02  # a fix is told in other words than its problem
    extra_cost: float = 0.12  # an update or a resolve: each subject word of its own (on both
    # sides) asks this much more closeness; a restatement, or a new figure for a measure, has none


DEFAULT_THRESHOLDS = Thresholds()

# Words that say what was done to a subject, not what the subject is.
_VERBS = frozenset(stem(w) for w in """
adopt switch switched move moved moves migrate migrated replace replaced revert reverted drop
dropped stay stays stick prefer prefers preferred want wants like likes fix fixed resolve resolved
unblock unblocked block blocked blocking blocks close closed land landed ship shipped measure
measured remeasured again now back confirm confirmed restate restated reverse reversed change
changed instead rather going plan planned finally turn turned out still remain remains new old
current onto off run runs tried try earlier take takes taken took reaffirm reaffirmed become
becomes became dropping improve improved improves benchmark measurement latest get got gets make
made set add added remove removed keep kept use used using decide decided agree agreed pick picked
choose chose chosen select selected go goes went come came give gave find found need needs done
do does start started stop stopped begin began continue continued put see seen show shows showed
say said note noted ask asked abandon abandons abandoned abandoning will would shall
""".split())
_NEGATION = re.compile(r"\b(?:not|no|never|without|no longer|stop(?:ped)?|don't|doesn't|won't|"
                       r"isn't|aren't|can't|cannot)\b|n't\b", re.IGNORECASE)
_PIVOT = re.compile(r"\s+(?:over|instead of|rather than|than|vs\.?|versus)\s+|,\s*not\s+",
                    re.IGNORECASE)
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")
# A statement that says it changes something: never a restatement of one that does not.
_CHANGE = re.compile(r"\b(?:switch(?:es|ed)?|replac(?:e|es|ed|ing)|mov(?:e|es|ed) "
                     r"(?:off|away|from|to)|migrat\w*|drop(?:s|ped)?|revert\w*|no longer|"
                     r"abandon\w*|ditch\w*|onto|dropping|becom\w*|is now|are now|"
                     r"replaces)\b", re.IGNORECASE)


@dataclass
class Memory:
    """A memory as consolidation sees it."""

    memory_id: str
    memory_type: str
    content: str
    start: datetime | None
    vector: np.ndarray | None = None  # unit length, or None (no embedding)
    failed: bool = False  # an outcome whose result was `failure`
    said: Statement = field(init=False)
    subject: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        self.said = Statement.of(self.content)
        self.subject = subject_stems(self.said)

    @property
    def order(self) -> tuple:
        return (self.start is None, self.start or datetime.min, self.memory_id)


def subject_stems(said: Statement) -> frozenset[str]:
    """What a statement is about (see the module docstring)."""
    named = {stem(part) for term in said.terms for part in re.split(r"[^a-z0-9]+", term) if part}
    return frozenset(s for s in said.stems - named - _VERBS if not s[:1].isdigit())


def subject_match(a: frozenset[str], b: frozenset[str]) -> tuple[float, int]:
    """(share of the smaller subject inside the larger, words of its own on the side with fewer)."""
    if not a or not b:
        return 0.0, 0
    shared = len(a & b)
    return shared / min(len(a), len(b)), min(len(a - b), len(b - a))


_NO_CHANGE = re.compile(r"\b(?:no|nothing|not)\s+(?:\w+\s+)?(?:change[sd]?|different)\b",
                        re.IGNORECASE)  # "no change here", "nothing changed": a restatement


def _negated(text: str) -> bool:
    text = _NO_CHANGE.sub(" ", re.sub(r",\s*not\s+", " over ", text))
    return len(_NEGATION.findall(text)) % 2 == 1


def _side(tokens: list[str]) -> frozenset[str]:
    """The content stems of the phrase next to a pivot (up to 3), stopping at the first word
    that is not one once the phrase has begun."""
    found: list[str] = []
    for token in tokens:
        word = stems(token)
        if not word or word <= _VERBS:
            if found:
                break
            continue
        found.extend(word - _VERBS)
        if len(found) >= 3:
            break
    return frozenset(found)


def sides(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The two things a preference or choice orders ("A over B", "A, not B"), or None."""
    found = _PIVOT.search(text)
    if not found:
        return None
    left = _side(_TOKEN.findall(text[:found.start()])[::-1])
    right = _side(_TOKEN.findall(text[found.end():]))
    return (left, right) if left and right else None


def reversed_order(a: str, b: str) -> bool:
    """The same two things in the opposite order: "tabs over spaces", "spaces, not tabs"."""
    sa, sb = sides(a), sides(b)
    if sa is None or sb is None:
        return False
    aligned = jaccard(sa[0], sb[0]) + jaccard(sa[1], sb[1])
    crossed = jaccard(sa[0], sb[1]) + jaccard(sa[1], sb[0])
    return crossed > aligned


def rejects(a: Statement, b: Statement) -> bool:
    """`a` turns down what `b` picks: "X, not Y" or "X instead of Y" against a statement of Y."""
    found = sides(a.text)
    if found is None:
        return False
    chosen, turned_down = found
    other = sides(b.text)
    if other is not None:
        picked = other[0]
    else:  # what b names (its options), else all it says
        picked = frozenset(stem(part) for term in b.terms
                           for part in re.split(r"[^a-z0-9]+", term) if part) or stems(b.text)
    return bool((turned_down - chosen) & picked)


def conflict(a: Statement, b: Statement) -> bool:
    """The two cannot be one statement: different figures, one negated and not the other, or the
    same two things in the opposite order."""
    if a.figures and b.figures and a.figures != b.figures:
        return True
    if _negated(a.text) != _negated(b.text):
        return True
    return reversed_order(a.text, b.text)


def cosine(a: Memory, b: Memory) -> float | None:
    if a.vector is None or b.vector is None:
        return None
    return float(np.dot(a.vector, b.vector))


def comparable(new: Memory, old: Memory) -> bool:
    """The pairs a judge is asked about: the same type, or a task and an outcome."""
    return new.memory_type == old.memory_type or {new.memory_type, old.memory_type} == {
        "task", "outcome"}


class Judge:
    """The rules: `same`, `updates` or `unrelated` for two comparable memories of one project.
    A fact or a measured outcome is updated only by a different figure (or its negation); a
    decision or a preference by anything else said of its subject."""

    name = "rules"
    asks = False  # whether `prepare` wants the candidate pairs of a pass

    def __init__(self, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> None:
        self.t = thresholds
        self.rarity: dict[str, float] = {}  # subject stem → log(1 + memories / memories with it)

    def know(self, memories: list[Memory]) -> None:
        """The project's memories of this pass: how rare each subject word is among them. A word
        most of them share (test, service, migration) tells less than a rare one (checkout)."""
        counts: dict[str, int] = {}
        for memory in memories:
            for word in memory.subject:
                counts[word] = counts.get(word, 0) + 1
        self.rarity = {word: math.log(1 + len(memories) / count) for word, count in counts.items()}

    def weighted_share(self, a: frozenset[str], b: frozenset[str]) -> float:
        """`subject_match`'s share, each word weighted by its rarity in the project."""
        def weight(words) -> float:
            return sum(self.rarity.get(word, 1.0) for word in words)

        smaller = min(weight(a), weight(b))
        return weight(a & b) / smaller if smaller else 0.0

    def prepare(self, pairs: list[tuple[Memory, Memory]]) -> None:
        """Candidate pairs of a whole pass, before it starts (the model path asks them all in
        one batch); the rules decide each pair when asked."""

    def relation(self, new: Memory, old: Memory) -> tuple[str, float]:
        t = self.t
        cos = cosine(new, old)
        close = cos if cos is not None else jaccard(new.said.stems, old.said.stems)
        share, extra = subject_match(new.subject, old.subject)
        if not new.subject and not old.subject:  # all names: the names are the subject
            share, extra = jaccard(new.said.stems, old.said.stems), 0
        more = t.extra_cost * extra  # words of its own on both sides: another subject, or not
        if {new.memory_type, old.memory_type} == {"task", "outcome"}:
            outcome = new if new.memory_type == "outcome" else old
            share = self.weighted_share(new.subject, old.subject)
            if (not outcome.failed and close >= t.resolve_cosine + t.resolve_extra_cost * extra
                    and share >= t.resolve_subject):
                return "updates", close
            return "unrelated", close
        clash = conflict(new.said, old.said) or rejects(new.said, old.said) or rejects(
            old.said, new.said)
        changes = bool(_CHANGE.search(new.said.text)) != bool(_CHANGE.search(old.said.text))
        terms = new.said.terms, old.said.terms
        same_terms = not all(terms) or jaccard(*terms) >= t.same_terms
        if (not clash and not changes and same_terms and close >= t.same_cosine and not extra
                and share >= t.same_subject):
            return "same", close
        if new.memory_type in ("fact", "outcome") and (not clash or extra):
            return "unrelated", close  # the same figure of two things, or two measures
        if close >= t.update_cosine + more and share >= t.update_subject:
            return "updates", close
        return "unrelated", close
