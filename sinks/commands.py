"""Commands for nodes that push (contract §2.11): the scheduler queues one `interview_request` per
due node, the node reads it, and the submit that carries its id closes it (`sinks.inbox`).

`commands` is a log: a row per state of a command, the newest is its state. Only the server
writes it, by appending.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import duckdb
import orjson

from sinks.lake import write_transaction
from sinks.tables import COMMANDS, insert

NODE_OFFLINE = timedelta(seconds=300)  # NODE_OFFLINE_SECONDS


@dataclass(frozen=True)
class TenantSchedule:
    tenant_id: str
    period_hours: int = 12
    template_id: str = "default-v1"


_PUSH_NODES = """
    WITH contact AS (
        SELECT tenant_id, node_id, max(seen_at) AS seen_at FROM (
            SELECT tenant_id, node_id, seen_at FROM node_contacts
            UNION ALL SELECT tenant_id, node_id, received_at FROM inbox_jobs) GROUP BY 1, 2),
    pending AS (
        SELECT DISTINCT node_id FROM commands WHERE tenant_id = $1
        QUALIFY row_number() OVER (PARTITION BY command_id ORDER BY changed_at DESC) = 1
            AND status = 'pending')
    SELECT c.node_id, c.seen_at, w.last_seq, w.last_interview_at, p.node_id IS NOT NULL
    FROM contact c
    LEFT JOIN watermarks w ON w.tenant_id = c.tenant_id AND w.node_id = c.node_id
    LEFT JOIN pending p ON p.node_id = c.node_id
    WHERE c.tenant_id = $1
    ORDER BY c.node_id"""


def run_schedule(con: duckdb.DuckDBPyConnection, tenants: list[TenantSchedule],
                 now: datetime | None = None) -> dict[str, int]:
    """Queue an `interview_request` for every due, online node of the enabled tenants; never a
    second one while one is pending. Returns the reference's counts summary."""
    now = now or datetime.now(UTC)

    def write(con) -> dict[str, int]:
        # Built here: a transaction that loses a commit race runs again from the start.
        summary = {"tenants": len(tenants), "nodes_considered": 0, "commands_queued": 0,
                   "skipped_pending": 0, "skipped_not_due": 0, "skipped_offline": 0,
                   # The job sweep of the reference is the batch run here (`interview run`).
                   "jobs_processed": 0, "jobs_done": 0, "jobs_retried": 0, "jobs_parked": 0,
                   "jobs_skipped": 0}
        rows = []
        for tenant in tenants:
            period = timedelta(hours=tenant.period_hours)
            for node, seen, last_seq, last_at, pending in con.execute(
                    _PUSH_NODES, [tenant.tenant_id]).fetchall():
                summary["nodes_considered"] += 1
                if seen is None or now - seen > NODE_OFFLINE:
                    summary["skipped_offline"] += 1
                elif pending:
                    summary["skipped_pending"] += 1
                elif last_at is not None and now - last_at < period:
                    summary["skipped_not_due"] += 1
                else:
                    payload = {"node_id": node,
                               "since_seq": 0 if last_seq is None else int(last_seq) + 1,
                               "template_id": tenant.template_id,
                               "period_hours": tenant.period_hours}
                    rows.append({"command_id": "cmd_" + uuid.uuid4().hex,
                                 "tenant_id": tenant.tenant_id, "node_id": node,
                                 "command": "interview_request",
                                 "payload": orjson.dumps(payload).decode(), "status": "pending",
                                 "changed_at": now})
        insert(con, COMMANDS, rows)
        summary["commands_queued"] = len(rows)
        return summary

    return write_transaction(con, write)


def pending_commands(con: duckdb.DuckDBPyConnection, tenant_id: str, node_id: str) -> list[dict]:
    """The node's pending commands, oldest first, as a node reads them."""
    rows = con.execute(
        "SELECT command_id, command, payload, status, first_value(changed_at) OVER "
        "(PARTITION BY command_id ORDER BY changed_at) AS created_at FROM commands "
        "WHERE tenant_id = ? AND node_id = ? QUALIFY row_number() OVER "
        "(PARTITION BY command_id ORDER BY changed_at DESC) = 1 AND status = 'pending' "
        "ORDER BY created_at", [tenant_id, node_id]).fetchall()
    return [{"id": command, "command": kind, "payload": orjson.loads(payload), "status": status,
             "created_at": created.astimezone(UTC).isoformat().replace("+00:00", "Z")}
            for command, kind, payload, status, created in rows]
