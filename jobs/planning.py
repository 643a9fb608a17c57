"""The whole plan of a run, in one place: which nodes, from where, and which windows go out.

`plan_run` is used by the run and by `backfill --dry-run`, so what a dry run prints is what the
run then does: the due filter (nightly), node plans fanned out on Ray (`jobs.node_plan`), parked
nodes held back, sources interleaved, and the run's window budget dealt one window per node per
round. It reads the lake (watermarks, parked windows) and never writes it.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from ingest.nodes import NodeRef, ReadOptions
from ingest.windows import Window
from jobs.node_plan import NodePlan, PlanOptions, SkipReason, plan_group_split
from jobs.settings import Settings
from sinks.parked import parked_cursors
from sinks.watermarks import last_interviews, read_all_last_seqs


@dataclass
class RunPlan:
    plans: list[NodePlan] = field(default_factory=list)  # interleaved, budget applied
    skipped_not_due: int = 0

    @property
    def windows(self) -> int:
        return sum(len(plan.heads) for plan in self.plans)


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


def plan_run(settings: Settings, nodes: list[NodeRef], con=None, *, period_hours: int | None = None,
             now: datetime | None = None, halted: Callable[[], bool] = lambda: False) -> RunPlan:
    """The run's plan over `nodes`; `con` is the lake (None: a lake not created yet).
    `period_hours`: only nodes due by this period (contract §2.11)."""
    tenant = settings.tenant_id
    plan = RunPlan()
    if period_hours is not None:
        due = due_nodes(nodes, last_interviews(con, tenant) if con else {}, period_hours, now)
        plan.skipped_not_due = len(nodes) - len(due)
        nodes = due
    seqs = {} if settings.replay or con is None else read_all_last_seqs(con, tenant)
    parked_at = parked_cursors(con, tenant) if con else {}
    plans = plan_on_ray(settings, nodes, seqs, halted)
    for node_plan in plans:
        if node_plan.node.node_id in parked_at and node_plan.heads:
            node_plan.skip(SkipReason.PARKED, f"parked at seq {parked_at[node_plan.node.node_id]}; "
                           "run `interview retry` to re-queue it")
            node_plan.heads, node_plan.stored = [], None
    plan.plans = interleave_sources(sorted(plans, key=lambda p: p.node.node_id))
    share_window_budget(plan.plans, settings.max_windows)
    return plan


def due_nodes(nodes: list[NodeRef], last: dict, period_hours: int,
              now: datetime | None = None) -> list[NodeRef]:
    """Never interviewed, or interviewed at least `period_hours` ago."""
    now = now or datetime.now(UTC)
    period = timedelta(hours=period_hours)
    return [node for node in nodes
            if last.get(node.node_id) is None or now - last[node.node_id] >= period]


def interleave_sources(plans: list[NodePlan]) -> list[NodePlan]:
    """Round-robin over sources, so a run's window budget reaches every source."""
    by_source: dict[str, list[NodePlan]] = {}
    for plan in plans:
        by_source.setdefault(plan.node.source, []).append(plan)
    lanes = list(by_source.values())
    return [plan for row in itertools.zip_longest(*lanes) for plan in row if plan is not None]


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


def plan_on_ray(settings: Settings, nodes: list[NodeRef], seqs: dict[str, int],
                halted: Callable[[], bool] = lambda: False) -> list[NodePlan]:
    """Plan nodes as Ray tasks (bounded in flight); nodes that share one file (the conversations
    of a Cursor database) are planned together, in one read. Reads trails, never the lake.
    Once `halted`, the nodes not planned yet are left for the next run."""
    import ray

    from jobs.cluster import ensure_ray

    ensure_ray(settings.ray)
    options = plan_options(settings)
    # Two results: the plans come to the driver, the windows stay in the object store.
    remote_plan = ray.remote(plan_group_split).options(
        max_retries=1, num_returns=2, **on_the_driver_node())
    groups: dict[str, list[tuple[NodeRef, int]]] = {}
    for node in nodes:
        key = node.path if node.key else node.node_id
        groups.setdefault(key, []).append((node, seqs.get(node.node_id, -1)))
    queue = deque(groups.values())
    in_flight: dict = {}  # plans ref → windows ref
    plans: list[NodePlan] = []
    while (queue or in_flight) and not halted():
        while queue and len(in_flight) < settings.ray.max_inflight_nodes:
            plans_ref, windows_ref = remote_plan.remote(queue.popleft(), options)
            in_flight[plans_ref] = windows_ref
        done, _ = ray.wait(list(in_flight), num_returns=1, timeout=1.0)
        for plans_ref in done:
            windows_ref = in_flight.pop(plans_ref)
            for index, plan in enumerate(ray.get(plans_ref)):
                if plan.heads:
                    plan.stored = (windows_ref, index)
                plans.append(plan)
    return plans


def on_the_driver_node() -> dict:
    """Task options that run a planning task where the driver runs: the trails were found on
    the driver's disk, and another node of a cluster may not see them. A node declared with no
    CPUs (a head node kept free of tasks) still plans, with zero-CPU tasks; the run's
    `max_inflight_nodes` bounds how many at once."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    here = ray.get_runtime_context().get_node_id()
    cpus = next((node["Resources"].get("CPU", 0) for node in ray.nodes()
                 if node["NodeID"] == here), 0)
    return {"num_cpus": 0.5 if cpus >= 1 else 0,
            "scheduling_strategy": NodeAffinitySchedulingStrategy(node_id=here, soft=False)}


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


def job_lanes(jobs: list) -> list[Iterator[Window]]:
    """Claimed inbox jobs as lanes, one per node, each node's windows in cursor order."""
    by_node: dict[str, list[Window]] = {}
    for job in sorted(jobs, key=lambda job: (job.window.node_id, job.window.cursor_from)):
        by_node.setdefault(job.window.node_id, []).append(job.window)
    return [iter(windows) for windows in by_node.values()]
