"""The map: windows in, `(window, report | failure)` out, through the model pool on Ray.

Windows come in lanes, one per node, each in seq order. A lane has at most one window in flight,
so its windows finish (and commit) in order and the watermark only ever passes committed windows;
different lanes run side by side, up to `max_inflight` windows at once. A failed window ends its
lane for this run (the later windows would have to pass it); the consumer ends a lane with
`stop(node_id)` when a window fails at commit.

With `verify` on (openai, vllm), a window whose reduced report has items goes back to the pool
once more for the verify pass (`synth.support.verify`) before it is handed on.

Without a pool (the `none` backend) every window becomes its unsynthesized episode, in order.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ingest.windows import Window
from synth.chunking import CHUNK_MAX_CHARS
from synth.grounding import SupportCheck
from synth.interview import (
    ChunkAnswer,
    WindowFailure,
    WindowReport,
    plan_prompts,
    unsynthesized,
    window_outcome,
)
from synth.support.verify import VerifyAnswer, VerifyRequest, apply_verdicts, verify_request

log = logging.getLogger(__name__)
VERIFY = -1  # the index that marks a window's verify call among its chunk calls


@dataclass
class MapCounts:
    chunks: int = 0
    model_seconds: float = 0.0
    verify_calls: int = 0  # the verify pass: one call per window with items (strong backends)
    verify_failed: int = 0  # ... that gave no verdicts: the rules' items were kept
    verify_tokens: int = 0
    verify_seconds: float = 0.0


@dataclass
class Mapped:
    window: Window
    outcome: WindowReport | WindowFailure

    @property
    def failed(self) -> bool:
        return isinstance(self.outcome, WindowFailure)


@dataclass
class _Flight:
    window: Window
    lane: Iterator[Window]
    answers: list[ChunkAnswer | None] = field(default_factory=list)
    reduced: WindowReport | None = None  # waiting for its verify call
    request: VerifyRequest | None = None


class WindowMap:
    """`pool`: a `ModelPool` (or None for no model); `chunk_chars`: the chunk budget;
    `on_submit`: called after each window's chunks go out (a crash point in tests)."""

    def __init__(self, pool=None, *, chunk_chars: int = CHUNK_MAX_CHARS, max_inflight: int = 4,
                 on_submit: Callable[[str], None] | None = None,
                 halted: Callable[[], bool] = lambda: False, prompt_variant: str = "contract",
                 check: SupportCheck | None = None, verify: bool = False) -> None:
        self.pool = pool
        self.check = check  # the support check's settings and closeness in meaning
        self.verify = verify  # one verify call per window with items (synth.support.verify)
        self.prompt_variant = prompt_variant
        self.halted = halted  # True: a stop was asked; no new window, in-flight ones abandoned
        self.chunk_chars = chunk_chars
        self.max_inflight = max_inflight
        self.counts = MapCounts()
        self._on_submit = on_submit
        self._stopped: set[str] = set()
        self._active: dict[str, _Flight] = {}

    @property
    def busy(self) -> bool:
        """Windows are in flight (the consumer may wait for them before committing)."""
        return bool(self._active)

    def stop(self, node_id: str) -> None:
        """Take no more windows of this node in this run."""
        self._stopped.add(node_id)

    def run(self, lanes: Iterable[Iterator[Window]]) -> Iterator[Mapped]:
        queue = deque(iter(lane) for lane in lanes)
        if self.pool is None:
            yield from self._without_model(queue)
        else:
            yield from self._on_pool(queue)

    def _verified(self, flight: _Flight, answer: VerifyAnswer) -> WindowReport:
        """The reduced report with the verify pass's verdicts applied (kept whole if it failed)."""
        report = flight.reduced
        self.counts.verify_calls += 1
        self.counts.verify_tokens += answer.tokens
        self.counts.verify_seconds += answer.seconds
        report.verify_calls += 1
        report.verify_tokens += answer.tokens
        report.verify_seconds += answer.seconds
        if answer.verdicts is None:
            self.counts.verify_failed += 1
            log.warning("verify pass failed for %s (%s..%s), its items kept: %s",
                        flight.window.node_id, flight.window.cursor_from, flight.window.cursor_to,
                        answer.error)
            return report
        report.report, dropped = apply_verdicts(report.report, flight.request, answer.verdicts)
        for reason, count in dropped.items():
            report.unsupported[reason] = report.unsupported.get(reason, 0) + count
        return report

    def _without_model(self, queue: deque[Iterator[Window]]) -> Iterator[Mapped]:
        for lane in queue:
            for window in lane:
                if window.node_id in self._stopped or self.halted():
                    break
                yield Mapped(window, unsynthesized(window))

    def _next_window(self, lane: Iterator[Window]) -> Window | None:
        window = next(lane, None)
        if window is None or window.node_id in self._stopped:
            return None
        return window

    def _on_pool(self, queue: deque[Iterator[Window]]) -> Iterator[Mapped]:
        import ray

        owners: dict = {}  # chunk ref → (node_id, chunk index)
        while (queue or self._active) and not self.halted():
            while queue and len(self._active) < self.max_inflight:
                lane = queue.popleft()
                window = self._next_window(lane)
                if window is None:
                    continue
                prompts = plan_prompts(window, self.chunk_chars, self.prompt_variant)
                refs = [self.pool.submit(prompt) for prompt in prompts]
                self._active[window.node_id] = _Flight(window, lane, [None] * len(refs))
                for index, ref in enumerate(refs):
                    owners[ref] = (window.node_id, index)
                if self._on_submit:
                    self._on_submit("mid_model_call")
            if not owners:
                continue
            # A timeout, so that a stop asked while the model works is seen within a second.
            done, _ = ray.wait(list(owners), num_returns=1, timeout=1.0)
            for ref in done:
                node, index = owners.pop(ref)
                flight = self._active[node]
                if index == VERIFY:
                    outcome = self._verified(flight, self.pool.result(ref))
                else:
                    flight.answers[index] = self.pool.result(ref)
                    if any(answer is None for answer in flight.answers):
                        continue
                    self.counts.chunks += len(flight.answers)
                    self.counts.model_seconds += sum(answer.seconds for answer in flight.answers)
                    outcome = window_outcome(flight.window, flight.answers, self.check)
                    if self.verify and isinstance(outcome, WindowReport):
                        flight.request = verify_request(outcome.report, list(flight.window.events))
                        if flight.request is not None:
                            flight.reduced = outcome
                            owners[self.pool.verify(flight.request)] = (node, VERIFY)
                            continue
                del self._active[node]
                mapped = Mapped(flight.window, outcome)
                if mapped.failed:
                    self.stop(node)
                yield mapped
                if node not in self._stopped:
                    queue.append(flight.lane)
