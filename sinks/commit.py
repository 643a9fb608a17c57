"""The idempotent write of one window (contract §3): memories, then the ledger row, then the
watermark, all in one DuckLake transaction, so a crash leaves either all of it or none.

Per item: `created`, `duplicate_attempt` (this attempt's item i is already committed),
`duplicate_content` (the same content from another attempt, or earlier in this batch), or `error`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

import duckdb
import orjson
import pyarrow as pa

from ingest.windows import Window
from sinks.forget import forgotten_attempts
from sinks.inbox import Settled, job_id, settle_jobs
from sinks.items import MemoryItem, content_hash, item_error, memory_id
from sinks.lake import IN_JOINED, joined, write_transaction
from sinks.tables import ATTEMPTS, MEMORIES, arrow_rows, insert
from sinks.vectors import embedding_rows, insert_embeddings
from sinks.watermarks import advance_watermark, advance_watermarks


@dataclass(frozen=True)
class ItemVectors:
    """Embeddings of a window's items, item index → vector: given, or computed at commit for
    the items written."""

    model: str
    by_index: dict[int, list[float]]


@dataclass
class ItemResult:
    index: int
    client_request_id: str
    status: str
    id: str | None = None
    duplicate_of: str | None = None
    error: str | None = None


@dataclass
class WindowResult:
    """What `interview submit` prints: `{status, watermark, memories_written, errors}`."""

    attempt_id: str
    status: str
    watermark: int | None
    memories_written: int = 0
    duplicates: int = 0
    errors: int = 0
    results: list[ItemResult] = field(default_factory=list)
    forgotten: int = 0  # items not written: the window overlaps one `interview forget` removed

    def to_json(self) -> dict:
        return {
            "status": self.status,
            "watermark": self.watermark,
            "memories_written": self.memories_written,
            "errors": self.errors,
        }


@dataclass(frozen=True)
class CommitContext:
    run_id: str
    backend: str
    model: str
    prompt_version: str
    timestamps_dropped: int = 0
    now: datetime | None = None  # the run's clock (tests move it); default: the wall clock


@dataclass
class PendingWindow:
    """A window ready to commit: its items, their embeddings, and the commit's context."""

    window: Window
    items: list[MemoryItem]
    context: CommitContext
    vectors: ItemVectors | None = None
    job_attempts: int | None = None  # an inbox job's window: settled with its memories


def _committed_items(con, tenant: str, attempts: list[str]) -> dict[str, dict[str, str]]:
    rows = con.execute(
        "SELECT attempt_id, client_request_id, memory_id FROM memories WHERE tenant_id = ? AND "
        "attempt_id IN " + IN_JOINED,
        [tenant, joined(attempts)],
    ).fetchall()
    found: dict[str, dict[str, str]] = {}
    for attempt, crid, memory in rows:
        found.setdefault(attempt, {})[crid] = memory
    return found


def _existing_hashes(con, tenant: str, hashes: list[str]) -> dict[tuple[str, str], str]:
    if not hashes:
        return {}
    rows = con.execute(
        "SELECT coalesce(fleet_id, ''), content_hash, any_value(memory_id) FROM memories "
        "WHERE tenant_id = ? AND content_hash IN " + IN_JOINED + " GROUP BY 1, 2",
        [tenant, joined(hashes)],
    ).fetchall()
    return {(fleet, digest): memory for fleet, digest, memory in rows}


