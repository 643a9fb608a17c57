"""Run records, node rows and parked windows in the lake: the driver's bookkeeping writes."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import duckdb
import orjson

from ingest.discover import NodeRef
from ingest.windows import Window
from sinks.lake import transaction


def new_run_id() -> str:
    return "run_" + datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ_") + uuid.uuid4().hex[:8]


def start_run(con, run_id: str, kind: str, backend: str, prompt_version: str) -> None:
    """Open the run record; `finish_run` names the model, known once its engine has loaded."""
    con.execute(
        "INSERT INTO runs VALUES (?, ?, now(), NULL, 'running', ?, NULL, ?, NULL, NULL)",
        [run_id, kind, backend, prompt_version],
    )


def finish_run(con, run_id: str, status: str, model: str, counts: dict, errors: list) -> None:
    """Close the run record, naming the model its engine reported."""
    con.execute(
        "UPDATE runs SET finished_at = now(), status = ?, model = ?, counts = ?, errors = ? "
        "WHERE run_id = ?",
        [status, model, orjson.dumps(counts).decode(), orjson.dumps(errors[:200]).decode(), run_id],
    )


def record_nodes(con: duckdb.DuckDBPyConnection, tenant_id: str, seen: list[tuple[NodeRef, int]]) -> None:
    """Insert new nodes and refresh line counts of known ones, in one transaction."""
    if not seen:
        return
    known = {
        row[0]
        for row in con.execute("SELECT node_id FROM nodes WHERE tenant_id = ?", [tenant_id]).fetchall()
    }
    with transaction(con):
        for ref, lines in seen:
            if ref.node_id in known:
                con.execute(
                    "UPDATE nodes SET lines = ?, path = ?, last_seen_at = now() "
                    "WHERE tenant_id = ? AND node_id = ?",
                    [lines, ref.path, tenant_id, ref.node_id],
                )
            else:
                con.execute(
                    "INSERT INTO nodes VALUES (?, ?, ?, ?, ?, ?, now(), now())",
                    [tenant_id, ref.node_id, ref.source, ref.path, ref.project, lines],
                )
                known.add(ref.node_id)


def parked_cursors(con, tenant_id: str) -> dict[str, int]:
    """node_id → cursor_from of its parked window (the node waits there for `interview retry`)."""
    rows = con.execute(
        "SELECT node_id, min(cursor_from) FROM parked WHERE tenant_id = ? AND status = 'parked' "
        "GROUP BY 1",
        [tenant_id],
    ).fetchall()
    return dict(rows)


def failed_cursors(con, tenant_id: str) -> set[tuple[str, int]]:
    rows = con.execute(
        "SELECT node_id, cursor_from FROM parked WHERE tenant_id = ? AND status <> 'recovered'",
        [tenant_id],
    ).fetchall()
    return {(node, int(cursor)) for node, cursor in rows}


def record_failure(con, window: Window, reason: str, budget: int) -> str:
    """Count a failed attempt at a window; park it once the budget is spent. Returns the status."""
    tenant = window.tenant_id or ""
    row = con.execute(
        "SELECT attempts FROM parked WHERE tenant_id = ? AND node_id = ? AND cursor_from = ? "
        "AND status <> 'recovered'",
        [tenant, window.node_id, window.cursor_from],
    ).fetchone()
    attempts = (row[0] if row else 0) + 1
    status = "parked" if attempts >= budget else "retrying"
    body = orjson.dumps(window.to_body()).decode()
    with transaction(con):
        if row:
            con.execute(
                "UPDATE parked SET attempts = ?, status = ?, reason = ?, attempt_id = ?, "
                "cursor_to = ?, window_body = ?, last_failed_at = now() WHERE tenant_id = ? "
                "AND node_id = ? AND cursor_from = ? AND status <> 'recovered'",
                [attempts, status, reason, window.attempt_id, window.cursor_to, body, tenant,
                 window.node_id, window.cursor_from],
            )
        else:
            con.execute(
                "INSERT INTO parked VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, now(), now())",
                [tenant, window.node_id, window.attempt_id, window.cursor_from, window.cursor_to,
                 attempts, status, reason, body],
            )
    return status


def clear_failure(con, window: Window) -> None:
    """A window that had failed before has now committed."""
    con.execute(
        "UPDATE parked SET status = 'recovered' WHERE tenant_id = ? AND node_id = ? AND "
        "cursor_from = ? AND status <> 'recovered'",
        [window.tenant_id or "", window.node_id, window.cursor_from],
    )


def requeue_parked(con, tenant_id: str, node_glob: str = "*") -> list[tuple[str, int, int]]:
    """Give parked windows a fresh retry budget; the next run interviews them again."""
    rows = con.execute(
        "SELECT node_id, cursor_from, cursor_to FROM parked WHERE tenant_id = ? AND status = 'parked' "
        "AND node_id GLOB ? ORDER BY node_id, cursor_from",
        [tenant_id, node_glob],
    ).fetchall()
    if rows:
        con.execute(
            "UPDATE parked SET status = 'requeued', attempts = 0 WHERE tenant_id = ? AND "
            "status = 'parked' AND node_id GLOB ?",
            [tenant_id, node_glob],
        )
    return [(node, int(start), int(end)) for node, start, end in rows]
