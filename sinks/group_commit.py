"""Group commit: the one place a window's outcome reaches the lake.

Every way in (a run, a backfill, `interview submit`) hands each window to a `GroupCommit`:
- `add(window, report)`: a reduced window, queued and committed with others in ONE transaction
  (`commit_windows`) once `every_windows` are queued or the oldest has waited `every_seconds`;
- `fail(window, reason)`: a window whose model calls failed, counted against the retry budget
  and parked once it is spent (its watermark stays);
- `replay(window)`: a window an earlier run committed, resolved as duplicates without the model.

It keeps its own counts, stops a node whose window failed at commit (later windows of that node
wait for the next run), recovers windows that had failed before, and merges the lake's small files
every `merge_every_commits` commits so that a long run's look-ups do not slow down.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import duckdb

from ingest.windows import Window
from sinks.commit import (
    CommitContext,
    PendingWindow,
    WindowResult,
    commit_windows,
    committed_attempts,
    replay_committed,
)
from sinks.inbox import MAX_ATTEMPTS, Settled, job_id, release_job
from sinks.items import report_to_items
from sinks.maintenance import merge_small_files
from sinks.parked import clear_failures, failed_cursors, record_failure
from synth.interview import WindowReport

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CommitPolicy:
    every_windows: int = 32
    every_seconds: float = 2.0
    merge_every_commits: int = 64  # 0: never
    retry_budget: int = 3
    merged_files_grace_seconds: float | None = None  # None: merged-away files wait for `compact`


@dataclass
class CommitCounts:
    windows: int = 0
    memories_written: int = 0
    duplicates: int = 0
    item_errors: int = 0
    parked: int = 0
    retrying: int = 0
    deferred: int = 0  # windows left for the next run behind a failed one of their node
    timestamps_dropped: int = 0
    instructions_dropped: int = 0
    forgotten_dropped: int = 0  # items of windows over events `interview forget` removed
    unsupported_dropped: int = 0  # items their cited events do not support (synth.grounding)
    dropped_no_evidence: int = 0
    dropped_prompt_copy: int = 0
    dropped_unsupported_figure: int = 0
    dropped_unsupported_words: int = 0
    dropped_polarity: int = 0  # says the opposite of the sentence it restates
    dropped_figure_role: int = 0  # a figure with another figure's subject
    dropped_direction: int = 0  # a change turned around
    dropped_refuted: int = 0  # a hypothesis later events rejected, stated as true
    dropped_contradicted: int = 0  # the verify pass: contradicted by its events
    dropped_not_addressed: int = 0  # the verify pass: its events do not address it
    paraphrased: int = 0  # items kept by closeness in meaning, with few of their events' words


class _Silent:
    def window_done(self, status: str, memories: int) -> None: ...

    def note(self, message: str) -> None: ...


class GroupCommit:
    """Windows of one tenant into one lake; see the module docstring. `context` names the run,
    backend, model and prompt every ledger row carries."""

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        tenant_id: str,
        context: CommitContext,
        policy: CommitPolicy = CommitPolicy(),
        *,
        embedder: Callable[[], object] | None = None,
        crash_hook: Callable[[str], None] | None = None,
        progress=None,
        on_result: Callable[[Window, WindowResult], None] | None = None,
    ) -> None:
        self.con = con
        self.tenant_id = tenant_id
        self.context = context
        self.policy = policy
        self.counts = CommitCounts()
        self.stopped: set[str] = set()  # nodes whose window failed at commit
        self._embedder = embedder
        self._crash_hook = crash_hook
        self._progress = progress or _Silent()
        self._on_result = on_result
        self._failed_before = failed_cursors(con, tenant_id)
        self._jobs: dict[str, int] = {}  # attempt id → attempts, for windows from the inbox
        self._pending: list[tuple[PendingWindow, WindowReport]] = []
        self._pending_since = 0.0
        self._commits = 0

    def expect_jobs(self, jobs) -> None:
        """Windows of these claimed inbox jobs settle their job with their memories."""
        self._jobs.update((job.window.attempt_id, job.attempts) for job in jobs)

    def committed(self) -> set[str]:
        """Attempt ids this tenant has committed already (a replay starts from these)."""
        return committed_attempts(self.con, self.tenant_id)

    @property
    def due(self) -> bool:
        """Something waits, and the oldest has waited `every_seconds`."""
        return bool(self._pending) and (
            time.monotonic() - self._pending_since >= self.policy.every_seconds)

    def add(self, window: Window, report: WindowReport) -> bool:
        """Queue a reduced window; False once its node has stopped (the caller stops feeding it)."""
        if window.node_id in self.stopped:
            self.counts.deferred += 1
            return False
        if not self._pending:
            self._pending_since = time.monotonic()
        context = dataclasses.replace(self.context, timestamps_dropped=report.timestamps_dropped)
        items = report_to_items(report.report, window)
        self._pending.append((PendingWindow(window, items, context,
                                            job_attempts=self._jobs.get(window.attempt_id)), report))
        if len(self._pending) >= self.policy.every_windows:
            self.flush()
        return window.node_id not in self.stopped

    def fail(self, window: Window, reason: str, errors: int = 1) -> str:
        """A window whose model calls failed: `retrying`, or `parked` once the budget is spent.
        An inbox job goes back to `pending`; its attempts decide when it is parked."""
        attempts = self._jobs.get(window.attempt_id)
        if attempts is not None:
            release_job(self.con, self.tenant_id, Settled(job_id(window.attempt_id), "pending",
                                                          attempts, reason), self.context.run_id)
            status = "parked" if attempts >= MAX_ATTEMPTS else "retrying"
        else:
            status = record_failure(self.con, window, reason, self.policy.retry_budget)
        if status == "parked":
            self.counts.parked += 1
        else:
            self.counts.retrying += 1
        self._progress.note(
            f"{window.node_id} window {window.cursor_from}..{window.cursor_to} {status}: {reason}")
        self._progress.window_done(status, 0)
        if self._on_result:
            self._on_result(window, WindowResult(window.attempt_id, "failed", None, errors=errors))
        return status

    def replay(self, window) -> WindowResult:
        """A window committed by an earlier run: duplicates, no model call."""
        result = replay_committed(self.con, window, self.context.run_id)
        self.counts.windows += 1
        self.counts.duplicates += result.duplicates
        self._progress.window_done(result.status, 0)
        if self._on_result:
            self._on_result(window, result)
        return result

    def flush(self) -> None:
        """Commit the queued windows in one transaction, then count them."""
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        embedder = self._embedder() if self._embedder else None
        results = commit_windows(self.con, [pending for pending, _ in batch], embedder=embedder,
                                 crash_hook=self._crash_hook)
        self._commits += 1
        every = self.policy.merge_every_commits
        if every and self._commits % every == 0:
            merge_small_files(self.con, crash_hook=self._crash_hook,
                              grace_seconds=self.policy.merged_files_grace_seconds)
        recovered = []
        for (pending, report), result in zip(batch, results):
            window = pending.window
            self._count(window, report, result)
            if result.status not in ("failed", "skipped"):
                key = (window.node_id, window.cursor_from)
                if key in self._failed_before:
                    recovered.append(key)
                    self._failed_before.discard(key)
            if self._on_result:
                self._on_result(window, result)
        clear_failures(self.con, self.tenant_id, recovered)

    def _count(self, window: Window, report: WindowReport, result: WindowResult) -> None:
        counts = self.counts
        if result.status == "skipped":  # after a failed window of its node: next run
            counts.deferred += 1
            return
        if result.status == "failed":
            self.stopped.add(window.node_id)
        counts.windows += 1
        counts.memories_written += result.memories_written
        counts.duplicates += result.duplicates
        counts.item_errors += result.errors
        counts.timestamps_dropped += report.timestamps_dropped
        counts.instructions_dropped += report.instructions_dropped
        counts.forgotten_dropped += result.forgotten
        for reason, dropped in report.unsupported.items():
            counts.unsupported_dropped += dropped
            setattr(counts, f"dropped_{reason}", getattr(counts, f"dropped_{reason}") + dropped)
        counts.paraphrased += report.paraphrased
        self._progress.window_done(result.status, result.memories_written)

    def flush_on_the_way_out(self) -> None:
        """A run that is failing still commits the windows it finished (nothing is lost); a
        failure of that commit is logged, and the original error goes on."""
        waiting = len(self._pending)
        try:
            self.flush()
        except Exception:  # noqa: BLE001 - the original error matters more
            log.exception("could not commit %d finished windows while failing", waiting)
