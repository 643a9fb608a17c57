"""Per-node watermarks (contract §2.9): forward only, advanced last, read as -1 when absent."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

import duckdb


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
    if stored < 0:
        con.execute(
            "INSERT INTO watermarks VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [tenant_id, node_id, watermark_doc_id(node_id), *values],
        )
    else:
        con.execute(
            "UPDATE watermarks SET agent_id = ?, last_seq = ?, last_interview_at = ?, "
            "last_command_id = ?, run_id = ? WHERE tenant_id = ? AND node_id = ?",
            [*values, tenant_id, node_id],
        )
    return cursor_to
