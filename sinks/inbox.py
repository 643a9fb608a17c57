"""The inbox (contract §2.10): windows pushed to the server, durable before their watermark moves,
interviewed later by the batch driver through the same map and group commit as trails on disk.

Two append-only tables, two owners, so the server and a batch run never write the same rows:
- `inbox_jobs`: the server appends each accepted, masked window once (`accept_windows`), in the
  same transaction that moves the node's watermark: the window is durable before the watermark
  moves and before the client hears 200.
- `inbox_state`: the batch driver appends each job's state changes: `processing` when a run claims
  it (attempts + 1), then `done` in the transaction that commits its memories (sinks.commit), or
  `pending` again (a model failure, a partial window), or `failed_permanent` once the attempts are
  spent. `interview retry` appends `pending` with the attempts reset.
The `inbox` view joins them: one row per job with its current status.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import duckdb
import orjson

from ingest.events import Event
from ingest.windows import Window
from sinks.lake import IN_JOINED, joined, records, write_transaction
from sinks.tables import COMMANDS, INBOX_JOBS, INBOX_STATE, SERVER_RUN, WATERMARK_LOG, insert
from sinks.watermarks import watermark_doc_id

MAX_ATTEMPTS = 3  # interview_job_max_attempts
STALE_PROCESSING = timedelta(seconds=600)  # INTERVIEW_JOB_STALE_PROCESSING_SECONDS


def job_id(attempt_id: str) -> str:
    return "job_" + attempt_id


class JobRefused(Exception):
    """The window's job is parked `failed_permanent`: operator intervention required (409)."""


@dataclass(frozen=True)
class Job:
    """A claimed inbox job: its window (masked at accept) and the attempts it has used."""

    window: Window
    attempts: int

    @property
    def job_id(self) -> str:
        return job_id(self.window.attempt_id)


