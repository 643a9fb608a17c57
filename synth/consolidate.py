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
cosine: `synth.pairs`), or a model (`synth.judge`) asked about candidate pairs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from synth.pairs import DEFAULT_THRESHOLDS, Judge, Memory, Thresholds, comparable, cosine
from synth.statements import jaccard

__all__ = ["DEFAULT_THRESHOLDS", "Judge", "Link", "Memory", "Pool", "Thresholds", "consolidate",
           "cosine"]

RELATIONS = ("duplicate", "supersedes", "resolves", "distinct")
REPLACEABLE = ("decision", "preference", "fact")  # a later one on the same subject replaces it
CANDIDATE_COSINE = 0.45  # pairs below this never reach a judge (the model path asks above it)
MAX_CANDIDATES = 4  # per new memory, the most similar current ones the model is asked about


@dataclass(frozen=True)
class Link:
    memory_id: str
    target_id: str | None
    relation: str
    decided_by: str
    score: float | None = None


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
    judge.know(pool.memories)
    if judge.asks:
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
    # An outcome closes every open task it resolves; a task already resolved by a later outcome
    # is closed by the closest one.
    if memory.memory_type == "outcome" and not memory.failed:
        for score, old in _all(said["updates"], "task"):
            if old.order <= memory.order:
                links.append(Link(memory.memory_id, old.memory_id, "resolves", judge.name, score))
    if memory.memory_type == "task":
        closers = [(s, old) for s, old in said["updates"] if not old.failed
                   and old.order >= memory.order]
        if (best := _best(closers, "outcome")) is not None:
            links.append(Link(best[1].memory_id, memory.memory_id, "resolves", judge.name, best[0]))
    remeasured = memory.memory_type == "outcome" and bool(memory.said.figures)
    if memory.memory_type in REPLACEABLE or remeasured:
        updates = [(s, old) for s, old in _all(said["updates"], memory.memory_type)
                   if memory.memory_type != "outcome" or old.said.figures]
        later = [(s, old) for s, old in updates if old.order > memory.order]
        for score, old in updates:  # every earlier one it replaces ...
            if old.order <= memory.order:
                links.append(Link(memory.memory_id, old.memory_id, "supersedes", judge.name, score))
        if later:  # ... or the later one that replaces it (a backfill brought it late)
            score, old = _best(later, memory.memory_type)
            links.append(Link(old.memory_id, memory.memory_id, "supersedes", judge.name, score))
    return links


def _all(scored: list[tuple[float, Memory]], memory_type: str) -> list[tuple[float, Memory]]:
    return sorted([(score, old) for score, old in scored if old.memory_type == memory_type],
                  key=lambda pair: pair[1].order)


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
