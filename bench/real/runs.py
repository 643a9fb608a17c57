"""Running one backend over the real sessions through the pipeline's own stages (plan the
prompts, ask the model, reduce and check, report to memories), without a lake: what a run would
commit for each window is what is scored.

Backends: the registry's (`embedded`, `llamacpp`, `openai`, `vllm`), `none`, the old default
(`before`: the 135M model labelling the hand cues' shortlist), and the baselines `copy-prompts`
(bench/quality_backends.py), `last-reply` and `oracle` (the gold as answers).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from bench.quality_backends import CopyPromptsBackend, _answer, prompt_events, report_item
from bench.real.labels import SessionLabels
from sinks.items import MemoryItem, report_to_items
from synth.backends import Backend, Completion, create_backend
from synth.interview import WindowFailure, ask_model_many, plan_prompts, unsynthesized, window_outcome
from synth.prompt import ChunkPrompt
from synth.report import SECTION_OF, SECTIONS


class LastReplyBackend(Backend):
    """Each window's final assistant reply, verbatim, as what the window was about."""

    name = "last-reply"
    model = "last-reply-v1"

    def complete(self, prompt: ChunkPrompt, schema: dict, *, repair: str | None = None) -> Completion:
        replies = [e for e in prompt_events(prompt) if e["role"] == "assistant" and e["text"].strip()]
        items = []
        if replies:
            last = replies[-1]
            items.append({"summary": last["text"].strip()[:2000], "ts_start": last["ts"],
                          "ts_end": last["ts"], "session_id": None, "evidence": [last["seq"]]})
        return _answer({"worked_on": items}, prompt)


class GoldBackend(Backend):
    """The reader's gold list as the answer: each item in its section, citing its events."""

    name = "oracle"
    model = "reader-gold-v1"

    def __init__(self, gold: list[dict]) -> None:
        self.gold = gold

    def complete(self, prompt: ChunkPrompt, schema: dict, *, repair: str | None = None) -> Completion:
        seqs = dict(zip(prompt.event_seqs, prompt.event_ts))
        report: dict[str, list[dict]] = {name: [] for name in SECTIONS}
        for item in self.gold:
            cited = [s for s in item.get("seqs", []) if s in seqs][:5]
            if not cited:
                continue
            section = SECTION_OF[item["type"]]
            report[section].append(report_item(section, item["text"], cited, seqs[cited[0]],
                                               seqs[cited[-1]], item.get("result") or "partial"))
        return _answer(report, prompt)


@dataclass
class SessionRun:
    name: str
    memories: list[MemoryItem]
    failed_windows: int = 0


@dataclass
class BackendRun:
    backend: str
    model: str
    sessions: list[SessionRun] = field(default_factory=list)
    seconds: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0


# name → (registry backend or bench class, prompt variant, options)
BACKENDS = {
    "embedded": ("embedded", "extract", {}),
    "embedded+135m": ("llamacpp", "extract", {}),
    "before": ("llamacpp", "extract-cues", {}),
    "copy-prompts": (CopyPromptsBackend, "contract", {}),
    "last-reply": (LastReplyBackend, "contract", {}),
    "oracle": (GoldBackend, "contract", {}),
    "none": (None, None, {}),
    "openai": ("openai", "contract", {}),
    "vllm": ("vllm", "contract", {}),
}
CHUNK_CHARS = {"llamacpp": 9_000}


def run_backend(name: str, labelled: dict[str, SessionLabels], options: dict | None = None) -> BackendRun:
    """Every window of every session through one backend; each session's memories."""
    target, variant, defaults = BACKENDS[name]
    options = {**defaults, **(options or {})}
    backend = None
    if isinstance(target, str):
        backend = create_backend(target, options)
    elif target is CopyPromptsBackend or target is LastReplyBackend:
        backend = target()
    chunk_chars = options.get("max_chunk_chars") or CHUNK_CHARS.get(target, 96_000)
    run = BackendRun(name, getattr(backend, "model", "none") if backend else "none")
    started = time.perf_counter()
    try:
        for session_name, labels in labelled.items():
            if target is GoldBackend:
                backend = GoldBackend(list(labels.gold))
            out = SessionRun(session_name, [])
            for window in labels.session.windows:
                if backend is None:
                    report = unsynthesized(window).report
                else:
                    prompts = plan_prompts(window, chunk_chars, variant)
                    answers = ask_model_many(backend, prompts)
                    run.prompt_tokens += sum(a.prompt_tokens for a in answers)
                    run.completion_tokens += sum(a.completion_tokens for a in answers)
                    outcome = window_outcome(window, answers)
                    if isinstance(outcome, WindowFailure):
                        out.failed_windows += 1
                        continue
                    report = outcome.report
                out.memories.extend(report_to_items(report, window))
            run.sessions.append(out)
    finally:
        if backend is not None:
            backend.close()
    run.seconds = time.perf_counter() - started
    return run


def memory_record(item: MemoryItem) -> dict:
    return {"type": item.memory_type, "content": item.content, "evidence": list(item.evidence)}


def dump(run: BackendRun) -> str:
    return json.dumps({"backend": run.backend, "model": run.model, "seconds": round(run.seconds, 2),
                       "sessions": {s.name: [memory_record(m) for m in s.memories]
                                    for s in run.sessions}})
