"""Per-node watermarks (contract §2.9): forward only, advanced last, read as -1 when absent.

A forward move appends a row to `watermark_log`; the `watermarks` view is each node's newest row
(the highest seq). Appending is what lets the server and a batch run move watermarks at the same
time: two writers that both move a node forward leave the higher mark, never a lower one.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

import duckdb

from sinks.lake import IN_JOINED, joined
from sinks.tables import WATERMARK_LOG, insert


def watermark_doc_id(node_id: str) -> str:
    return "wm_" + hashlib.sha1(node_id.encode(), usedforsecurity=False).hexdigest()


def read_watermark(con: duckdb.DuckDBPyConnection, tenant_id: str, node_id: str) -> dict | None:
    row = con.execute(
        "SELECT node_id, agent_id, tenant_id, last_seq, "
        "strftime(last_interview_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ'), last_command_id "
        "FROM watermarks WHERE tenant_id = ? AND node_id = ?",
        [tenant_id, node_id],
    ).fetchone()
    if row is None:
        return None
    keys = ("node_id", "agent_id", "tenant_id", "last_seq", "last_interview_at", "last_command_id")
    return dict(zip(keys, row))


def last_seq(con: duckdb.DuckDBPyConnection, tenant_id: str, node_id: str) -> int:
    document = read_watermark(con, tenant_id, node_id)
    return -1 if document is None else int(document["last_seq"])


def read_all_last_seqs(con: duckdb.DuckDBPyConnection, tenant_id: str) -> dict[str, int]:
    rows = con.execute(
        "SELECT node_id, last_seq FROM watermarks WHERE tenant_id = ?", [tenant_id]
    ).fetchall()
    return {node: int(seq) for node, seq in rows}


def advance_watermark(
    con: duckdb.DuckDBPyConnection,
    *,
    tenant_id: str,
    node_id: str,
    agent_id: str,
    cursor_to: int,
    command_id: str | None,
    run_id: str,
    now: datetime | None = None,
) -> int:
    """Move the watermark to `cursor_to` if that is forward; return the effective watermark.

    Runs inside the caller's transaction. A stale cursor never regresses the watermark and does
    not refresh `last_interview_at`.
    """
    stored = last_seq(con, tenant_id, node_id)
    if cursor_to <= stored:
        return stored
    values: list[Any] = [agent_id, cursor_to, now or datetime.now(UTC), command_id, run_id]
    con.execute("INSERT INTO watermark_log VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [tenant_id, node_id, watermark_doc_id(node_id), *values])
    return cursor_to


def advance_watermarks(
    con: duckdb.DuckDBPyConnection,
    tenant_id: str,
    committed: list,
    now: datetime,
) -> dict[str, int]:
    """`advance_watermark` for a batch of committed (window, context) pairs, each node's in seq
    order, in two statements whatever the batch size. Returns attempt id → the node's effective
    watermark right after that window, as a one-window commit would have reported it."""
    if not committed:
        return {}
    nodes = sorted({window.node_id for window, _ in committed})
    stored = dict(con.execute(
        "SELECT node_id, last_seq FROM watermarks WHERE tenant_id = ? AND node_id IN " + IN_JOINED,
        [tenant_id, joined(nodes)]).fetchall())
    marks: dict[str, int] = {}
    current = {node: int(seq) for node, seq in stored.items()}
    latest: dict[str, tuple] = {}
    for window, context in committed:
        mark = current.get(window.node_id, -1)
        if window.cursor_to > mark:
            mark = current[window.node_id] = window.cursor_to
            latest[window.node_id] = (window, context)
        marks[window.attempt_id] = mark
    if latest:
        moved = sorted(latest)
        insert(con, WATERMARK_LOG, [
            {"tenant_id": tenant_id, "node_id": node, "doc_id": watermark_doc_id(node),
             "agent_id": window.agent_id, "last_seq": window.cursor_to,
             "last_interview_at": context.now or now, "last_command_id": window.command_id,
             "run_id": context.run_id}
            for node in moved for window, context in [latest[node]]
        ])
    return marks


def last_interviews(con: duckdb.DuckDBPyConnection, tenant_id: str) -> dict[str, datetime]:
    """node_id → when it was last interviewed (the dueness of contract §2.11)."""
    rows = con.execute(
        "SELECT node_id, last_interview_at FROM watermarks WHERE tenant_id = ?", [tenant_id]
    ).fetchall()
    return dict(rows)


def watermark_document(con: duckdb.DuckDBPyConnection, tenant_id: str, doc_id: str) -> dict | None:
    """The watermark as the documents API of contract §1.3 returns it (`DocOut`), or None."""
    row = con.execute(
        "SELECT node_id, agent_id, last_seq, last_interview_at, last_command_id FROM watermarks "
        "WHERE tenant_id = ? AND doc_id = ?", [tenant_id, doc_id]).fetchone()
    if row is None:
        return None
    node_id, agent_id, seq, at, command_id = row
    first = con.execute(
        "SELECT min(first_at) FROM (SELECT min(last_interview_at) AS first_at FROM watermark_log "
        "WHERE "
        "tenant_id = $1 AND node_id = $2 UNION ALL SELECT min(received_at) FROM inbox_jobs "
        "WHERE tenant_id = $1 AND node_id = $2)", [tenant_id, node_id]).fetchone()[0]
    return {
        "id": doc_id, "tenant_id": tenant_id, "fleet_id": None,
        "collection": "interview_watermarks", "doc_id": doc_id,
        "data": {"node_id": node_id, "agent_id": agent_id, "tenant_id": tenant_id,
                 "last_seq": int(seq), "last_interview_at": _iso(at),
                 "last_command_id": command_id},
        "created_at": _iso(first), "updated_at": _iso(at),
    }


def _iso(value: datetime) -> str:
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
