"""Scores of what a backend wrote over the quality set, with the strict matcher; the verdict
against the `copy-prompts` baseline. Pure: memories and labels in, numbers out.

- recall: planted facts that ONE memory of their trail states (`bench/strict_match.py`: all
  terms with their polarity, all figures) and that falls into no trap, over facts planted in the
  split's trails; per planted type, the memory must also be of that type;
- label precision: memories that state a planted fact or a labelled acceptable statement of their
  trail, and violate no trap, over memories written;
- traps violated: (trail, trap) pairs where a memory of the trail states the trap, over the traps
  planted; a trap with `after` counts only on the trail files that hold that turn (a hypothesis
  is wrong once the trail moved past it; a blocker once it was lifted);
- useful: beats `copy-prompts` (every user prompt stored verbatim) on recall AND precision.

Another extraction mode is compared by handing its memories (`type`, `content`, `file`: the set
file of the memory's trail, e.g. `trails/codex/...jsonl`) to `score_memories`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from bench.quality_run import SET, trails_of
from bench.strict_match import states, violates

TYPES = ("decision", "outcome", "task", "fact", "preference")
BASELINE = "copy-prompts"


@dataclass
class Score:
    trails: int = 0
    planted: int = 0
    memories: int = 0
    recall: float = 0.0
    precision: float | None = None
    traps: int = 0
    traps_violated: int = 0
    recall_by_type: dict[str, float | None] = field(default_factory=dict)
    found: list[str] = field(default_factory=list)  # "story/shape: statement" of facts found
    violations: list[dict] = field(default_factory=list)  # trap statement, memory, file

    def as_json(self) -> dict:
        return asdict(self)


def _holds(path: str, text: str, cache: dict[str, str]) -> bool:
    if path not in cache:
        cache[path] = (SET / path).read_text(encoding="utf-8")
    return text in cache[path] or json.dumps(text)[1:-1] in cache[path]


def score_memories(memories: list[dict], labels: dict, split: str = "test") -> Score:
    """Score memories (`type`, `content`, `file`) against the split's labels."""
    trails = trails_of(labels, split)
    by_file: dict[str, list[dict]] = {}
    for memory in memories:
        by_file.setdefault(memory.get("file") or "", []).append(memory)
    files_cache: dict[str, str] = {}
    score = Score(trails=len(trails))
    typed = {kind: [0, 0] for kind in TYPES}
    found_any = precise = 0
    for trail in trails:
        story = labels["stories"][trail["story"]]
        where = f"{trail['story']}/{trail['shape']}"
        pairs = [(name, m) for name in trail["files"] for m in by_file.get(name, [])]
        wrong: set[int] = set()
        for trap in story["traps"]:
            score.traps += 1
            hits = [(name, m) for name, m in pairs
                    if (not trap.get("after") or _holds(name, trap["after"], files_cache))
                    and violates(m["content"], m["type"], trap)]
            score.traps_violated += bool(hits)
            wrong.update(id(m) for _, m in hits)
            score.violations += [{"trap": trap["statement"], "kind": trap["kind"],
                                  "memory": m["content"], "file": name} for name, m in hits]
        for fact in story["facts"]:
            score.planted += 1
            typed[fact["type"]][1] += 1
            stating = [m for _, m in pairs if id(m) not in wrong and states(m["content"], fact)]
            found_any += bool(stating)
            typed[fact["type"]][0] += any(m["type"] == fact["type"] for m in stating)
            if stating:
                score.found.append(f"{where}: {fact['statement']}")
        claims = story["facts"] + story["acceptable"]
        precise += sum(id(m) not in wrong and any(states(m["content"], c) for c in claims)
                       for _, m in pairs)
    in_split = {name for trail in trails for name in trail["files"]}
    score.memories = sum(len(ms) for name, ms in by_file.items() if name in in_split)
    score.memories += len(by_file.get("", []))  # a memory of no known trail is still written
    score.recall = round(found_any / score.planted, 3) if score.planted else 0.0
    score.precision = round(precise / score.memories, 3) if score.memories else None
    score.recall_by_type = {kind: (round(f / n, 3) if n else None)
                            for kind, (f, n) in typed.items()}
    return score


def verdict(score: Score, baseline: Score | None) -> str:
    """Whether a backend is useful: it beats copy-prompts on recall AND precision."""
    if baseline is None:
        return "n/a (no copy-prompts row)"
    precision = score.precision or 0.0
    base_precision = baseline.precision or 0.0
    better = [score.recall > baseline.recall, precision > base_precision]
    if all(better):
        return "yes"
    why = []
    if not better[0]:
        why.append(f"recall {score.recall} ≤ {baseline.recall}")
    if not better[1]:
        why.append(f"precision {precision} ≤ {base_precision}")
    return "no (" + ", ".join(why) + ")"
