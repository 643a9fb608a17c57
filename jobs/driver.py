"""The driver: plan nodes on Ray, interview windows through the model pool with bounded work in
flight, and commit each window (memories, ledger, watermark) in order. Only the driver writes.

Per node, windows are interviewed one after another in seq order, so the watermark can only move
over committed windows; different nodes proceed in parallel. A window whose model calls fail is
counted against the retry budget and, once spent, parked; its node stops there and its watermark
stays put.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import logging
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from ingest.discover import NodeRef
from ingest.readers import ReadOptions
from ingest.events import Reject
from ingest.validate import validate_submit
from ingest.windows import Window
from jobs import faults
from jobs.planning import NodePlan, PlanOptions, WindowHead, mask_window, plan_group_split
from jobs.progress import NullProgress
from jobs.settings import Settings
from jobs.state import (
    clear_failure,
    failed_cursors,
    finish_run,
    new_run_id,
    parked_cursors,
    record_failure,
    record_nodes,
    start_run,
)
from sinks.commit import (
    CommitContext,
    PendingWindow,
    WindowResult,
    commit_windows,
    committed_attempts,
    replay_committed,
)
from sinks.items import report_to_items
from sinks.lake import Lake
from sinks.maintenance import merge_small_files
from sinks.watermarks import read_all_last_seqs
from synth.backends import NO_MODEL, ModelBackend
from synth.interview import ChunkAnswer, WindowReport, plan_prompts, reduce_answers, unsynthesized
from synth.prompt import PROMPT_VERSION

log = logging.getLogger(__name__)


@dataclass
class RunSummary:
    run_id: str
    kind: str
    backend: str
    model: str
    nodes: int = 0
    windows: int = 0
    memories_written: int = 0
    duplicates: int = 0
    item_errors: int = 0
    parked: int = 0
    retrying: int = 0
    deferred: int = 0
    chunks: int = 0
    timestamps_dropped: int = 0
    instructions_dropped: int = 0
    masked_spans: int = 0
    seconds: float = 0.0
    model_seconds: float = 0.0
    startup_seconds: float = 0.0  # until the first window could go out: Ray, planning, engine load
    skipped_not_due: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    rejects: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _InFlight:
    plan: NodePlan
    window: Window
    refs: list
    answers: list[ChunkAnswer | None]


def plan_options(settings: Settings) -> PlanOptions:
    return PlanOptions(
        tenant_id=settings.tenant_id,
        agent_id=settings.agent_id,
        flush=settings.flush,
        max_window_events=settings.max_window_events,
        max_window_chars=settings.max_window_chars,
        read=ReadOptions(settings.max_event_chars, tuple(settings.recall_guard_tags)),
        min_events=settings.min_events,
        min_chars=settings.min_chars,
        max_windows=settings.max_windows_per_node or settings.max_windows,
    )


def interleave_sources(plans: list[NodePlan]) -> list[NodePlan]:
    """Round-robin over sources, so a run's window budget reaches every source."""
    by_source: dict[str, list[NodePlan]] = {}
    for plan in plans:
        by_source.setdefault(plan.node.source, []).append(plan)
    lanes = list(by_source.values())
    return [plan for row in itertools.zip_longest(*lanes) for plan in row if plan is not None]


