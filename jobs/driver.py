"""The driver: one run over one lake, composed of the stages' own loops.

    plan_run (jobs.planning) → WindowMap (synth.window_map) → GroupCommit (sinks.group_commit)

Every way in goes through `interview`: a run's planned windows (one lane per node) and a submitted
window (one lane of one). Per node, windows are interviewed in seq order and committed in order,
so the watermark only moves over committed windows. A run holds the lake's batch lock;
the server's inline path is a shared writer (`shared=True`) beside it.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import Any

from ingest.errors import EmbedderUnavailable
from ingest.events import Reject
from ingest.nodes import NodeRef
from ingest.validate import validate_submit
from ingest.windows import Window
from jobs import faults
from jobs.node_plan import mask_window
from jobs.planning import NodeQueue, job_lanes, plan_run
from jobs.progress import NullProgress
from jobs.settings import Settings
from jobs.summary import RunSummary
from sinks.commit import CommitContext, WindowResult
from sinks.group_commit import CommitPolicy, GroupCommit
from sinks.inbox import claim_jobs
from sinks.lake import Lake
from sinks.nodes import record_nodes
from sinks.runs import finish_run, new_run_id, start_run
from synth.backends import NO_MODEL, ModelBackend
from synth.grounding import SupportCheck
from synth.prompt import prompt_version
from synth.support.paraphrase import Closeness
from synth.window_map import WindowMap

log = logging.getLogger(__name__)


class Driver:
    """One run over one lake. Use as a context manager: it holds the lake's writer lock."""

    def __init__(self, settings: Settings, *, progress: NullProgress | None = None,
                 backend_factory: Callable[[], ModelBackend] | None = None, kind: str = "run",
                 now: datetime | None = None, period_hours: int | None = None,
                 drain_inbox: bool = True, shared: bool = False) -> None:
        self.settings = settings
        self.progress = progress or NullProgress()
        self.backend_factory = backend_factory
        self.kind = kind
        self.now = now
        self.period_hours = period_hours  # set: only nodes due by this period are planned
        self.drain_inbox = drain_inbox
        self.shared = shared  # a server's writer: beside the batch run, not instead of it
        self.lake = Lake(settings.lake_location, writer=True, exclusive=not shared)
        self.pool = None
        self._embedder: concurrent.futures.Future | None = None
        self._support: SupportCheck | None = None
        self._commit: GroupCommit | None = None
        self.summary = RunSummary(new_run_id(), kind, settings.backend, "none")
        self.halted = threading.Event()  # set by SIGTERM: stop taking windows, commit, close

    def __enter__(self) -> Driver:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None
        self.lake.close()

    @property
    def prompt_variant(self) -> str:
        """The prompt the answering backend takes: an injected engine (`backend_factory`) names
        its own (a `prompt` attribute, else the contract's); a configured one reads its settings
        (llamacpp: `extract` by default)."""
        if self.backend_factory is not None:
            return getattr(self.backend_factory, "prompt", "contract")
        return self.settings.backend_options().get("prompt", "contract")

    @property
    def verify(self) -> bool:
        """The verify pass: on where the backend's settings ask (openai, vllm by default)."""
        return bool(self.settings.backend_options().get("verify", False))

    def support_check(self) -> SupportCheck:
        """The support check of the reduce: closeness in meaning through the embedder, loaded
        once per process and shared with recall embeddings, unless `support.paraphrase` is off."""
        if self._support is None:
            closeness = None
            if self.settings.support.paraphrase and self._embedder is not None:
                try:
                    closeness = Closeness(self._embedder.result().embed)
                except EmbedderUnavailable as error:
                    log.warning("support check by words only: %s", error)
            self._support = SupportCheck(closeness=closeness)
        return self._support

    def halt(self) -> None:
        """Stop gracefully: no new window goes out, in-flight ones are abandoned (their events
        wait for the next run), finished ones are committed, and the run is recorded `stopped`."""
        if not self.halted.is_set():
            self.progress.note("stopping: no new windows; committing the finished ones")
        self.halted.set()

    @contextlib.contextmanager
    def _halt_on_sigterm(self) -> Iterator[None]:
        """SIGTERM halts the run (installed after Ray's own handler, which would exit at once);
        the caller's handler is back afterwards. Only the main thread can take signals."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.signal(signal.SIGTERM, lambda *_: self.halt())
        try:
            yield
        finally:
            signal.signal(signal.SIGTERM, previous)

    def reject(self, reject: Reject) -> None:
        self.summary.rejects.append({"path": reject.path, "line": reject.line, "reason": reject.reason})
        self.progress.note(f"{reject.path}:{reject.line}: {reject.reason}")

    def run(self, nodes: list[NodeRef]) -> RunSummary:
        """Plan `nodes`, interview their windows, commit them."""
        with self._recorded(stoppable=True) as started:
            plan = plan_run(self.settings, nodes, self.lake.con, period_hours=self.period_hours,
                            now=self.now, halted=self.halted.is_set)
            record_nodes(self.lake.con, self.settings.tenant_id,
                         [(node_plan.node, node_plan.lines) for node_plan in plan.plans])
            self.summary.add_plan(plan)
            for node_plan in plan.plans:
                for reject in node_plan.rejects:
                    self.reject(reject)
            faults.crash_point("after_plan")
            self.progress.planned(len(plan.plans), plan.windows)
            self._model_ready(started)
            commit = self._group_commit()
            committed = commit.committed()
            for node_plan in plan.plans:  # replayed windows, committed by an earlier run
                while node_plan.heads and node_plan.heads[0].attempt_id in committed:
                    commit.replay(node_plan.heads.pop(0))
            jobs = self._claim_inbox(committed)
            commit.expect_jobs(jobs)
            lanes = [NodeQueue(p) for p in plan.plans if p.heads] + job_lanes(jobs)
            self.interview(lanes, commit)
            self.consolidate()
        return self.summary

    def consolidate(self) -> None:
        """The stage after the commits: link the new memories to their projects' (duplicates,
        superseded decisions, closed tasks); skipped when halted or switched off."""
        if self.halted.is_set() or not self.settings.consolidation.enabled:
            return
        from jobs.consolidation import consolidate

        result = consolidate(self.lake.con, self.settings, run_id=self.summary.run_id,
                             embedder=self._embedder.result() if self._embedder else None,
                             pool=self.pool, now=self.now)
        self.summary.consolidated += result.looked_at
        for relation, count in result.links.items():
            self.summary.links[relation] = self.summary.links.get(relation, 0) + count

    def _claim_inbox(self, committed: set[str]) -> list:
        """Pushed windows waiting in the inbox, claimed for this run (contract §2.10)."""
        if not self.drain_inbox or self.halted.is_set():
            return []
        if not self.settings.inbox_jobs_per_run:
            return []
        jobs, counts = claim_jobs(self.lake.con, self.settings.tenant_id, self.summary.run_id,
                                  limit=self.settings.inbox_jobs_per_run, committed=committed,
                                  now=self.now)
        self.summary.add_inbox(counts)
        if jobs:
            self.progress.planned(0, len(jobs))
        return jobs

    def submit(self, body: Any) -> WindowResult:
        """The submit contract on one window body: validate, mask, then the run's own lifecycle."""
        window = mask_window(validate_submit(body, default_tenant=self.settings.tenant_id,
                                             enabled_tenants=self.settings.enabled_tenant_ids()))
        with self.session():
            return self.submit_window(window)

    @contextlib.contextmanager
    def session(self) -> Iterator[None]:
        """One run record around many submits (a server's inline path), the model loaded once."""
        with self._recorded() as started:
            self._model_ready(started)
            yield

    def submit_window(self, window: Window) -> WindowResult:
        """One validated, masked window through the run's own lifecycle, inside `session`."""
        results: list[WindowResult] = []
        commit = self._group_commit(on_result=lambda _, result: results.append(result),
                                    tenant_id=window.tenant_id)
        if window.attempt_id in commit.committed():
            commit.replay(window)
        else:
            self.interview([iter([window])], commit)
        self.summary.add_counts(commit.counts)
        self._commit = None
        return results[0]

    def interview(self, lanes: Iterable[Iterator[Window]], commit: GroupCommit) -> None:
        """Map the lanes' windows to reports and commit them as they finish."""
        chunk_chars = self.settings.chunk_max_chars
        if self.pool is not None:
            chunk_chars = min(chunk_chars, self.pool.info.get("max_chunk_chars") or chunk_chars)
        window_map = WindowMap(self.pool, chunk_chars=chunk_chars,
                               max_inflight=self.settings.ray.max_inflight_windows,
                               on_submit=faults.crash_point, halted=self.halted.is_set,
                               prompt_variant=self.prompt_variant,
                               check=self.support_check() if self.pool is not None else None,
                               verify=self.verify)
        try:
            for mapped in window_map.run(lanes):
                window = mapped.window
                if mapped.failed:
                    commit.fail(window, mapped.outcome.reason, mapped.outcome.failed_chunks)
                elif not commit.add(window, mapped.outcome):
                    window_map.stop(window.node_id)
                if commit.due or (not window_map.busy and self.pool is not None):
                    commit.flush()
                for node_id in commit.stopped:
                    window_map.stop(node_id)
        except BaseException:
            commit.flush_on_the_way_out()
            raise
        finally:
            self.summary.add_counts(window_map.counts)
        commit.flush()

    @contextlib.contextmanager
    def _recorded(self, stoppable: bool = False) -> Iterator[float]:
        """The run record around a body: opened, then closed with its counts and status.
        `stoppable`: SIGTERM halts it (a run; never a server's session, whose process the
        server's own handler stops)."""
        with self._halt_on_sigterm() if stoppable else contextlib.nullcontext():
            started = time.perf_counter()
            self._start_embedder()
            self._start_model()
            start_run(self.lake.con, self.summary.run_id, self.kind, self.settings.backend,
                      prompt_version(self.prompt_variant))
            with self._closing_record(started):
                yield started

    @contextlib.contextmanager
    def _closing_record(self, started: float) -> Iterator[None]:
        try:
            yield
        except BaseException as error:
            try:
                self._close_record("failed", started)
            except Exception:  # noqa: BLE001 - the lake itself failed: its error is the one to tell
                log.warning("the run record could not be closed: it stays `running`",
                            exc_info=log.isEnabledFor(logging.DEBUG))
            if lost := self.lake.lost(error):  # a commit, a merge or a read: the catalog went away
                raise lost from None
            raise
        self.summary.stopped = self.halted.is_set()
        self._close_record("stopped" if self.halted.is_set() else "finished", started)

    def _close_record(self, status: str, started: float) -> None:
        summary = self.summary
        summary.seconds = round(time.perf_counter() - started, 3)
        if self._commit is not None:
            summary.add_counts(self._commit.counts)
        counts = {k: v for k, v in summary.to_json().items() if isinstance(v, int | float)}
        try:
            finish_run(self.lake.con, summary.run_id, status, summary.model, counts, summary.rejects)
        finally:
            self.progress.close()

    def _group_commit(self, on_result=None, tenant_id: str | None = None) -> GroupCommit:
        settings = self.settings
        # A shared writer (the server) leaves merging to the batch run and `interview compact`.
        merge_every = 0 if self.shared else settings.merge_every_commits
        policy = CommitPolicy(settings.commit_every_windows, settings.commit_every_seconds,
                              merge_every, settings.retry_budget,
                              merged_files_grace_seconds=settings.merged_files_grace_seconds)
        context = CommitContext(run_id=self.summary.run_id, backend=settings.backend,
                                model=self.summary.model,
                                prompt_version=prompt_version(self.prompt_variant), now=self.now)
        embedder = self._embedder.result if self._embedder and settings.embeddings.enabled else None
        self._commit = GroupCommit(
            self.lake.con, tenant_id or settings.tenant_id, context, policy, crash_hook=faults.crash_point,
            embedder=embedder, progress=self.progress, on_result=on_result)
        return self._commit

    def _start_model(self) -> None:
        """Model engines load in their actors while the run plans; `_model_ready` waits."""
        if self.settings.backend == NO_MODEL or self.pool is not None:
            return
        from jobs.cluster import ensure_ray
        from synth.mapreduce import ModelPool, pool_size

        ensure_ray(self.settings.ray)
        ray_settings = self.settings.ray
        self.pool = ModelPool(self.settings.backend, self.settings.backend_options(),
                              actors=pool_size(ray_settings.model_actors, ray_settings.actor_num_gpus),
                              num_cpus=ray_settings.actor_num_cpus,
                              num_gpus=ray_settings.actor_num_gpus, factory=self.backend_factory)

    def _model_ready(self, started: float) -> None:
        if self.pool is not None:
            self.summary.model = self.pool.info["model"]
        self.summary.startup_seconds = round(time.perf_counter() - started, 3)

    def _start_embedder(self) -> None:
        """Load the embedder on a thread: it overlaps Ray's start-up and is first needed by the
        support check (closeness in meaning) or at commit (recall embeddings)."""
        options = self.settings.embeddings
        wanted = options.enabled or (self.settings.support.paraphrase
                                     and self.settings.backend != NO_MODEL)
        if wanted and self._embedder is None:
            from synth.embeddings import shared_embedder

            loader = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="embedder-load")
            self._embedder = loader.submit(shared_embedder, options.threads, options.batch_size)
            loader.shutdown(wait=False)
