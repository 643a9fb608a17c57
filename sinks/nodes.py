"""The `nodes` table: every trail a run has seen, with its size in seq units."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol

import duckdb

from sinks.lake import write_transaction
from sinks.tables import NODES, insert


class NodeLike(Protocol):
    source: str
    node_id: str
    path: str
    project: str


def record_nodes(con: duckdb.DuckDBPyConnection, tenant_id: str,
                 seen: list[tuple[NodeLike, int]]) -> None:
    """Insert new nodes and refresh line counts of known ones, in one transaction."""
    if not seen:
        return
    now = datetime.now(UTC)

    def write(con) -> None:
        known = {row[0] for row in con.execute(
            "SELECT node_id FROM nodes WHERE tenant_id = ?", [tenant_id]).fetchall()}
        new_rows = []
        for ref, lines in seen:
            if ref.node_id in known:
                con.execute(
                    "UPDATE nodes SET lines = ?, path = ?, last_seen_at = ? "
                    "WHERE tenant_id = ? AND node_id = ?",
                    [lines, ref.path, now, tenant_id, ref.node_id],
                )
                continue
            new_rows.append({"tenant_id": tenant_id, "node_id": ref.node_id, "source": ref.source,
                             "path": ref.path, "project": ref.project, "lines": lines,
                             "first_seen_at": now, "last_seen_at": now})
            known.add(ref.node_id)
        insert(con, NODES, new_rows)

    write_transaction(con, write)



def noise_by_node(con: duckdb.DuckDBPyConnection, tenant_id: str) -> dict[str, int]:
    """Per node, the lines its committed windows cover that were not events (progress lines,
    snapshots, broken lines): each window spans its seq range, and its events are counted.
    In HUGEINT: a range near the BIGINT limit (a lake written before seqs were bounded) must not
    overflow the sum."""
    rows = con.execute(
        "SELECT node_id, sum(CAST(cursor_to AS HUGEINT) - cursor_from + 1 - events) "
        "FROM (SELECT DISTINCT node_id, attempt_id, cursor_from, cursor_to, events FROM attempts "
        "WHERE tenant_id = ? AND status <> 'failed') GROUP BY node_id", [tenant_id]).fetchall()
    return {node: int(noise) for node, noise in rows}
