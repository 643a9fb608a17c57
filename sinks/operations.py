"""The lake's side of operations (`interview ui`'s operations page): every node of a tenant with
its watermark, size and memories, and the last runs with their counts. Read-only.

`interview status` starts from the trails this machine sees; this starts from the lake, so a
server's nodes (known only from pushed windows) are listed too. The inbox and the parked windows
come from `sinks.inbox` and `sinks.parked`, as for `interview status`.
"""

from __future__ import annotations

import duckdb
import orjson

from sinks.lake import records
from sinks.memory_browse import browsed_memories
from sinks.nodes import noise_by_node


def node_overview(con: duckdb.DuckDBPyConnection, tenant_id: str) -> list[dict]:
    """Each node the lake knows for the tenant (from `nodes` or a watermark): source, project,
    trail, lines seen, watermark (`last_seq`, `last_interview_at`), lines past the watermark,
    noise in its committed windows and its memories; the most recently interviewed first."""
    rows = records(con.execute(
        f"""
        SELECT coalesce(n.node_id, w.node_id) AS node_id, n.source, n.project, n.path, n.lines,
               w.last_seq, w.last_interview_at, coalesce(c.memories, 0) AS memories
        FROM (SELECT node_id, any_value(source) AS source, any_value(project) AS project,
                     any_value(path) AS path, max(lines) AS lines
              FROM nodes WHERE tenant_id = $tenant GROUP BY 1) n
        FULL OUTER JOIN (SELECT node_id, last_seq, last_interview_at FROM watermarks
                         WHERE tenant_id = $tenant) w ON w.node_id = n.node_id
        LEFT JOIN (SELECT node_id, count(*) AS memories FROM {browsed_memories(con)} GROUP BY 1) c
            ON c.node_id = coalesce(n.node_id, w.node_id)
        ORDER BY w.last_interview_at DESC NULLS LAST, 1
        """, {"tenant": tenant_id}))
    noise = noise_by_node(con, tenant_id)
    for row in rows:
        seq = -1 if row["last_seq"] is None else int(row["last_seq"])
        row["last_seq"] = seq
        row["pending"] = None if row["lines"] is None else max(0, int(row["lines"]) - seq - 1)
        row["noise"] = noise.get(row["node_id"], 0)
        row["source"] = row["source"] or row["node_id"].split(":", 1)[0]
    return rows


def last_runs(con: duckdb.DuckDBPyConnection, limit: int = 10) -> list[dict]:
    """The newest runs (and submits) with their status, model and counts (a dict, {} while a
    run is still going)."""
    rows = records(con.execute(
        "SELECT run_id, kind, status, started_at, finished_at, backend, model, counts FROM runs "
        "ORDER BY started_at DESC LIMIT ?", [int(limit)]))
    for row in rows:
        row["counts"] = orjson.loads(row["counts"]) if row["counts"] else {}
    return rows