def _classify(
    window: Window,
    items: list[MemoryItem],
    digests: list[str],
    committed: dict[str, str],
    existing: dict[tuple[str, str], str],
) -> tuple[list[ItemResult], list[tuple[MemoryItem, ItemResult, str]]]:
    """Per item: created, duplicate_attempt, duplicate_content or error. `existing` (fleet,
    content hash) → memory id is updated with what this window creates, so a later window of the
    same batch sees it, as it would after a commit of its own."""
    tenant, fleet, attempt = window.tenant_id or "", window.fleet_id, window.attempt_id
    results: list[ItemResult] = []
    to_insert: list[tuple[MemoryItem, ItemResult, str]] = []
    for item, digest in zip(items, digests):
        crid = f"{attempt}:{item.index}"
        result = ItemResult(item.index, crid, "created")
        key = (fleet or "", digest)
        if crid in committed:
            result.status, result.id = "duplicate_attempt", committed[crid]
        elif (why := item_error(item)) is not None:
            result.status, result.error = "error", why
        elif key in existing:
            result.status = "duplicate_content"
            result.id = result.duplicate_of = existing[key]
        else:
            result.id = memory_id(tenant, fleet, crid)
            existing[key] = result.id
            to_insert.append((item, result, digest))
        results.append(result)
    return results, to_insert


def _memory_rows(batch: list[tuple[PendingWindow, list]], now: datetime) -> pa.Table:
    columns: dict[str, list] = {name: [] for name in MEMORIES.names}
    for pending, rows in batch:
        window = pending.window
        for item, result, digest in rows:
            values = {
                "memory_id": result.id,
                "tenant_id": window.tenant_id or "",
                "fleet_id": window.fleet_id,
                "agent_id": window.agent_id,
                "node_id": window.node_id,
                "memory_type": item.memory_type,
                "content": item.content,
                "ts_valid_start": item.ts_valid_start,
                "ts_valid_end": item.ts_valid_end,
                "session_id": item.session_id,
                "attempt_id": window.attempt_id,
                "client_request_id": result.client_request_id,
                "content_hash": digest,
                "metadata": orjson.dumps(item.metadata).decode(),
                "visibility": "scope_team",
                "status": "active",
                "weight": 0.5,
                "created_at": pending.context.now or now,
                "run_id": pending.context.run_id,
                "evidence_seqs": list(item.evidence) or None,
            }
            for name, value in values.items():
                columns[name].append(value)
    return arrow_rows(MEMORIES, columns)


def _window_status(results: list[ItemResult]) -> str:
    errors = sum(r.status == "error" for r in results)
    if results and errors == len(results):
        return "failed"
    return "partial" if errors else "committed"


def _embed_missing_vectors(embedder, written: list[tuple[PendingWindow, list]]) -> None:
    """Vectors for the items about to be written that have none yet, in one model call."""
    todo = [(pending, item) for pending, rows in written for item, _, _ in rows
            if pending.vectors is None or item.index not in pending.vectors.by_index]
    if not todo:
        return
    matrix = embedder.embed([item.content for _, item in todo])
    for (pending, item), row in zip(todo, matrix):
        if pending.vectors is None:
            pending.vectors = ItemVectors(embedder.model, {})
        pending.vectors.by_index[item.index] = row


