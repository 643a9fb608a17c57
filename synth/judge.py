"""Consolidation with a model (the `openai` and `vllm` backends): each candidate pair of memories
is one schema-constrained question, as mem0 asks its model to ADD, UPDATE or DELETE a fact.

The answer is one of `same` (a restatement: a duplicate), `updates` (the same subject, revised:
a new choice, a changed preference, a new figure, or a result that closes the task),
`contradicts` (treated as `updates`: the later statement wins) or `unrelated`. All the pairs of a
pass go to the model in one batch (`prepare`); a pair whose answer is unusable is decided by the
rules, and counted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import orjson

from ingest.errors import BackendError
from synth.backends import Completion, Request
from synth.pairs import Judge, Memory, Thresholds, cosine
from synth.prompt import ChunkPrompt

log = logging.getLogger(__name__)

ANSWERS = ("same", "updates", "contradicts", "unrelated")
JUDGE_VERSION = "consolidate-v1"
SCHEMA = {"type": "object", "properties": {"relation": {"enum": list(ANSWERS)}},
          "required": ["relation"], "additionalProperties": False}

INSTRUCTIONS = """\
You keep a software team's memory of past coding-agent sessions current. You are shown two \
memories of the same project: A, said first, and B, said later. Decide how B relates to A.

- "same": B states what A states (a restatement, in other words or with more detail).
- "updates": B is about the same subject as A and revises it: a different choice, a changed \
preference, a newer figure for the same measure, or a result that fixes or closes A's problem.
- "contradicts": B says that A is wrong or no longer holds.
- "unrelated": B is about something else, even if it uses similar words (another component, \
another metric, another file).

Answer with ONLY a JSON object: {"relation": "same" | "updates" | "contradicts" | "unrelated"}.
"""


def pair_prompt(first: Memory, later: Memory) -> ChunkPrompt:
    """The question for one pair, the earlier memory as A."""
    def line(label: str, memory: Memory) -> str:
        when = memory.start.isoformat() if memory.start else "undated"
        return f"{label} ({memory.memory_type}, {when}): {' '.join(memory.content.split())}"

    user = "\n".join([line("A", first), line("B", later), "", "How does B relate to A?"])
    return ChunkPrompt(system=INSTRUCTIONS, user=user, event_ts=(), variant="judge")


def parse_answer(text: str) -> str | None:
    try:
        value = orjson.loads(text.strip().strip("`").removeprefix("json").strip())
    except orjson.JSONDecodeError:
        return None
    relation = value.get("relation") if isinstance(value, dict) else None
    return relation if relation in ANSWERS else None


class ModelJudge(Judge):
    """Asks `ask` (a backend's `complete_many`, or the model actors') about every candidate pair
    of a pass, then answers `relation` from what it said."""

    def __init__(self, ask: Callable[[list[Request]], list[Completion | BackendError]],
                 model: str, thresholds: Thresholds | None = None, batch: int = 64) -> None:
        super().__init__(thresholds or Thresholds())
        self.asks = True
        self.ask = ask
        self.name = f"model:{model}"
        self.batch = batch
        self.answers: dict[tuple[str, str], str] = {}
        self.unusable: set[tuple[str, str]] = set()  # decided by the rules instead
        self.asked = 0

    def prepare(self, pairs: list[tuple[Memory, Memory]]) -> None:
        todo = [(new, old) for new, old in pairs
                if (new.memory_id, old.memory_id) not in self.answers]
        for start in range(0, len(todo), self.batch):
            part = todo[start:start + self.batch]
            requests: list[Request] = []
            for new, old in part:
                first, later = (old, new) if old.order <= new.order else (new, old)
                requests.append((pair_prompt(first, later), SCHEMA, None))
            for (new, old), answer in zip(part, self.ask(requests)):
                self.asked += 1
                relation = parse_answer(answer.text) if isinstance(answer, Completion) else None
                if relation is None:
                    self.unusable.add((new.memory_id, old.memory_id))
                    log.debug("unusable answer for %s/%s: %s", new.memory_id, old.memory_id,
                              answer)
                    continue
                self.answers[(new.memory_id, old.memory_id)] = relation

    def relation(self, new: Memory, old: Memory) -> tuple[str, float]:
        pair = (new.memory_id, old.memory_id)
        if pair in self.unusable:
            return super().relation(new, old)
        said = self.answers.get(pair, "unrelated")  # not a candidate: never asked
        score = cosine(new, old) or 0.0
        if said in ("updates", "contradicts"):
            return "updates", score
        return said, score
