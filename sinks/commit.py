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
from sinks.items import MemoryItem, content_hash, item_error, memory_id
from sinks.lake import transaction
from sinks.vectors import embedding_rows, insert_embeddings
from sinks.watermarks import advance_watermark

_MEMORY_SCHEMA = pa.schema(
    [
        ("memory_id", pa.string()),
        ("tenant_id", pa.string()),
        ("fleet_id", pa.string()),
        ("agent_id", pa.string()),
        ("node_id", pa.string()),
        ("memory_type", pa.string()),
        ("content", pa.string()),
        ("ts_valid_start", pa.timestamp("us", tz="UTC")),
        ("ts_valid_end", pa.timestamp("us", tz="UTC")),
        ("session_id", pa.string()),
        ("attempt_id", pa.string()),
        ("client_request_id", pa.string()),
        ("content_hash", pa.string()),
        ("metadata", pa.string()),
        ("visibility", pa.string()),
        ("status", pa.string()),
        ("weight", pa.float64()),
        ("created_at", pa.timestamp("us", tz="UTC")),
        ("run_id", pa.string()),
    ]
)


@dataclass(frozen=True)
class ItemVectors:
    """Embeddings of a window's items, computed before the transaction: item index → vector."""

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


def _classify(
    con: duckdb.DuckDBPyConnection, window: Window, items: list[MemoryItem]
) -> tuple[list[ItemResult], list[tuple[MemoryItem, ItemResult, str]]]:
    tenant, fleet, attempt = window.tenant_id or "", window.fleet_id, window.attempt_id
    committed = dict(
        con.execute(
            "SELECT client_request_id, memory_id FROM memories WHERE tenant_id = ? AND "
            "attempt_id = ?",
            [tenant, attempt],
        ).fetchall()
    )
    hashes = {item.index: content_hash(tenant, fleet, item.content) for item in items}
    existing = dict(
        con.execute(
            "SELECT content_hash, any_value(memory_id) FROM memories WHERE tenant_id = ? AND "
            "coalesce(fleet_id, '') = ? AND content_hash IN (SELECT unnest(?)) GROUP BY 1",
            [tenant, fleet or "", list(hashes.values())],
        ).fetchall()
    )
    results: list[ItemResult] = []
    to_insert: list[tuple[MemoryItem, ItemResult, str]] = []
    for item in items:
        crid = f"{attempt}:{item.index}"
        result = ItemResult(item.index, crid, "created")
        if crid in committed:
            result.status, result.id = "duplicate_attempt", committed[crid]
        elif (why := item_error(item)) is not None:
            result.status, result.error = "error", why
        elif hashes[item.index] in existing:
            result.status = "duplicate_content"
            result.id = result.duplicate_of = existing[hashes[item.index]]
        else:
            result.id = memory_id(tenant, fleet, crid)
            existing[hashes[item.index]] = result.id
            to_insert.append((item, result, hashes[item.index]))
        results.append(result)
    return results, to_insert


def _memory_rows(window: Window, rows, run_id: str, now: datetime) -> pa.Table:
    columns: dict[str, list] = {name: [] for name in _MEMORY_SCHEMA.names}
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
            "created_at": now,
            "run_id": run_id,
        }
        for name, value in values.items():
            columns[name].append(value)
    return pa.table(columns, schema=_MEMORY_SCHEMA)


def commit_window(
    con: duckdb.DuckDBPyConnection,
    window: Window,
    items: list[MemoryItem],
    context: CommitContext,
    *,
    vectors: ItemVectors | None = None,
    crash_hook=None,
) -> WindowResult:
    """Write one window's memories (with their embeddings, when given), ledger row and watermark
    in a single transaction."""
    now = context.now or datetime.now(UTC)
    tenant = window.tenant_id or ""
    with transaction(con):
        results, to_insert = _classify(con, window, items)
        if to_insert:
            staged = _memory_rows(window, to_insert, context.run_id, now)
            con.register("staged_memories", staged)
            try:
                con.execute("INSERT INTO memories SELECT * FROM staged_memories")
            finally:
                con.unregister("staged_memories")
            embedded = [(r.id, vectors.by_index[i.index]) for i, r, _ in to_insert
                        if vectors is not None and i.index in vectors.by_index]
            if embedded:
                ids, vecs = zip(*embedded)
                insert_embeddings(con, embedding_rows(list(ids), [tenant] * len(ids),
                                                      vectors.model, vecs, now))
        if crash_hook:
            crash_hook("after_memories")
        written = len(to_insert)
        duplicates = sum(r.status.startswith("duplicate") for r in results)
        errors = sum(r.status == "error" for r in results)
        if results and errors == len(results):
            status = "failed"
        elif errors:
            status = "partial"
        else:
            status = "committed"
        already = con.execute(
            "SELECT count(*) FROM attempts WHERE tenant_id = ? AND attempt_id = ? AND "
            "status <> 'failed'",
            [tenant, window.attempt_id],
        ).fetchone()[0]
        if not already:
            con.execute(
                "INSERT INTO attempts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                "?, ?, ?)",
                [
                    window.attempt_id, tenant, window.fleet_id, window.node_id, window.agent_id,
                    window.command_id, window.cursor_from, window.cursor_to, len(window.events),
                    status, len(items), written, duplicates, errors, context.timestamps_dropped,
                    context.backend, context.model, context.prompt_version, context.run_id, now,
                ],
            )
        if crash_hook:
            crash_hook("after_ledger")
        watermark = None
        if status != "failed":
            if crash_hook:
                crash_hook("before_watermark")
            watermark = advance_watermark(
                con,
                tenant_id=tenant,
                node_id=window.node_id,
                agent_id=window.agent_id,
                cursor_to=window.cursor_to,
                command_id=window.command_id,
                run_id=context.run_id,
                now=now,
            )
    if crash_hook:
        crash_hook("after_watermark")
    return WindowResult(
        attempt_id=window.attempt_id,
        status=status,
        watermark=watermark,
        memories_written=written,
        duplicates=duplicates,
        errors=errors,
        results=results,
    )


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
    with transaction(con):
        watermark = advance_watermark(
            con, tenant_id=tenant, node_id=window.node_id, agent_id=window.agent_id,
            cursor_to=window.cursor_to, command_id=window.command_id, run_id=run_id,
        )
    return WindowResult(window.attempt_id, "committed", watermark, duplicates=duplicates,
                        results=results)
