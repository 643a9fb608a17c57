"""The `parked` table: windows whose model calls failed, counted against the retry budget.

A failed window is `retrying` until its attempts reach the budget, then `parked`: its node waits
there (its watermark stays) until `interview retry` re-queues it (`requeued`, attempts reset). A
window that commits after failing is `recovered`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol

import duckdb
import orjson

from sinks.lake import records, write_transaction
from sinks.tables import PARKED, insert


class WindowLike(Protocol):
    tenant_id: str | None
    node_id: str
    cursor_from: int
    cursor_to: int
    attempt_id: str

    def to_body(self) -> dict: ...


def parked_cursors(con: duckdb.DuckDBPyConnection, tenant_id: str) -> dict[str, int]:
    """node_id → cursor_from of its parked window (the node waits there for `interview retry`)."""
    rows = con.execute(
        "SELECT node_id, min(cursor_from) FROM parked WHERE tenant_id = ? AND status = 'parked' "
        "GROUP BY 1",
        [tenant_id],
    ).fetchall()
    return dict(rows)


def failed_cursors(con: duckdb.DuckDBPyConnection, tenant_id: str) -> set[tuple[str, int]]:
    """(node_id, cursor_from) of every window that failed and has not committed since."""
    rows = con.execute(
        "SELECT node_id, cursor_from FROM parked WHERE tenant_id = ? AND status <> 'recovered'",
        [tenant_id],
    ).fetchall()
    return {(node, int(cursor)) for node, cursor in rows}


def record_failure(con: duckdb.DuckDBPyConnection, window: WindowLike, reason: str,
                   budget: int) -> str:
    """Count a failed attempt at a window; park it once the budget is spent. Returns the status."""
    tenant = window.tenant_id or ""
    key = [tenant, window.node_id, window.cursor_from]
    body = orjson.dumps(window.to_body()).decode()
    now = datetime.now(UTC)

    def write(con) -> str:
        row = con.execute(
            "SELECT attempts FROM parked WHERE tenant_id = ? AND node_id = ? AND cursor_from = ? "
            "AND status <> 'recovered'", key).fetchone()
        attempts = (row[0] if row else 0) + 1
        status = "parked" if attempts >= budget else "retrying"
        if row:
            con.execute(
                "UPDATE parked SET attempts = ?, status = ?, reason = ?, attempt_id = ?, "
                "cursor_to = ?, window_body = ?, last_failed_at = ? WHERE tenant_id = ? "
                "AND node_id = ? AND cursor_from = ? AND status <> 'recovered'",
                [attempts, status, reason, window.attempt_id, window.cursor_to, body, now, *key],
            )
        else:
            insert(con, PARKED, [{
                "tenant_id": tenant, "node_id": window.node_id, "attempt_id": window.attempt_id,
                "cursor_from": window.cursor_from, "cursor_to": window.cursor_to,
                "attempts": attempts, "status": status, "reason": reason, "window_body": body,
                "first_failed_at": now, "last_failed_at": now,
            }])
        return status

    return write_transaction(con, write)


def clear_failures(con: duckdb.DuckDBPyConnection, tenant_id: str,
                   windows: list[tuple[str, int]]) -> None:
    """Windows (node_id, cursor_from) that had failed before have now committed."""
    def write(con) -> None:
        for node_id, cursor_from in windows:
            con.execute(
                "UPDATE parked SET status = 'recovered' WHERE tenant_id = ? AND node_id = ? AND "
                "cursor_from = ? AND status <> 'recovered'",
                [tenant_id, node_id, cursor_from],
            )

    if windows:
        write_transaction(con, write)


def requeue_parked(con: duckdb.DuckDBPyConnection, tenant_id: str,
                   node_glob: str = "*") -> list[tuple[str, int, int]]:
    """Give parked windows a fresh retry budget; the next run interviews them again."""
    rows = con.execute(
        "SELECT node_id, cursor_from, cursor_to FROM parked WHERE tenant_id = ? "
        "AND status = 'parked' AND node_id GLOB ? ORDER BY node_id, cursor_from",
        [tenant_id, node_glob],
    ).fetchall()
    if rows:
        con.execute(
            "UPDATE parked SET status = 'requeued', attempts = 0 WHERE tenant_id = ? AND "
            "status = 'parked' AND node_id GLOB ?",
            [tenant_id, node_glob],
        )
    return [(node, int(start), int(end)) for node, start, end in rows]


def open_failures(con: duckdb.DuckDBPyConnection, tenant_id: str) -> list[dict]:
    """Failed windows not recovered yet, for `interview status`."""
    cursor = con.execute(
        "SELECT node_id, cursor_from, cursor_to, attempts, status, reason FROM parked "
        "WHERE tenant_id = ? AND status <> 'recovered' ORDER BY node_id", [tenant_id])
    return records(cursor)
