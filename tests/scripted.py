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


def echo_report(prompt: ChunkPrompt) -> str:
    """A well-formed report grounded in the chunk: one item per section, real timestamps."""
    first, last = prompt.event_ts[0], prompt.event_ts[-1]
    lines = [line for line in prompt.user.splitlines() if line.startswith("[")]
    head = lines[0].split(": ", 1)[-1][:80] if lines else "nothing"
    return json.dumps(
        {
            "worked_on": [{"summary": f"Worked on: {head}", "ts_start": first, "ts_end": last,
                           "session_id": None}],
            "decisions": [{"summary": f"Decided after {len(lines)} events", "rationale": "scripted",
                           "ts": last}],
            "outcomes": [{"summary": f"Outcome of chunk ending {last}", "result": "success",
                          "ts": last}],
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