def commit_windows(
    con: duckdb.DuckDBPyConnection, batch: list[PendingWindow], *, embedder=None, crash_hook=None
) -> list[WindowResult]:
    """Group commit: the windows of `batch` (one tenant, each node's windows in seq order) in
    ONE transaction, with a fixed number of statements whatever the batch size. Each window
    keeps its own outcome, exactly as if committed alone in this order; a crash leaves all of
    them or none. A window after a `failed` one of the same node is not written (`skipped`):
    the watermark never passes the failed window. With `embedder`, the items written (not the
    duplicates) get their embeddings in the same transaction, in one model call."""
    if not batch:
        return []
    tenants = {pending.window.tenant_id or "" for pending in batch}
    if len(tenants) != 1:
        raise ValueError(f"a commit batch holds one tenant, not {sorted(tenants)}")
    (tenant,) = tenants
    now = batch[0].context.now or datetime.now(UTC)
    attempts = [pending.window.attempt_id for pending in batch]

    def write(con) -> tuple[list[_Outcome], dict[str, int]]:
        committed = _committed_items(con, tenant, attempts)
        forgotten = forgotten_attempts(con, tenant, [pending.window for pending in batch])
        digests = [[content_hash(tenant, p.window.fleet_id, item.content) for item in p.items]
                   for p in batch]
        existing = _existing_hashes(con, tenant, sorted({d for per in digests for d in per}))
        outcomes = _classify_batch(batch, digests, committed, existing, forgotten)
        written = [(outcome.pending, outcome.rows) for outcome in outcomes if outcome.rows]
        if written:
            insert(con, MEMORIES, _memory_rows(written, now))
            _write_embeddings(con, tenant, written, embedder, now)
        _crash(crash_hook, "after_memories")
        insert(con, ATTEMPTS, _ledger_rows(con, tenant, attempts, outcomes, now))
        _crash(crash_hook, "after_ledger")
        settle_jobs(con, tenant, _job_outcomes(outcomes), batch[0].context.run_id, now)
        # An inbox job's watermark moved when the server accepted it (contract §2.10).
        advancing = [(o.pending.window, o.pending.context) for o in outcomes
                     if o.status not in ("failed", "skipped") and o.pending.job_attempts is None]
        if advancing:
            _crash(crash_hook, "before_watermark")
        return outcomes, advance_watermarks(con, tenant, advancing, now)

    outcomes, marks = write_transaction(con, write)
    _crash(crash_hook, "after_watermark")
    return [
        WindowResult(
            attempt_id=o.pending.window.attempt_id,
            status=o.status,
            watermark=marks.get(o.pending.window.attempt_id),
            memories_written=len(o.rows),
            duplicates=o.duplicates,
            errors=o.errors,
            results=o.results,
            forgotten=o.forgotten,
        )
        for o in outcomes
    ]


def _job_outcomes(outcomes: list[_Outcome]) -> list[Settled]:
    """Inbox jobs in the batch: `done` when committed; a partial or failed window goes back to
    `pending` (contract §2.10: partial is not terminal); a skipped one gets its attempt back."""
    settled = []
    for outcome in outcomes:
        attempts = outcome.pending.job_attempts
        if attempts is None:
            continue
        job = job_id(outcome.pending.window.attempt_id)
        if outcome.status == "committed":
            settled.append(Settled(job, "done", attempts, None, len(outcome.rows)))
        elif outcome.status == "skipped":
            settled.append(Settled(job, "pending", attempts - 1, "after a failed window of its node"))
        else:
            settled.append(Settled(job, "pending", attempts,
                                   f"{outcome.status}: {outcome.errors} item errors",
                                   len(outcome.rows)))
    return settled


def _crash(hook, point: str) -> None:
    if hook is not None:
        hook(point)


@dataclass
class _Outcome:
    pending: PendingWindow
    results: list[ItemResult]
    rows: list  # (item, result, content hash) to insert
    status: str
    forgotten: int = 0

    @property
    def duplicates(self) -> int:
        return sum(r.status.startswith("duplicate") for r in self.results)

    @property
    def errors(self) -> int:
        return sum(r.status == "error" for r in self.results)


def _classify_batch(batch: list[PendingWindow], digests: list[list[str]],
                    committed: dict[str, dict[str, str]],
                    existing: dict[tuple[str, str], str], forgotten: set[str]) -> list[_Outcome]:
    """Each window's outcome in batch order; a window after a `failed` one of its node is
    `skipped`, so the watermark never passes the failed window. A window over forgotten events
    commits without its items."""
    outcomes: list[_Outcome] = []
    stopped: set[str] = set()
    for pending, window_digests in zip(batch, digests):
        window = pending.window
        if window.node_id in stopped:
            outcomes.append(_Outcome(pending, [], [], "skipped"))
            continue
        if window.attempt_id in forgotten:
            outcomes.append(_Outcome(pending, [], [], "committed", forgotten=len(pending.items)))
            continue
        results, to_insert = _classify(window, pending.items, window_digests,
                                       committed.get(window.attempt_id, {}), existing)
        status = _window_status(results)
        if status == "failed":
            stopped.add(window.node_id)
        outcomes.append(_Outcome(pending, results, to_insert, status))
    return outcomes