def _parked(con, pairs: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """The (tenant, job) pairs among `pairs` whose newest state is `failed_permanent`."""
    if not pairs:
        return set()
    rows = con.execute(
        "SELECT tenant_id, job_id FROM inbox_state WHERE job_id IN " + IN_JOINED
        + " QUALIFY row_number() OVER (PARTITION BY tenant_id, job_id ORDER BY version DESC) = 1 "
        "AND status = 'failed_permanent'", [joined(sorted({job for _, job in pairs}))]).fetchall()
    return set(rows) & set(pairs)


@dataclass
class AcceptMemory:
    """What an accepting server remembers between its transactions, so that accepting a new
    window is one append and no look-up: the jobs it knows (stored once) and each node's
    watermark. Only a window sent again reads its job's state (a parked job is refused).
    Another server worker's appends are unknown here: a window sent to two workers at once may
    be stored twice, and every reader takes a job's first row."""

    known: set[tuple[str, str]]
    marks: dict[tuple[str, str], int]

    @classmethod
    def load(cls, con: duckdb.DuckDBPyConnection) -> AcceptMemory:
        return cls(set(con.execute("SELECT DISTINCT tenant_id, job_id FROM inbox_jobs").fetchall()),
                   {})


def accept_windows(con: duckdb.DuckDBPyConnection, windows: list[Window], *,
                   memory: AcceptMemory | None = None, now: datetime | None = None,
                   crash_hook=None) -> list[int | JobRefused]:
    """Persist masked windows (any tenants) as inbox jobs and move their nodes' watermarks, all
    in ONE transaction. Per window, in order: the node's effective watermark, or `JobRefused`
    when its job is parked. A window whose job exists already is not stored again (its watermark
    still moves forward if it can)."""
    now = now or datetime.now(UTC)
    memory = memory or AcceptMemory.load(con)

    def write(con) -> tuple[list[int | JobRefused], set, dict]:
        pairs = [(w.tenant_id or "", job_id(w.attempt_id)) for w in windows]
        known, stored = set(), _stored_marks(con, memory, windows)
        refused = _parked(con, [pair for pair in pairs if pair in memory.known])
        fresh, moved, results = [], {}, []
        for window, pair in zip(windows, pairs):
            if pair in refused:
                results.append(JobRefused(pair[1]))
                continue
            if pair not in memory.known and pair not in known:
                known.add(pair)
                fresh.append(_job_row(window, pair[1], now))
            node = (pair[0], window.node_id)
            mark = max(stored.get(node, -1), moved.get(node, (-1,))[0])
            if window.cursor_to > mark:
                mark = window.cursor_to
                moved[node] = (mark, window)
            results.append(mark)
        if crash_hook:
            crash_hook("before_inbox")
        # One append is the job AND its node's forward move (the `watermarks` view reads both
        # the log and the inbox), so an accept touches one table: one catalog write, not two.
        insert(con, INBOX_JOBS, fresh)
        marks_only = [window for node, (_, window) in sorted(moved.items())
                      if (node[0], job_id(window.attempt_id)) not in known]
        insert(con, WATERMARK_LOG, [_mark_row(window.tenant_id or "", window, now)
                                    for window in marks_only])
        if crash_hook:
            crash_hook("after_inbox")
        _close_commands(con, [w for w, r in zip(windows, results)
                              if not isinstance(r, JobRefused)], now)
        return results, known, {node: mark for node, (mark, _) in moved.items()}

    results, known, moved = write_transaction(con, write)
    memory.known |= known
    memory.marks.update(moved)
    if crash_hook:
        crash_hook("after_accept")
    return results


def _stored_marks(con, memory: AcceptMemory, windows: list[Window]) -> dict[tuple[str, str], int]:
    """Each node's watermark: remembered, or read once for a node not seen before."""
    nodes = {(w.tenant_id or "", w.node_id) for w in windows}
    unknown = sorted(node for node in nodes if node not in memory.marks)
    if unknown:
        rows = con.execute(
            "SELECT tenant_id, node_id, last_seq FROM watermarks WHERE node_id IN " + IN_JOINED,
            [joined(node for _, node in unknown)]).fetchall()
        found = {(tenant, node): int(seq) for tenant, node, seq in rows}
        for node in unknown:
            memory.marks[node] = found.get(node, -1)
    return {node: memory.marks[node] for node in nodes}


def _mark_row(tenant: str, window: Window, now: datetime) -> dict:
    return {"tenant_id": tenant, "node_id": window.node_id, "doc_id": watermark_doc_id(window.node_id),
            "agent_id": window.agent_id, "last_seq": window.cursor_to, "last_interview_at": now,
            "last_command_id": window.command_id, "run_id": SERVER_RUN}


def _job_row(window: Window, job: str, now: datetime) -> dict:
    return {
        "job_id": job, "tenant_id": window.tenant_id or "", "fleet_id": window.fleet_id,
        "node_id": window.node_id, "agent_id": window.agent_id, "command_id": window.command_id,
        "cursor_from": window.cursor_from, "cursor_to": window.cursor_to,
        "event_count": len(window.events),
        "events": orjson.dumps([event.to_dict() for event in window.events]).decode(),
        "received_at": now,
    }


def _close_commands(con, windows: list[Window], now: datetime) -> None:
    """A submit carrying a pending command's id closes that command (contract §2.11)."""
    ids = sorted({w.command_id for w in windows if w.command_id})
    if not ids:
        return
    pending = con.execute(
        "SELECT command_id, tenant_id, node_id, command, payload FROM commands WHERE command_id IN "
        + IN_JOINED + " QUALIFY row_number() OVER (PARTITION BY command_id ORDER BY changed_at "
        "DESC) = 1 AND status = 'pending'", [joined(ids)]).fetchall()
    insert(con, COMMANDS, [
        {"command_id": command, "tenant_id": tenant, "node_id": node, "command": kind,
         "payload": payload, "status": "done", "changed_at": now}
        for command, tenant, node, kind, payload in pending])


def claim_jobs(con: duckdb.DuckDBPyConnection, tenant_id: str, run_id: str, *, limit: int,
               committed: set[str], now: datetime | None = None) -> tuple[list[Job], dict]:
    """Take up to `limit` jobs of a tenant for this run: pending ones, and processing ones whose
    run is gone or that started over 10 minutes ago. A job out of attempts is parked instead;
    one whose window is committed already (a disk run wrote it) is done without the model.
    Returns the claimed jobs (oldest first) and the counts."""
    now = now or datetime.now(UTC)

    def write(con) -> tuple[list[Job], dict]:
        rows = con.execute(_CLAIMABLE, [tenant_id, now - STALE_PROCESSING, int(limit)]).fetchall()
        claimed, states, counts = [], [], {"claimed": 0, "parked": 0, "already_done": 0}
        for (job, node, agent, fleet, command, start, end, events, status, attempts,
             version) in rows:
            window = Window(node, agent, start, end, _events(events), tenant_id, fleet, command)
            attempts, version = attempts or 0, (version or 0) + 1
            if window.attempt_id in committed:
                next_state, counts["already_done"] = ("done", attempts), counts["already_done"] + 1
            elif attempts >= MAX_ATTEMPTS:
                next_state, counts["parked"] = ("failed_permanent", attempts), counts["parked"] + 1
            else:
                next_state = ("processing", attempts + 1)
                claimed.append(Job(window, attempts + 1))
            states.append(_state_row(job, tenant_id, *next_state, run_id, now, version))
        insert(con, INBOX_STATE, states)
        counts["claimed"] = len(claimed)
        return claimed, counts

    return write_transaction(con, write)


_CLAIMABLE = """
    WITH state AS (
        SELECT * FROM inbox_state WHERE tenant_id = $1
        QUALIFY row_number() OVER (PARTITION BY job_id ORDER BY version DESC) = 1),
    jobs AS (
        SELECT * FROM inbox_jobs WHERE tenant_id = $1
        QUALIFY row_number() OVER (PARTITION BY job_id ORDER BY received_at) = 1)
    SELECT j.job_id, j.node_id, j.agent_id, j.fleet_id, j.command_id, j.cursor_from, j.cursor_to,
           j.events, s.status, s.attempts, s.version
    FROM jobs j LEFT JOIN state s ON s.job_id = j.job_id
    WHERE s.status IS NULL OR s.status = 'pending'
       OR (s.status = 'processing' AND (s.changed_at < $2 OR s.run_id NOT IN
           (SELECT run_id FROM runs WHERE status = 'running')))
    ORDER BY j.node_id, j.cursor_from, j.received_at
    LIMIT $3"""


def job_events(con: duckdb.DuckDBPyConnection, tenant_id: str, attempt_id: str) -> tuple[Event, ...]:
    """The (masked) events of the pushed window of `attempt_id`; empty when it was not pushed."""
    row = con.execute("SELECT any_value(events) FROM inbox_jobs WHERE tenant_id = ? AND job_id = ?",
                      [tenant_id, job_id(attempt_id)]).fetchone()
    return _events(row[0]) if row and row[0] else ()


def _events(text: str) -> tuple[Event, ...]:
    return tuple(Event(e["seq"], e["ts"], e.get("session_id"), e["role"], e["kind"], e["content"],
                       e.get("tool"), e.get("outcome")) for e in orjson.loads(text))


def _state_row(job: str, tenant: str, status: str, attempts: int, run_id: str | None,
               now: datetime, version: int, reason: str | None = None,
               memories_written: int | None = None) -> dict:
    return {"job_id": job, "tenant_id": tenant, "status": status, "attempts": attempts,
            "reason": reason, "memories_written": memories_written, "run_id": run_id,
            "changed_at": now, "version": version}


@dataclass(frozen=True)
class Settled:
    """A claimed job's outcome: `done`, or back to `pending` (attempts kept)."""

    job_id: str
    status: str
    attempts: int
    reason: str | None = None
    memories_written: int = 0


def settle_jobs(con: duckdb.DuckDBPyConnection, tenant_id: str, settled: list[Settled],
                run_id: str, now: datetime | None = None) -> None:
    """Append the outcome of claimed jobs; inside the caller's transaction (the one that commits
    their memories) when there is one."""
    if not settled:
        return
    now = now or datetime.now(UTC)
    versions = dict(con.execute(
        "SELECT job_id, max(version) FROM inbox_state WHERE tenant_id = ? AND job_id IN "
        + IN_JOINED + " GROUP BY 1", [tenant_id, joined(s.job_id for s in settled)]).fetchall())
    insert(con, INBOX_STATE, [
        _state_row(s.job_id, tenant_id, s.status, s.attempts, run_id, now,
                   (versions.get(s.job_id) or 0) + 1, s.reason, s.memories_written)
        for s in settled])


def release_job(con: duckdb.DuckDBPyConnection, tenant_id: str, settled: Settled,
                run_id: str) -> None:
    """A claimed job whose model calls failed goes back to `pending`, in its own transaction."""
    write_transaction(con, lambda con: settle_jobs(con, tenant_id, [settled], run_id))


def requeue_failed_jobs(con: duckdb.DuckDBPyConnection, tenant_id: str,
                        node_glob: str = "*") -> list[tuple[str, int, int]]:
    """`interview retry`: parked jobs (of nodes matching a glob) get their attempts back."""
    def write(con) -> list[tuple[str, int, int]]:
        rows = con.execute(
            "SELECT job_id, node_id, cursor_from, cursor_to FROM inbox WHERE tenant_id = ? AND "
            "status = 'failed_permanent' ORDER BY node_id, cursor_from", [tenant_id]).fetchall()
        chosen = [row for row in rows if fnmatch.fnmatchcase(row[1], node_glob)]
        settle_jobs(con, tenant_id, [Settled(job, "pending", 0, "requeued by interview retry")
                                     for job, *_ in chosen], run_id=None)
        return [(node, int(start), int(end)) for _, node, start, end in chosen]

    return write_transaction(con, write)


def inbox_counts(con: duckdb.DuckDBPyConnection, tenant_id: str) -> dict[str, int]:
    """Jobs per status for `interview status`."""
    rows = con.execute("SELECT status, count(*) FROM inbox WHERE tenant_id = ? GROUP BY 1",
                       [tenant_id]).fetchall()
    return {status: int(count) for status, count in rows}


def parked_jobs(con: duckdb.DuckDBPyConnection, tenant_id: str) -> list[dict]:
    cursor = con.execute(
        "SELECT node_id, cursor_from, cursor_to, attempts, status, reason FROM inbox WHERE "
        "tenant_id = ? AND status = 'failed_permanent' ORDER BY node_id, cursor_from", [tenant_id])
    return records(cursor)
