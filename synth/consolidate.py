"""Consolidation, the pure part: which memories of one project say the same thing, which replace
an earlier one, which close a task. Storage is `sinks.links`; this module sees values only.

One pass takes the project's memories already looked at (with which of them are current) and the
new ones, and walks the new ones in time order (start, then id). Each new memory is compared with
the current memories of the project, the earlier new ones included:

- **duplicate**: the same type and the same statement (`Judge.relation` says `same`): linked to
  that canonical memory, and not current itself;
- **supersedes**: a decision, preference or fact (or an outcome whose figure was measured again)
  on the same subject that differs (`updates`): the later one replaces the earlier one, whichever
  of the two is new (a backfill can bring the earlier statement after the later one);
- **resolves**: an outcome that is not a failure, later than a task on the same subject: the task
  is closed;
- **distinct**: none of these; the memory is current.

The pass is deterministic (same memories, same links) and appends only: a memory looked at once
is never looked at again, so a rerun adds nothing. Which pairs are the same, an update or
unrelated is the judge's call: the rules below (words, figures, key terms and the embedder's
cosine; thresholds chosen on the dev split of `bench/quality/consolidation/`), or a model
(`synth.judge`) asked about candidate pairs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from synth.statements import Statement, jaccard, stem

RELATIONS = ("duplicate", "supersedes", "resolves", "distinct")
REPLACEABLE = ("decision", "preference", "fact")  # a later one on the same subject replaces it
CANDIDATE_COSINE = 0.45  # pairs below this never reach a judge (the model path asks above it)
MAX_CANDIDATES = 4  # per new memory, the most similar current ones the model is asked about


@dataclass(frozen=True)
class Thresholds:
    """The rules' thresholds, chosen on the dev split (`bench/consolidation.py --sweep`)."""

    same_cosine: float = 0.84  # a restatement: this close in meaning ...
    same_subject: float = 0.5  # ... and this share of subject words
    update_cosine: float = 0.5  # an update: the same subject, something else said about it
    update_subject: float = 0.6
    resolve_cosine: float = 0.55  # an outcome closing a task
    resolve_subject: float = 0.5


DEFAULT_THRESHOLDS = Thresholds()


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


@dataclass(frozen=True)
class Link:
    memory_id: str
    target_id: str | None
    relation: str
    decided_by: str
    score: float | None = None


# Words that say what was done to a subject, not what the subject is.
_VERBS = frozenset(stem(w) for w in """
adopt switch switched move moved migrate migrated replace replaced revert reverted drop dropped
stay stick prefer prefers preferred want wants fix fixed resolve resolved unblock unblocked block
blocked blocking blocks close closed land landed ship shipped measure measured remeasured again
now back confirm confirmed restate restated reverse reversed change changed instead rather
going plan planned finally turn turned out still remain remains new old current
""".split())
_NEGATION = re.compile(r"\b(?:not|no|never|without|no longer|stop(?:ped)?|don't|doesn't|won't|"
                       r"isn't|aren't|can't|cannot)\b|n't\b", re.IGNORECASE)
_DIRECTION = re.compile(r"([A-Za-z0-9_.+-]+)\s+(?:over|instead of|rather than|than|vs\.?|versus)\s+"
                        r"(?:the\s+|a\s+)?([A-Za-z0-9_.+-]+)", re.IGNORECASE)


def subject_stems(said: Statement) -> frozenset[str]:
    """What a statement is about: its content-word stems without the names it picks (key
    terms), its figures and the verbs of change."""
    named = {stem(part) for term in said.terms for part in re.split(r"[^a-z0-9]+", term) if part}
    return frozenset(s for s in said.stems - named - _VERBS if not s[:1].isdigit())


def _negated(text: str) -> bool:
    return len(_NEGATION.findall(text)) % 2 == 1


def _direction(text: str) -> tuple[str, str] | None:
    found = _DIRECTION.search(text)
    return (stem(found.group(1).casefold()), stem(found.group(2).casefold())) if found else None


