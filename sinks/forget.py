"""Forgetting: memories removed on request, an audit row kept, and their windows never written
again. `purge_lake` then makes the forgotten text unrecoverable from the lake folder.

A forget is one transaction: the memories and their embeddings go, a `forgets` row records when,
what selector and how many (never the text), and `forgotten_spans` records each window whose
memories went. A later commit of a window that overlaps a forgotten span (a rerun cut its windows
differently, a replay, a push of the same events) writes none of its items.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import asdict, dataclass
from datetime import UTC, datetime

import duckdb
import orjson

from ingest.errors import UsageError
from ingest.windows import Window
from sinks.lake import IN_JOINED, joined, records, write_transaction
from sinks.links import duplicates_of, unlink
from sinks.maintenance import delete_orphaned_files
from sinks.memory_read import check_memory_ids
from sinks.tables import FORGETS, FORGOTTEN_SPANS, insert

PREVIEW_ROWS = 50


@dataclass(frozen=True)
class Selector:
    """Which memories of one tenant to forget; every given field must match (AND)."""

    ids: tuple[str, ...] = ()
    node_glob: str | None = None
    session_id: str | None = None
    before: datetime | None = None  # memories whose events started before this instant
    match: str | None = None  # a case-insensitive substring of the content

    def check(self) -> None:
        if not (self.ids or self.node_glob or self.session_id or self.before or self.match):
            raise UsageError("say what to forget: --id, --node, --session, --before or --match "
                             "(forgetting every memory takes an explicit --node '*')")
        if self.match is not None and not self.match.strip():
            raise UsageError("--match is empty: give the text whose memories should go")
        check_memory_ids(self.ids)

    def where(self, tenant_id: str) -> tuple[str, list]:
        clauses, params = ["tenant_id = ?"], [tenant_id]
        if self.ids:
            clauses.append("memory_id IN " + IN_JOINED)
            params.append(joined(self.ids))
        if self.node_glob:
            clauses.append("node_id GLOB ?")
            params.append(self.node_glob)
        if self.session_id:
            clauses.append("session_id = ?")
            params.append(self.session_id)
        if self.before:
            clauses.append("ts_valid_start < ?")
            params.append(self.before)
        if self.match:
            clauses.append("contains(lower(content), lower(?))")
            params.append(self.match)
        return " AND ".join(clauses), params

    def to_json(self) -> dict:
        """For the audit row: the text of `match` is what is being forgotten, so only its hash."""
        values = asdict(self)
        values["ids"] = list(self.ids)
        values["before"] = self.before.isoformat() if self.before else None
        match = values.pop("match")
        if match is not None:
            values["match_sha256"] = hashlib.sha256(match.encode()).hexdigest()
        return {key: value for key, value in values.items() if value not in (None, [])}


@dataclass
class ForgetResult:
    forget_id: str | None
    memories: int
    windows: int
    preview: list[dict]  # the first memories selected (id, node, session, type, start, content)
    done: bool  # False: a dry run


def select_memories(con: duckdb.DuckDBPyConnection, tenant_id: str, selector: Selector) -> list[dict]:
    """The memories `selector` picks, and the duplicates a picked canonical memory stands for
    (consolidation linked them to it: forgetting it forgets what it says, wherever it was said)."""
    selector.check()
    where, params = selector.where(tenant_id)
    columns = "memory_id, node_id, session_id, memory_type, ts_valid_start, content, attempt_id"
    rows = records(con.execute(f"SELECT {columns} FROM memories WHERE {where}", params))
    more = sorted(set(duplicates_of(con, tenant_id, [row["memory_id"] for row in rows]))
                  - {row["memory_id"] for row in rows})
    if more:
        rows += records(con.execute(f"SELECT {columns} FROM memories WHERE tenant_id = ? AND "
                                    "memory_id IN " + IN_JOINED, [tenant_id, joined(more)]))
    return sorted(rows, key=lambda row: (row["ts_valid_start"] is None, row["ts_valid_start"],
                                         row["memory_id"]))


def preview_forget(con: duckdb.DuckDBPyConnection, tenant_id: str,
                   selector: Selector) -> ForgetResult:
    """What `forget_memories` would remove; writes nothing."""
    rows = select_memories(con, tenant_id, selector)
    windows = len({row["attempt_id"] for row in rows})
    return ForgetResult(None, len(rows), windows, [_public(row) for row in rows[:PREVIEW_ROWS]],
                        done=False)


def forget_memories(con: duckdb.DuckDBPyConnection, tenant_id: str, selector: Selector, *,
                    purge: bool = False, now: datetime | None = None) -> ForgetResult:
    """Remove the selected memories and their embeddings, and record the forget, in ONE
    transaction (retried whole on a lost commit race)."""
    forget_id = "fgt_" + uuid.uuid4().hex[:16]
    now = now or datetime.now(UTC)

    def write(con) -> ForgetResult:
        rows = select_memories(con, tenant_id, selector)
        ids = [row["memory_id"] for row in rows]
        spans = _window_spans(con, tenant_id, sorted({row["attempt_id"] for row in rows}))
        if ids:
            con.execute("DELETE FROM memory_embeddings WHERE tenant_id = ? AND memory_id IN "
                        + IN_JOINED, [tenant_id, joined(ids)])
            con.execute("DELETE FROM memories WHERE tenant_id = ? AND memory_id IN " + IN_JOINED,
                        [tenant_id, joined(ids)])
            unlink(con, tenant_id, ids)
        if spans:
            insert(con, FORGOTTEN_SPANS, [
                {"tenant_id": tenant_id, "node_id": node, "cursor_from": start, "cursor_to": end,
                 "forget_id": forget_id} for node, start, end in spans])
        insert(con, FORGETS, [{
            "forget_id": forget_id, "tenant_id": tenant_id, "forgotten_at": now,
            "selector": orjson.dumps(selector.to_json()).decode(), "memories": len(ids),
            "windows": len(spans), "purge": int(purge)}])
        return ForgetResult(forget_id, len(ids), len(spans),
                            [_public(row) for row in rows[:PREVIEW_ROWS]], done=True)

    return write_transaction(con, write)


def _window_spans(con, tenant_id: str, attempt_ids: list[str]) -> list[tuple[str, int, int]]:
    if not attempt_ids:
        return []
    rows = con.execute(
        "SELECT DISTINCT node_id, cursor_from, cursor_to FROM attempts WHERE tenant_id = ? AND "
        "attempt_id IN " + IN_JOINED + " ORDER BY 1, 2", [tenant_id, joined(attempt_ids)]).fetchall()
    return [(node, start, end) for node, start, end in rows]


def _public(row: dict) -> dict:
    return {key: value for key, value in row.items() if key != "attempt_id"}


def forgotten_attempts(con: duckdb.DuckDBPyConnection, tenant_id: str,
                       windows: list[Window]) -> set[str]:
    """Attempt ids of `windows` whose events overlap a forgotten window of their node."""
    nodes = sorted({window.node_id for window in windows})
    if not nodes:
        return set()
    spans: dict[str, list[tuple[int, int]]] = {}
    for node, start, end in con.execute(
            "SELECT node_id, cursor_from, cursor_to FROM forgotten_spans WHERE tenant_id = ? "
            "AND node_id IN " + IN_JOINED, [tenant_id, joined(nodes)]).fetchall():
        spans.setdefault(node, []).append((start, end))
    return {window.attempt_id for window in windows
            if any(start <= window.cursor_to and window.cursor_from <= end
                   for start, end in spans.get(window.node_id, ()))}


@dataclass
class PurgeResult:
    files_rewritten: int
    snapshots_expired: int
    files_deleted: int
    catalog_vacuumed: bool
    orphans_deleted: int = 0


def purge_lake(lake, grace_seconds: float = 120.0) -> PurgeResult:
    """Make deleted rows unrecoverable: rows inlined in the catalog go to Parquet, files holding
    deleted rows are rewritten without them, every snapshot but the newest is expired (time travel
    is gone), unreferenced files are deleted, and the SQLite catalog is vacuumed so that its free
    pages keep no old row; the orphans a failed write left go too, once older than `grace_seconds`
(`sinks.maintenance.delete_orphaned_files`). Takes the lake's writer lock (a `Lake(writer=True)`)."""
    con = lake.con
    con.execute("CALL ducklake_flush_inlined_data('lake')").fetchall()
    rewritten = 0
    for table in ("memories", "memory_embeddings"):
        rewritten += sum(row[2] for row in con.execute(
            f"CALL ducklake_rewrite_data_files('lake', '{table}', delete_threshold => 0.0)"
        ).fetchall())
    expired = con.execute("CALL ducklake_expire_snapshots('lake', older_than => now())").fetchall()
    deleted = con.execute("CALL ducklake_cleanup_old_files('lake', cleanup_all => true)").fetchall()
    orphans = delete_orphaned_files(con, grace_seconds)  # a failed write's files hold text too
    vacuumed = lake.vacuum_catalog()
    return PurgeResult(rewritten, len(expired), len(deleted), vacuumed, orphans)
