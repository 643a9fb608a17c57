"""Planning one node before the model: read from its watermark, parse, cut windows, apply the
dribble gate, validate and mask. `plan_node` is the unit of work `jobs.planning` fans out on Ray;
it is pure apart from reading the node's trail, and nothing unmasked leaves it.

On Ray, a plan comes back in two parts (`plan_group_split`): the plan with a `WindowHead` per
window, which the driver holds, and the windows themselves, which stay in Ray's object store
(spilled to disk when it fills) until their node's turn. So the driver's memory does not grow with
the size of a backfill."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ingest.errors import SubmitRejected, UnreadableTrail
from ingest.events import Reject
from ingest.nodes import NodeRef, ReadOptions
from ingest.sources import read_node
from ingest.validate import validate_submit
from ingest.windows import (
    MAX_EVENTS_PER_WINDOW,
    MAX_WINDOW_CHARS,
    MIN_WINDOW_CHARS,
    MIN_WINDOW_EVENTS,
    Window,
    attempt_id,
    cut_windows,
    worth_interviewing,
)
from synth.masking import check_window_ids, mask_events


class SkipReason(str, Enum):
    """Why a node has nothing to interview this run (the keys of a run summary's `skipped`)."""

    VANISHED = "trail vanished before it was read"
    SHRANK = "trail shrank below watermark"
    NO_NEW_LINES = "no new lines"
    TORN_TAIL = "no complete new lines"
    NO_EVENTS = "no interview-worthy events in"
    PARKED = "parked at seq"
    UNREADABLE = "unreadable"
    REJECTED = "window rejected"


@dataclass(frozen=True)
class Skip:
    reason: SkipReason
    detail: str  # the sentence for a person: what, where, what to do

    def __str__(self) -> str:
        return self.detail


@dataclass(frozen=True)
class PlanOptions:
    tenant_id: str
    agent_id: str
    flush: bool = False
    max_window_events: int = MAX_EVENTS_PER_WINDOW
    max_window_chars: int = MAX_WINDOW_CHARS
    min_events: int = MIN_WINDOW_EVENTS
    min_chars: int = MIN_WINDOW_CHARS
    max_windows: int | None = None
    read: ReadOptions = ReadOptions()


@dataclass(frozen=True)
class WindowHead:
    """What the driver holds of a planned window until its turn: ids, range and size."""

    node_id: str
    agent_id: str
    cursor_from: int
    cursor_to: int
    chars: int
    events: int
    tenant_id: str | None = None
    fleet_id: str | None = None
    command_id: str | None = None

    @classmethod
    def of(cls, window: Window) -> WindowHead:
        return cls(window.node_id, window.agent_id, window.cursor_from, window.cursor_to,
                   window.chars, len(window.events), window.tenant_id, window.fleet_id,
                   window.command_id)

    @property
    def attempt_id(self) -> str:
        return attempt_id(self.node_id, self.cursor_from, self.cursor_to)


@dataclass
class NodePlan:
    node: NodeRef
    last_seq: int
    windows: list[Window] = field(default_factory=list)  # in the planning task only
    heads: list[WindowHead] = field(default_factory=list)  # in the driver
    stored: tuple[Any, int] | None = None  # (object ref of the group's windows, index in it)
    lines: int = 0
    events: int = 0
    masked: int = 0
    deferred: int = 0  # windows held back by the dribble gate
    skipped: Skip | None = None  # why nothing (more) was planned
    rejects: list[Reject] = field(default_factory=list)
    noise: int = 0  # lines read that are not conversation (progress, snapshots, non-events)
    bad: int = 0  # lines read that are broken (not JSON, too large): in `rejects`
    repaired: int = 0  # lines read with U+FFFD for bytes that were not UTF-8: kept

    def skip(self, reason: SkipReason, detail: str | None = None) -> NodePlan:
        self.skipped = Skip(reason, detail or reason.value)
        return self


def plan_node(node: NodeRef, last_seq: int, options: PlanOptions, db_cache=None) -> NodePlan:
    """Everything a node needs before the model: pure apart from reading its trail."""
    plan = NodePlan(node=node, last_seq=last_seq)
    cursor_from = last_seq + 1
    try:
        trail, plan.lines = read_node(node, cursor_from, options.read, db_cache)
    except FileNotFoundError as error:
        plan.rejects.append(Reject(node.path, 0, f"deleted during the run: {error}"))
        return plan.skip(SkipReason.VANISHED)
    except (OSError, UnreadableTrail) as error:
        detail = f"cannot read {node.path}: {getattr(error, 'strerror', None) or error}"
        plan.rejects.append(Reject(node.path, 0, detail))
        return plan.skip(SkipReason.UNREADABLE, detail)
    plan.rejects.extend(trail.rejects)
    plan.bad = len(trail.rejects)
    plan.noise = trail.noise_lines - plan.bad
    plan.repaired = trail.repaired_lines
    if plan.lines < cursor_from:
        detail = (f"trail shrank below watermark ({plan.lines} units, watermark {last_seq}): "
                  "append-only assumption violated; skipped")
        plan.rejects.append(Reject(node.path, plan.lines, detail))
        return plan.skip(SkipReason.SHRANK, detail)
    if plan.lines == cursor_from or trail.lines_scanned == 0 and trail.last_complete_line < cursor_from:
        return plan.skip(SkipReason.NO_NEW_LINES)
    plan.events = len(trail.events)
    if trail.last_complete_line < cursor_from:
        return plan.skip(SkipReason.TORN_TAIL, "no complete new lines (mid-append tail)")
    if not trail.events:
        return plan.skip(SkipReason.NO_EVENTS,
                         f"no interview-worthy events in {trail.lines_scanned} new lines")
    windows = cut_windows(
        trail.events, node_id=node.node_id, agent_id=options.agent_id, cursor_from=cursor_from,
        eof_line=trail.last_complete_line, max_events=options.max_window_events,
        max_chars=options.max_window_chars, tenant_id=options.tenant_id,
    )
    for window in windows:
        if options.max_windows is not None and len(plan.windows) >= options.max_windows:
            break
        if not worth_interviewing(window, flush=options.flush, min_events=options.min_events,
                                  min_chars=options.min_chars):
            plan.deferred += 1
            break
        try:
            checked = validate_submit(window.to_body(), default_tenant=options.tenant_id)
            masked = mask_window(checked, plan)
        except SubmitRejected as rejected:
            detail = f"window {window.cursor_from}..{window.cursor_to} rejected: {rejected.detail}"
            plan.rejects.append(Reject(node.path, window.cursor_from + 1, detail))
            plan.skip(SkipReason.REJECTED, detail)
            break
        plan.windows.append(masked)
    return plan


def plan_group(group: list[tuple[NodeRef, int]], options: PlanOptions) -> list[NodePlan]:
    """Plan nodes that share one file (the conversations of a Cursor database) in one read."""
    cache: dict = {}
    return [plan_node(node, last_seq, options, cache) for node, last_seq in group]


def plan_group_split(group: list[tuple[NodeRef, int]],
                     options: PlanOptions) -> tuple[list[NodePlan], list[list[Window]]]:
    """`plan_group` as two results: plans carrying window heads, and the windows per plan."""
    plans = plan_group(group, options)
    windows = []
    for plan in plans:
        plan.heads = [WindowHead.of(window) for window in plan.windows]
        windows.append(plan.windows)
        plan.windows = []
    return plans, windows


def mask_window(window: Window, plan: NodePlan | None = None) -> Window:
    """The window with its events masked (content, tool, outcome, session ids); a 422
    (`SubmitRejected`) for an id field the mask would change."""
    check_window_ids({"node_id": window.node_id, "agent_id": window.agent_id,
                      "fleet_id": window.fleet_id, "command_id": window.command_id})
    masked, found = mask_events(window.events)
    if plan is not None:
        plan.masked += found
    return Window(
        node_id=window.node_id, agent_id=window.agent_id, cursor_from=window.cursor_from,
        cursor_to=window.cursor_to, events=tuple(masked), tenant_id=window.tenant_id,
        fleet_id=window.fleet_id, command_id=window.command_id,
    )
