"""The quality bench's scripted backends: baselines that answer through the real pipeline.

- `copy-prompts`: every distinct user prompt of the chunk, verbatim, as a `worked_on` item citing
  its own event: what a memory store that keeps the requests would hold. A backend is useful only
  where it beats this on recall and on precision.
- `oracle`: the labels as answers: each planted fact whose source turn is in the chunk, as its
  ideal statement in its section, citing the events it comes from, with their time. What lands
  is the ceiling of everything after the model (masking, the reduce, the support check, the
  commit).

Both are registered in the backend registry (`register_bench_backends`), so a run names them
like any backend (`settings.backend`, the ledger's `backend` column); the bench hands the run a
factory built from the registry entry, because Ray's model actors are separate processes that do
not import this module's registrations.
"""

from __future__ import annotations

import functools
import json
import re

from synth.backends import Backend, Completion, backend_factory, register_backend
from synth.prompt import ChunkPrompt
from synth.report import SECTION_OF, SECTIONS

_HEAD = re.compile(r"^\[(\d+)\] (\S+) \(session [^)]*\) (\w+)/(\w+)"
                   r"(?: tool=\S+)?(?: outcome=\S+)?: ", re.M)
_TAIL = "\n\nNow write the JSON report"


def prompt_events(prompt: ChunkPrompt) -> list[dict]:
    """The chunk's events as the model sees them: seq, ts, role and text."""
    seqs = set(prompt.event_seqs)
    trail = prompt.user.rpartition(_TAIL)[0] or prompt.user
    heads = [m for m in _HEAD.finditer(trail) if int(m.group(1)) in seqs]
    events = []
    for index, head in enumerate(heads):
        end = heads[index + 1].start() if index + 1 < len(heads) else len(trail)
        events.append({"seq": int(head.group(1)), "ts": head.group(2), "role": head.group(3),
                       "text": trail[head.end():end].rstrip("\n")})
    return events


def report_item(section: str, summary: str, evidence: list[int], ts_first: str, ts_last: str,
                result: str | None = None) -> dict:
    """One report item in `section`'s shape, citing `evidence`, timed by the cited events."""
    item = {"summary": summary, "evidence": evidence}
    if section == "worked_on":
        return item | {"ts_start": ts_first, "ts_end": ts_last, "session_id": None}
    item["ts"] = ts_first
    if section == "outcomes":
        item["result"] = result
    if section == "decisions":
        item["rationale"] = None
    return item


def _answer(report: dict[str, list[dict]], prompt: ChunkPrompt) -> Completion:
    text = json.dumps({name: report.get(name, []) for name in SECTIONS})
    return Completion(text=text, prompt_tokens=len(prompt.as_text()) // 4,
                      completion_tokens=len(text) // 4)


class CopyPromptsBackend(Backend):
    """Every distinct user prompt of the chunk, verbatim, as an episode citing its event."""

    name = "copy-prompts"
    model = "copy-prompts-v1"

    def complete(self, prompt: ChunkPrompt, schema: dict, *,
                 repair: str | None = None) -> Completion:
        items, seen = [], set()
        for event in prompt_events(prompt):
            text = event["text"].strip()
            if event["role"] != "user" or not text or text in seen:
                continue
            seen.add(text)
            items.append({"summary": text, "ts_start": event["ts"], "ts_end": event["ts"],
                          "session_id": None, "evidence": [event["seq"]]})
        return _answer({"worked_on": items}, prompt)


class OracleBackend(Backend):
    """The labels' ideal statements, each citing the chunk's events that hold its source."""

    name = "oracle"
    model = "oracle-labels-v1"

    def __init__(self, facts: list[dict]) -> None:
        self.facts = facts

    def complete(self, prompt: ChunkPrompt, schema: dict, *,
                 repair: str | None = None) -> Completion:
        events = prompt_events(prompt)
        report: dict[str, list[dict]] = {name: [] for name in SECTIONS}
        for fact in self.facts:
            cited = [e for e in events if any(source in e["text"] for source in fact["source"])]
            if not cited:
                continue
            section = SECTION_OF[fact["type"]]
            report[section].append(report_item(
                section, fact["statement"], [e["seq"] for e in cited[:5]], cited[0]["ts"],
                cited[-1]["ts"], fact.get("result")))
        return _answer(report, prompt)


BENCH_BACKENDS = {
    "copy-prompts": ("bench.quality_backends:CopyPromptsBackend",
                     "baseline: every user prompt stored verbatim (bench/quality.py)"),
    "oracle": ("bench.quality_backends:OracleBackend",
               "ceiling: the labels' ideal statements as answers (bench/quality.py)"),
}


def register_bench_backends() -> None:
    """Make the bench's backends choosable by name in this process."""
    for name, (target, summary) in BENCH_BACKENDS.items():
        register_backend(name, target, summary)


def bench_factory(name: str, options: dict):
    """A picklable factory for a registered bench backend, for the run's model actors."""
    from ray import cloudpickle

    import bench.quality_backends

    # The actors need not import `bench` (the package is not installed): ship this module by value.
    cloudpickle.register_pickle_by_value(bench.quality_backends)
    return functools.partial(backend_factory(name), **options)