def _write_embeddings(con, tenant: str, written: list[tuple[PendingWindow, list]], embedder,
                      now: datetime) -> None:
    """The written items' embeddings (computed now for those that have none, when an embedder
    is given), one insert per embedding model."""
    if embedder is not None:
        _embed_missing_vectors(embedder, written)
    by_model: dict[str, list] = {}
    for pending, rows in written:
        if pending.vectors is None:
            continue
        for item, result, _ in rows:
            if item.index in pending.vectors.by_index:
                by_model.setdefault(pending.vectors.model, []).append(
                    (result.id, pending.vectors.by_index[item.index]))
    for model, pairs in by_model.items():
        ids, vecs = zip(*pairs)
        insert_embeddings(con, embedding_rows(ids, [tenant] * len(ids), model, vecs, now))


def _ledger_rows(con, tenant: str, attempts: list[str], outcomes: list[_Outcome],
                 now: datetime) -> list[dict]:
    """One ledger row per attempt not yet in the ledger (a failed attempt may be retried)."""
    ledgered = {row[0] for row in con.execute(
        "SELECT DISTINCT attempt_id FROM attempts WHERE tenant_id = ? AND status <> 'failed' "
        "AND attempt_id IN " + IN_JOINED, [tenant, joined(attempts)]).fetchall()}
    rows = []
    for outcome in outcomes:
        w, c = outcome.pending.window, outcome.pending.context
        if outcome.status == "skipped" or w.attempt_id in ledgered:
            continue
        ledgered.add(w.attempt_id)
        rows.append({
            "attempt_id": w.attempt_id, "tenant_id": tenant, "fleet_id": w.fleet_id,
            "node_id": w.node_id, "agent_id": w.agent_id, "command_id": w.command_id,
            "cursor_from": w.cursor_from, "cursor_to": w.cursor_to, "events": len(w.events),
            "status": outcome.status, "items": len(outcome.pending.items),
            "memories_written": len(outcome.rows),
            "duplicates": outcome.duplicates, "errors": outcome.errors,
            "timestamps_dropped": c.timestamps_dropped, "backend": c.backend,
            "model": c.model, "prompt_version": c.prompt_version, "run_id": c.run_id,
            "committed_at": c.now or now,
        })
    return rows


def committed_attempts(con: duckdb.DuckDBPyConnection, tenant_id: str) -> set[str]:
    rows = con.execute(
        "SELECT DISTINCT attempt_id FROM attempts WHERE tenant_id = ? AND status <> 'failed'",
        [tenant_id],
    ).fetchall()
    return {row[0] for row in rows}


def replay_committed(con: duckdb.DuckDBPyConnection, window: Window, run_id: str) -> WindowResult:
    """A window whose attempt is already committed: every stored item is a `duplicate_attempt`,
    no model is asked again, and the watermark only moves forward (it is already there)."""
    tenant = window.tenant_id or ""
    stored = con.execute(
        "SELECT client_request_id, memory_id FROM memories WHERE tenant_id = ? AND attempt_id = ? "
        "ORDER BY client_request_id",
        [tenant, window.attempt_id],
    ).fetchall()
    results = [
        ItemResult(int(crid.rsplit(":", 1)[1]), crid, "duplicate_attempt", memory)
        for crid, memory in stored
    ]
    # Items the first attempt resolved as content duplicates are duplicates again.
    items, errors = con.execute(
        "SELECT max(items), max(errors) FROM attempts WHERE tenant_id = ? AND attempt_id = ?",
        [tenant, window.attempt_id],
    ).fetchone()
    duplicates = max(len(results), (items or 0) - (errors or 0))
    watermark = write_transaction(con, lambda con: advance_watermark(
        con, tenant_id=tenant, node_id=window.node_id, agent_id=window.agent_id,
        cursor_to=window.cursor_to, command_id=window.command_id, run_id=run_id))
    return WindowResult(window.attempt_id, "committed", watermark, duplicates=duplicates,
                        results=results)
