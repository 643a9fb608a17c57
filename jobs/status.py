"""`interview status`: the nodes this machine's trails hold for a tenant (lines, cursor, pending,
noise), the inbox of pushed windows, parked windows, the last runs and the projects not allowed.
A report, never a refusal: on a fleet server's machine (no trails, no allowlist) it shows the
inbox; on a laptop it lists the projects an allowlist would let in."""

from __future__ import annotations

from ingest.errors import UnreadableTrail
from jobs.api import discover_nodes
from jobs.settings import Settings


def node_status(settings: Settings) -> dict:
    """Nodes per source with lines, cursor and pending units; parked windows; the last runs."""
    from pathlib import Path

    from ingest.sources import node_size
    from sinks.inbox import inbox_counts, parked_jobs
    from sinks.lake import Lake
    from sinks.nodes import noise_by_node
    from sinks.parked import open_failures
    from sinks.runs import recent_runs
    from sinks.watermarks import read_all_last_seqs

    inbox: dict[str, int] = {}
    seqs: dict[str, int] = {}
    parked: list[dict] = []
    runs: list[dict] = []
    noise: dict[str, int] = {}
    if settings.lake_location.exists():
        with Lake(settings.lake_location, create=False) as lake:
            inbox = inbox_counts(lake.con, settings.tenant_id)
            seqs = read_all_last_seqs(lake.con, settings.tenant_id)
            parked = open_failures(lake.con, settings.tenant_id) + parked_jobs(
                lake.con, settings.tenant_id)
            runs = recent_runs(lake.con)
            noise = noise_by_node(lake.con, settings.tenant_id)
    found = discover_nodes(settings, pushed=True)  # a report: projects not allowed are listed
    sources: dict[str, list[dict]] = {}
    cache: dict = {}
    for node in found.nodes:
        cursor = seqs.get(node.node_id, -1)
        entry = {"node_id": node.node_id, "project": node.project,
                 "name": node.key or Path(node.path).name, "kind": node.kind, "cursor": cursor,
                 "lines": 0, "pending": 0, "noise": noise.get(node.node_id, 0)}
        try:
            entry["lines"] = node_size(node, cache)
            entry["pending"] = max(0, entry["lines"] - cursor - 1)
        except (OSError, UnreadableTrail) as error:
            entry["note"] = f"unreadable: {error}"
        sources.setdefault(node.source, []).append(entry)
    denied = sorted(f"{source}: {project}" for source, project in found.denied_projects)
    rejects = [{"path": r.path, "line": r.line, "reason": r.reason} for r in found.rejects]
    return {"sources": sources, "inbox": inbox, "parked": parked, "runs": runs,
            "denied_projects": denied, "rejects": rejects}
