"""A scripted model backend for pipeline tests that do not test the model itself.

It answers from a script (a callable over the chunk prompt) and records nothing global: each Ray
actor builds its own from the factory. Registered by value for pickling, so Ray workers need not
import the tests package.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from ingest.errors import BackendError
from synth.backends import Backend, Completion
from synth.prompt import ChunkPrompt


def cited(line: str) -> list[int]:
    """The evidence of an item restating one prompt line `[seq] ts ... : content`."""
    return [int(line[1:line.index("]")])]


def echo_report(prompt: ChunkPrompt) -> str:
    """A well-formed report grounded in the chunk: one item per section it can support, real
    timestamps, each item citing the event it restates."""
    first, last = prompt.event_ts[0], prompt.event_ts[-1]
    lines = [line for line in prompt.user.splitlines() if line.startswith("[")]

    def said(index: int) -> tuple[str, list[int]]:
        line = lines[index] if lines else "[0] nothing"
        return line.split(": ", 1)[-1][:80], cited(line)

    head, head_seq = said(0)
    tail, tail_seq = said(-1)
    return json.dumps(
        {
            "worked_on": [{"summary": f"Worked on: {head}", "ts_start": first, "ts_end": last,
                           "session_id": None, "evidence": head_seq}],
            "decisions": [{"summary": f"Decided: {tail}", "rationale": None, "ts": last,
                           "evidence": tail_seq}],
            "outcomes": [{"summary": f"Outcome: {tail}", "result": "success", "ts": last,
                          "evidence": tail_seq}],
            "blockers": [],
            "open_questions": [],
            "preferences_learned": [],
        }
    )


class ScriptedBackend(Backend):
    name = "scripted"
    model = "scripted-v1"

    def __init__(self, answer: Callable[[ChunkPrompt], str] = echo_report,
                 max_chunk_chars: int | None = None, delay: float = 0.0) -> None:
        self.answer = answer
        self.max_chunk_chars = max_chunk_chars
        self.delay = delay
        self.calls = 0

    def complete(self, prompt: ChunkPrompt, schema: dict, *, repair: str | None = None) -> Completion:
        self.calls += 1
        if self.delay:
            time.sleep(self.delay)
        text = self.answer(prompt)
        if text is None:
            raise BackendError("scripted timeout")
        return Completion(text=text, prompt_tokens=len(prompt.as_text()) // 4,
                          completion_tokens=len(text) // 4, seconds=self.delay)


def factory(answer: Callable[[ChunkPrompt], str] = echo_report, **options) -> Callable[[], ScriptedBackend]:
    return lambda: ScriptedBackend(answer, **options)