def conflict(a: Statement, b: Statement) -> bool:
    """The two cannot be one statement: different figures, one negated and not the other, or the
    same two things in the opposite order ("tabs over spaces", "spaces over tabs")."""
    if a.figures and b.figures and a.figures != b.figures:
        return True
    if _negated(a.text) != _negated(b.text):
        return True
    da, db = _direction(a.text), _direction(b.text)
    return da is not None and db is not None and da != db and set(da) == set(db)


def cosine(a: Memory, b: Memory) -> float | None:
    if a.vector is None or b.vector is None:
        return None
    return float(np.dot(a.vector, b.vector))


def comparable(new: Memory, old: Memory) -> bool:
    """The pairs a judge is asked about: the same type, or a task and an outcome."""
    return new.memory_type == old.memory_type or {new.memory_type, old.memory_type} == {
        "task", "outcome"}


class Judge:
    """The rules: `same`, `updates` or `unrelated` for two memories of one project."""

    name = "rules"

    def __init__(self, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> None:
        self.t = thresholds

    def prepare(self, pairs: list[tuple[Memory, Memory]]) -> None:
        """Candidate pairs of the whole pass, before it starts (the model path asks them all in
        one batch); the rules decide each pair when asked."""

    def relation(self, new: Memory, old: Memory) -> tuple[str, float]:
        t = self.t
        cos = cosine(new, old)
        lexical = jaccard(new.said.stems, old.said.stems)
        close = cos if cos is not None else lexical  # no embedding: words stand in for meaning
        subject = jaccard(new.subject, old.subject) if new.subject or old.subject else lexical
        if {new.memory_type, old.memory_type} == {"task", "outcome"}:
            outcome = new if new.memory_type == "outcome" else old
            if not outcome.failed and close >= t.resolve_cosine and subject >= t.resolve_subject:
                return "updates", close
            return "unrelated", close
        clash = conflict(new.said, old.said)
        terms = new.said.terms, old.said.terms
        same_terms = not all(terms) or jaccard(*terms) >= 0.5  # a restatement names the same
        if not clash and same_terms and close >= t.same_cosine and subject >= t.same_subject:
            return "same", close
        if close >= t.update_cosine and subject >= t.update_subject:
            return "updates", close
        return "unrelated", close


class Pool:
    """A project's memories for one pass: every vector in one matrix (a new memory is compared
    with all of them in one product), stems in postings (for memories without a vector), and
    which memories are current."""

    def __init__(self, memories: list[Memory]) -> None:
        self.memories = memories
        self.index = {memory.memory_id: i for i, memory in enumerate(memories)}
        dims = next((len(m.vector) for m in memories if m.vector is not None), 0)
        self.matrix = np.zeros((len(memories), dims), dtype=np.float32)
        self.has_vector = np.zeros(len(memories), dtype=bool)
        for i, memory in enumerate(memories):
            if memory.vector is not None and len(memory.vector) == dims:
                self.matrix[i], self.has_vector[i] = memory.vector, True
        self.postings: dict[str, set[int]] = {}
        for i, memory in enumerate(memories):
            for word in memory.said.stems:
                self.postings.setdefault(word, set()).add(i)
        self.live: set[int] = set()

    def near(self, memory: Memory, among: set[int]) -> list[Memory]:
        """The memories of `among` close enough to `memory` to judge (CANDIDATE_COSINE), most
        similar first: by cosine where both have a vector, by shared words otherwise."""
        i = self.index[memory.memory_id]
        found: dict[int, float] = {}
        if self.has_vector[i]:
            sims = self.matrix @ self.matrix[i]
            hits = np.nonzero((sims >= CANDIDATE_COSINE) & self.has_vector)[0]
            found = {int(j): float(sims[j]) for j in hits if int(j) in among}
        lexical = set().union(*(self.postings.get(w, ()) for w in memory.said.stems))
        for j in lexical & among:
            if j in found or (self.has_vector[i] and self.has_vector[j]):
                continue
            close = jaccard(memory.said.stems, self.memories[j].said.stems)
            if close >= CANDIDATE_COSINE:
                found[j] = close
        found.pop(i, None)
        order = sorted(found, key=lambda j: (-found[j], self.memories[j].memory_id))
        return [self.memories[j] for j in order if comparable(memory, self.memories[j])]


def consolidate(new: Iterable[Memory], seen: Iterable[Memory], current: set[str],
                judge: Judge | None = None) -> list[Link]:
    """The links for `new` memories, given the project's memories already looked at (`seen`) and
    which of those are current. See the module docstring for the rules of the pass."""
    judge = judge or Judge()
    new = sorted(new, key=lambda memory: memory.order)
    seen = sorted(seen, key=lambda memory: memory.order)
    pool = Pool(seen + new)
    pool.live = {pool.index[m.memory_id] for m in seen if m.memory_id in current}
    judge.prepare(candidate_pairs(pool, new, seen))
    links: list[Link] = []
    for memory in new:
        live = pool.near(memory, pool.live)
        decided = _decide(memory, live, judge)
        links += decided or [Link(memory.memory_id, None, "distinct", judge.name)]
        gone = {link.target_id for link in decided if link.relation in ("supersedes", "resolves")}
        gone |= {link.memory_id for link in decided if link.relation == "duplicate"}
        pool.live.add(pool.index[memory.memory_id])
        pool.live -= {pool.index[memory_id] for memory_id in gone}
    return links


def _decide(memory: Memory, live: list[Memory], judge: Judge) -> list[Link]:
    """The links of one new memory against the current ones near it."""
    said: dict[str, list[tuple[float, Memory]]] = {"same": [], "updates": []}
    for old in live:
        relation, score = judge.relation(memory, old)
        if relation in said:
            said[relation].append((score, old))
    best = _best(said["same"], memory.memory_type)
    if best is not None:
        score, canonical = best
        return [Link(memory.memory_id, canonical.memory_id, "duplicate", judge.name, score)]
    links: list[Link] = []
    if memory.memory_type == "outcome" and not memory.failed:
        tasks = [(s, old) for s, old in said["updates"] if old.order <= memory.order]
        if (best := _best(tasks, "task")) is not None:
            links.append(Link(memory.memory_id, best[1].memory_id, "resolves", judge.name, best[0]))
    if memory.memory_type == "task":
        closers = [(s, old) for s, old in said["updates"] if not old.failed
                   and old.order >= memory.order]
        if (best := _best(closers, "outcome")) is not None:
            links.append(Link(best[1].memory_id, memory.memory_id, "resolves", judge.name, best[0]))
    remeasured = memory.memory_type == "outcome" and bool(memory.said.figures)
    if memory.memory_type in REPLACEABLE or remeasured:
        updates = [(s, old) for s, old in said["updates"]
                   if memory.memory_type != "outcome" or old.said.figures]
        if (best := _best(updates, memory.memory_type)) is not None:
            score, old = best
            if old.order <= memory.order:
                links.append(Link(memory.memory_id, old.memory_id, "supersedes", judge.name, score))
            else:  # a backfill brought the earlier statement after the later one
                links.append(Link(old.memory_id, memory.memory_id, "supersedes", judge.name, score))
    return links


def _best(scored: list[tuple[float, Memory]], memory_type: str) -> tuple[float, Memory] | None:
    """The most similar of the pairs of `memory_type`, ties to the earliest memory."""
    chosen = [(score, old) for score, old in scored if old.memory_type == memory_type]
    if not chosen:
        return None
    return min(chosen, key=lambda pair: (-pair[0], pair[1].order))


def candidate_pairs(pool: Pool, new: list[Memory], seen: list[Memory],
                    limit: int = MAX_CANDIDATES) -> list[tuple[Memory, Memory]]:
    """For each new memory, the most similar comparable memories (looked-at ones and earlier new
    ones) at or above CANDIDATE_COSINE: what a model is asked about, in one batch."""
    pairs: list[tuple[Memory, Memory]] = []
    before = {pool.index[memory.memory_id] for memory in seen}
    for memory in new:
        pairs += [(memory, old) for old in pool.near(memory, before)[:limit]]
        before.add(pool.index[memory.memory_id])
    return pairs
