"""What a run reports: its counts, gathered from the stages that own them (the plan, the map and
the group commit), as `interview run --json` prints them and the `runs` table keeps them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from jobs.planning import RunPlan
from sinks.group_commit import CommitCounts
from synth.window_map import MapCounts


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
    forgotten_dropped: int = 0
    unsupported_dropped: int = 0  # items their cited events do not support, by reason below
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
    masked_spans: int = 0
    seconds: float = 0.0
    model_seconds: float = 0.0
    verify_calls: int = 0  # the verify pass (strong backends): one call per window with items
    verify_failed: int = 0  # ... that gave no verdicts (the rules' items were kept)
    verify_tokens: int = 0
    verify_seconds: float = 0.0
    startup_seconds: float = 0.0  # until the first window could go out: Ray, planning, engine load
    skipped_not_due: int = 0
    inbox_claimed: int = 0  # pushed windows taken from the inbox
    inbox_parked: int = 0  # ... out of attempts: failed_permanent
    inbox_already_done: int = 0  # ... whose window a run had committed already
    noise_lines: int = 0  # lines read that are not conversation (progress, snapshots, ...)
    bad_lines: int = 0  # lines read that are broken; each is in `rejects` with its reason
    repaired_lines: int = 0  # lines read with U+FFFD for bytes that were not UTF-8 (kept)
    consolidated: int = 0  # memories the consolidation stage looked at after the commits
    stopped: bool = False  # halted by SIGTERM: what finished is committed; rerun for the rest
    skipped: dict[str, int] = field(default_factory=dict)
    lines_by_node: dict[str, dict[str, int]] = field(default_factory=dict)  # noise, bad, repaired
    links: dict[str, int] = field(default_factory=dict)  # consolidation: relation → links
    rejects: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def add_plan(self, plan: RunPlan) -> None:
        self.skipped_not_due = plan.skipped_not_due
        for node_plan in plan.plans:
            self.nodes += 1
            self.deferred += node_plan.deferred
            self.masked_spans += node_plan.masked
            self.noise_lines += node_plan.noise
            self.bad_lines += node_plan.bad
            self.repaired_lines += node_plan.repaired
            if node_plan.noise or node_plan.bad or node_plan.repaired:
                self.lines_by_node[node_plan.node.node_id] = {
                    "noise": node_plan.noise, "bad": node_plan.bad, "repaired": node_plan.repaired}
            if node_plan.skipped and not node_plan.heads:
                reason = node_plan.skipped.reason.value
                self.skipped[reason] = self.skipped.get(reason, 0) + 1

    def add_inbox(self, counts: dict[str, int]) -> None:
        self.inbox_claimed += counts["claimed"]
        self.inbox_parked += counts["parked"]
        self.inbox_already_done += counts["already_done"]

    def add_counts(self, counts: CommitCounts | MapCounts) -> None:
        for counter in fields(counts):
            setattr(self, counter.name, getattr(self, counter.name) + getattr(counts, counter.name))


def tenant_counts(summary: RunSummary) -> dict:
    """The reference scheduler's summary keys, for one tenant's run."""
    return {
        "nodes_considered": summary.nodes + summary.skipped_not_due,
        "windows_submitted": summary.windows + summary.retrying + summary.parked,
        "windows_committed": summary.windows,
        "skipped_not_due": summary.skipped_not_due,
        "memories_written": summary.memories_written,
        "duplicates": summary.duplicates,
        "retrying": summary.retrying,
        "parked": summary.parked,
    }