def pool_size(ray_settings) -> int:
    """`model_actors`, or with 0 as many engines as the cluster's GPUs hold (at least one)."""
    if ray_settings.model_actors:
        return ray_settings.model_actors
    import ray

    gpus = ray.cluster_resources().get("GPU", 0)
    per_actor = ray_settings.actor_num_gpus or 1
    return max(1, int(gpus // per_actor))


def plan_on_ray(settings: Settings, nodes: list[NodeRef], seqs: dict[str, int]) -> list[NodePlan]:
    """Plan nodes as Ray tasks (bounded in flight); the conversations of one Cursor database are
    planned together. Reads trails, never the lake."""
    import ray

    from jobs.cluster import ensure_ray

    ensure_ray(settings.ray)
    options = plan_options(settings)
    # Two results: the plans come to the driver, the windows stay in the object store.
    remote_plan = ray.remote(plan_group_split).options(num_cpus=0.5, max_retries=1, num_returns=2)
    groups: dict[str, list[tuple[NodeRef, int]]] = {}
    for node in nodes:
        key = node.path if node.kind == "cursor-db" else node.node_id
        groups.setdefault(key, []).append((node, seqs.get(node.node_id, -1)))
    queue = deque(groups.values())
    in_flight: dict = {}  # plans ref → windows ref
    plans: list[NodePlan] = []
    while queue or in_flight:
        while queue and len(in_flight) < settings.ray.max_inflight_nodes:
            plans_ref, windows_ref = remote_plan.remote(queue.popleft(), options)
            in_flight[plans_ref] = windows_ref
        done, _ = ray.wait(list(in_flight), num_returns=1)
        for plans_ref in done:
            windows_ref = in_flight.pop(plans_ref)
            for index, plan in enumerate(ray.get(plans_ref)):
                if plan.heads:
                    plan.stored = (windows_ref, index)
                plans.append(plan)
    return plans


def load_windows(plan: NodePlan) -> list[Window]:
    """The full windows of `plan.heads`, in order, from the object store."""
    import ray

    windows_ref, index = plan.stored
    wanted = {head.attempt_id for head in plan.heads}
    return [window for window in ray.get(windows_ref)[index] if window.attempt_id in wanted]


class NodeQueue:
    """A node's windows still to interview, loaded from the object store at its first turn (and
    then let go there), so the driver holds only the windows of the nodes in flight."""

    def __init__(self, plan: NodePlan) -> None:
        self.plan = plan
        self.left = len(plan.heads)
        self._windows: deque[Window] | None = None

    def __bool__(self) -> bool:
        return self.left > 0

    def popleft(self) -> Window:
        if self._windows is None:
            self._windows = deque(load_windows(self.plan))
            self.plan.stored = None
        self.left -= 1
        return self._windows.popleft()

    def __iter__(self):
        while self:
            yield self.popleft()


def share_window_budget(plans: list[NodePlan], budget: int) -> None:
    """Deal the run's window budget one window per node per round, in plan order, so one long
    trail cannot take a whole run; each node keeps a prefix of its windows (seq order)."""
    granted = [0] * len(plans)
    progress = True
    while budget > 0 and progress:
        progress = False
        for index, plan in enumerate(plans):
            if budget > 0 and granted[index] < len(plan.heads):
                granted[index] += 1
                budget -= 1
                progress = True
    for plan, count in zip(plans, granted):
        plan.heads = plan.heads[:count]


class Driver:
    """One run over one lake. Use as a context manager: it holds the lake's writer lock."""

    def __init__(
        self,
        settings: Settings,
        *,
        progress: NullProgress | None = None,
        backend_factory: Callable[[], ModelBackend] | None = None,
        kind: str = "run",
        now: datetime | None = None,
        period_hours: int | None = None,
    ) -> None:
        self.settings = settings
        self.progress = progress or NullProgress()
        self.backend_factory = backend_factory
        self.kind = kind
        self.now = now
        self.period_hours = period_hours  # set: only nodes due by this period are planned
        self.lake = Lake(settings.lake, writer=True)
        self.pool = None
        self._embedder_loading: concurrent.futures.Future | None = None
        self._pending: list[tuple[PendingWindow, WindowReport]] = []
        self._pending_since = 0.0
        self._commits = 0
        self._stopped: set[str] = set()  # nodes whose window failed at commit
        self.summary = RunSummary(new_run_id(), kind, settings.backend, "none")
        self._failed: set[tuple[str, int]] = set()

    # -- lifecycle -----------------------------------------------------------------------------
    def __enter__(self) -> Driver:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None
        self.lake.close()

    def _start_model(self) -> None:
        if self.settings.backend == NO_MODEL or self.pool is not None:
            return
        from jobs.cluster import ensure_ray
        from synth.mapreduce import ModelPool

        ensure_ray(self.settings.ray)
        self.pool = ModelPool(  # returns at once: the engines load while the run plans
            self.settings.backend,
            self.settings.backend_options(),
            actors=pool_size(self.settings.ray),
            num_cpus=self.settings.ray.actor_num_cpus,
            num_gpus=self.settings.ray.actor_num_gpus,
            factory=self.backend_factory,
        )

    def _start_embedder(self) -> None:
        """Load the embedder on a thread: it overlaps Ray's start-up and is first needed at commit."""
        options = self.settings.embeddings
        if options.enabled and self._embedder_loading is None:
            from synth.embeddings import shared_embedder

            loader = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="embedder-load")
            self._embedder_loading = loader.submit(shared_embedder, options.threads, options.batch_size)
            loader.shutdown(wait=False)

    @property
    def embedder(self):
        return None if self._embedder_loading is None else self._embedder_loading.result()

    def _chunk_budget(self) -> int:
        limit = self.pool.info.get("max_chunk_chars") if self.pool else None
        return min(self.settings.chunk_max_chars, limit or self.settings.chunk_max_chars)

    # -- the run -------------------------------------------------------------------------------
    def run(self, nodes: list[NodeRef]) -> RunSummary:
        started = time.perf_counter()
        con = self.lake.con
        self._start_embedder()
        self._start_model()
        start_run(con, self.summary.run_id, self.kind, self.settings.backend, PROMPT_VERSION)
        status = "failed"
        try:
            plans = self._plan(nodes)
            if self.pool is not None:
                self.summary.model = self.pool.info["model"]
            self.summary.startup_seconds = round(time.perf_counter() - started, 3)
            self._interview(plans)
            status = "finished"
        finally:
            self.summary.seconds = round(time.perf_counter() - started, 3)
            counts = {k: v for k, v in self.summary.to_json().items() if isinstance(v, int | float)}
            finish_run(con, self.summary.run_id, status, self.summary.model, counts,
                       self.summary.rejects)
            self.progress.close()
        return self.summary

    def _plan(self, nodes: list[NodeRef]) -> list[NodePlan]:
        con = self.lake.con
        tenant = self.settings.tenant_id
        seqs = {} if self.settings.replay else read_all_last_seqs(con, tenant)
        if self.period_hours is not None:
            nodes = self._due(nodes)
        parked_at = parked_cursors(con, tenant)
        self._failed = failed_cursors(con, tenant)
        plans = plan_on_ray(self.settings, nodes, seqs)
        for plan in plans:
            if plan.node.node_id in parked_at and plan.heads:
                plan.skipped = (f"parked at seq {parked_at[plan.node.node_id]}; "
                                "run `interview retry` to re-queue it")
                plan.heads, plan.stored = [], None
        plans = interleave_sources(sorted(plans, key=lambda plan: plan.node.node_id))
        record_nodes(con, tenant, [(plan.node, plan.lines) for plan in plans])
        share_window_budget(plans, self.settings.max_windows)
        for plan in plans:
            self._account_plan(plan)
        faults.crash_point("after_plan")
        self.progress.planned(len(plans), sum(len(plan.heads) for plan in plans))
        return plans

    def _due(self, nodes: list[NodeRef]) -> list[NodeRef]:
        """Never interviewed, or interviewed at least `period_hours` ago (contract §2.11)."""
        last = dict(self.lake.con.execute(
            "SELECT node_id, last_interview_at FROM watermarks WHERE tenant_id = ?",
            [self.settings.tenant_id]).fetchall())
        now = self.now or datetime.now(UTC)
        period = timedelta(hours=self.period_hours)
        due = [node for node in nodes if last.get(node.node_id) is None or now - last[node.node_id] >= period]
        self.summary.skipped_not_due = len(nodes) - len(due)
        return due

    def _account_plan(self, plan: NodePlan) -> None:
        s = self.summary
        s.nodes += 1
        s.deferred += plan.deferred
        s.masked_spans += plan.masked
        if plan.skipped and not plan.heads:
            reason = re.match(r"[a-z -]*", plan.skipped).group(0).strip() or plan.skipped
            s.skipped[reason] = s.skipped.get(reason, 0) + 1
        for reject in plan.rejects:
            self.reject(reject)

    def reject(self, reject: Reject) -> None:
        self.summary.rejects.append({"path": reject.path, "line": reject.line, "reason": reject.reason})
        self.progress.note(f"{reject.path}:{reject.line}: {reject.reason}")

    def _interview(self, plans: list[NodePlan]) -> None:
        committed = committed_attempts(self.lake.con, self.settings.tenant_id)
        for plan in plans:
            while plan.heads and plan.heads[0].attempt_id in committed:
                self._replayed(plan.heads.pop(0))
        queues = deque((plan, NodeQueue(plan)) for plan in plans if plan.heads)
        try:
            if self.pool is None:
                for plan, windows in queues:
                    for window in windows:
                        if not self._finish(window, unsynthesized(window)):
                            break
            else:
                self._interview_on_pool(queues)
        except BaseException:
            self._flush_on_the_way_out()
            raise
        self._flush()

    def _interview_on_pool(self, queues: deque) -> None:
        import ray

        budget = self._chunk_budget()
        active: dict[str, _InFlight] = {}  # node_id → its one window in flight
        ref_owner: dict = {}  # chunk ref → (node_id, chunk index)
        limit = self.settings.ray.max_inflight_windows
        waiting: dict[str, tuple] = {}
        while queues or active:
            while queues and len(active) < limit:
                plan, windows = queues.popleft()
                window = windows.popleft()
                refs = [self.pool.submit(p) for p in plan_prompts(window, budget)]
                node = plan.node.node_id
                active[node] = _InFlight(plan, window, refs, [None] * len(refs))
                waiting[node] = (plan, windows)
                for index, ref in enumerate(refs):
                    ref_owner[ref] = (node, index)
                faults.crash_point("mid_model_call")
            done, _ = ray.wait(list(ref_owner), num_returns=1)
            for ref in done:
                node, index = ref_owner.pop(ref)
                flight = active[node]
                flight.answers[index] = self.pool.result(ref)
                if any(answer is None for answer in flight.answers):
                    continue
                del active[node]
                plan, windows = waiting.pop(node)
                if self._complete(flight) and windows:
                    queues.append((plan, windows))
            if self._pending and (not active or time.monotonic() - self._pending_since
                                  >= self.settings.commit_every_seconds):
                self._flush()
                queues = deque(entry for entry in queues if entry[0].node.node_id not in self._stopped)

    def _complete(self, flight: _InFlight) -> bool:
        """Reduce and commit a window whose chunks all answered; False stops its node."""
        failures = [a.error for a in flight.answers if not a.ok]
        self.summary.chunks += len(flight.answers)
        self.summary.model_seconds += sum(a.seconds for a in flight.answers)
        if failures:
            reason = f"{len(failures)} of {len(flight.answers)} chunks failed: {failures[0]}"
            status = record_failure(self.lake.con, flight.window, reason, self.settings.retry_budget)
            if status == "parked":
                self.summary.parked += 1
            else:
                self.summary.retrying += 1
            self.progress.note(
                f"{flight.window.node_id} window {flight.window.cursor_from}.."
                f"{flight.window.cursor_to} {status}: {reason}"
            )
            self.progress.window_done(status, 0)
            return False
        return self._finish(flight.window, reduce_answers(flight.window, flight.answers))

    def _finish(self, window: Window, report: WindowReport) -> bool:
        """Queue a reduced window for the next group commit; False once its node has stopped."""
        if window.node_id in self._stopped:  # an earlier window of the node failed to commit
            self.summary.deferred += 1
            return False
        if not self._pending:
            self._pending_since = time.monotonic()
        pending = prepare_commit(window, report, self._context(report))
        self._pending.append((pending, report))
        if len(self._pending) >= self.settings.commit_every_windows:
            self._flush()
        return window.node_id not in self._stopped

    def _flush(self) -> None:
        """Commit the queued windows in one transaction (`commit_windows`), then count them."""
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        results = commit_windows(self.lake.con, [pending for pending, _ in batch],
                                 embedder=self.embedder, crash_hook=faults.crash_point)
        self._commits += 1
        every = self.settings.merge_every_commits
        if every and self._commits % every == 0:
            merge_small_files(self.lake.con, crash_hook=faults.crash_point)
        s = self.summary
        for (pending, report), result in zip(batch, results):
            window = pending.window
            if result.status == "skipped":  # after a failed window of its node: next run
                s.deferred += 1
                continue
            if result.status == "failed":
                self._stopped.add(window.node_id)
            elif (window.node_id, window.cursor_from) in self._failed:
                clear_failure(self.lake.con, window)
            s.windows += 1
            s.memories_written += result.memories_written
            s.duplicates += result.duplicates
            s.item_errors += result.errors
            s.timestamps_dropped += report.timestamps_dropped
            s.instructions_dropped += report.instructions_dropped
            self.progress.window_done(result.status, result.memories_written)

    def _flush_on_the_way_out(self) -> None:
        """A run that is failing still commits the windows it finished (nothing is lost); a
        failure of that commit is logged, and the original error goes on."""
        try:
            self._flush()
        except Exception:  # noqa: BLE001 - the original error matters more
            log.exception("could not commit %d finished windows while failing", len(self._pending))

    def _replayed(self, window: Window | WindowHead) -> None:
        """A window committed by an earlier run (a replay): duplicates, no model call."""
        result = replay_committed(self.lake.con, window, self.summary.run_id)
        self.summary.windows += 1
        self.summary.duplicates += result.duplicates
        self.progress.window_done(result.status, 0)

    def _context(self, report: WindowReport) -> CommitContext:
        return CommitContext(
            run_id=self.summary.run_id,
            backend=self.settings.backend,
            model=self.summary.model,
            prompt_version=PROMPT_VERSION,
            timestamps_dropped=report.timestamps_dropped,
            now=self.now,
        )

    # -- one window from outside (interview submit) -------------------------------------------
    def submit(self, body: Any) -> WindowResult:
        """The submit contract on one window body: validate, mask, interview, commit."""
        window = mask_window(validate_submit(body, default_tenant=self.settings.tenant_id))
        if window.attempt_id in committed_attempts(self.lake.con, window.tenant_id or ""):
            return replay_committed(self.lake.con, window, self.summary.run_id)
        if self.settings.backend == NO_MODEL:
            report = unsynthesized(window)
        else:
            self._start_model()
            refs = [self.pool.submit(p) for p in plan_prompts(window, self._chunk_budget())]
            answers = [self.pool.result(ref) for ref in refs]
            failures = [a.error for a in answers if not a.ok]
            if failures:
                record_failure(self.lake.con, window, failures[0], self.settings.retry_budget)
                return WindowResult(window.attempt_id, "failed", None, errors=len(failures))
            report = reduce_answers(window, answers)
        self._start_embedder()
        return commit_report(self.lake, window, report, self._context(report),
                             embedder=self.embedder)


def prepare_commit(window: Window, report: WindowReport, context: CommitContext) -> PendingWindow:
    return PendingWindow(window, report_to_items(report.report, window), context)


def commit_report(lake: Lake, window: Window, report: WindowReport, context: CommitContext,
                  embedder=None) -> WindowResult:
    """One window committed alone (`interview submit`)."""
    (result,) = commit_windows(lake.con, [prepare_commit(window, report, context)],
                               embedder=embedder, crash_hook=faults.crash_point)
    if result.status != "failed":
        clear_failure(lake.con, window)
    return result
