"""Recall: hybrid search over the memories of one tenant.

Two rankings of the same candidates (the memories that pass the tenant, type and date filters):
BM25 from DuckDB's `fts` extension over the memory text, and cosine similarity
(`array_cosine_similarity`, from the `vss` extension's array functions) between the query's
embedding and the stored ones. They are fused by reciprocal rank (RRF, k = 60): a memory near the
top of either list rises, one near the top of both rises most, and neither score's scale matters.

The full-text index is built over the tenant's memories in a scratch in-memory DuckDB (an `fts`
index cannot live in the DuckLake); the filters apply in the scratch query. A `RecallIndex` keeps
it until the lake has a new snapshot, so a long-lived reader pays the build once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import duckdb
import pyarrow as pa

from sinks.lake import load_extensions
from sinks.memory_read import memories_source

RRF_K = 60
VECTOR_DEPTH = 100  # how far down the vector ranking takes part in the fusion


@dataclass(frozen=True)
class RecallFilter:
    tenant_id: str
    types: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None
    node: str | None = None  # a node id GLOB
    session: str | None = None
    history: bool = False  # every memory, not only the current ones (`current_memories`)


@dataclass
class Hit:
    memory_id: str
    memory_type: str
    content: str
    ts_valid_start: datetime | None
    node_id: str
    session_id: str | None
    score: float
    bm25_rank: int | None
    vector_rank: int | None
    cosine: float | None

    def to_json(self) -> dict:
        return {**self.__dict__, "ts_valid_start": self.ts_valid_start.isoformat()
                if self.ts_valid_start else None}


def reciprocal_rank_fusion(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> dict[str, float]:
    """Σ 1/(k + rank) over the rankings each id appears in (ranks start at 1)."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    return scores


def candidates(con: duckdb.DuckDBPyConnection, tenant_id: str, model: str,
               history: bool = False) -> pa.Table:
    """The tenant's current memories (with `history`: every active one, duplicates, superseded
    and closed ones too) with their embedding for `model` (NULL when there is none); the other
    filters apply later, in the scratch query (`_filter_sql`)."""
    source = memories_source(con, history)
    return con.execute(
        f"""
        SELECT m.memory_id, m.memory_type, m.content, m.ts_valid_start, m.node_id, m.session_id,
               e.embedding
        FROM {source} m
        LEFT JOIN (SELECT memory_id, any_value(embedding) AS embedding FROM memory_embeddings
                   WHERE tenant_id = $tenant AND model = $model GROUP BY memory_id) e
            USING (memory_id)
        WHERE m.tenant_id = $tenant AND m.status = 'active'
        """,
        {"tenant": tenant_id, "model": model},
    ).to_arrow_table()


def _filter_sql(where: RecallFilter) -> tuple[str, list]:
    """The filters of `where` (all but the tenant) over the scratch table `cand`."""
    given = [("memory_type IN (SELECT unnest(?))", list(where.types)),
             ("ts_valid_start >= ?", where.since), ("ts_valid_start < ?", where.until),
             ("node_id GLOB ?", where.node), ("session_id = ?", where.session)]
    given = [(clause, value) for clause, value in given if value]
    return " AND ".join(["TRUE", *(clause for clause, _ in given)]), [value for _, value in given]


class RecallIndex:
    """A tenant's memories, their embeddings and a full-text index, in a scratch in-memory DuckDB,
    built again only when the lake has a new snapshot: a long-lived reader (the MCP server)
    answers repeated searches without rebuilding the index every time."""

    def __init__(self, model: str) -> None:
        self.model = model
        self.key: tuple | None = None
        self.scratch: duckdb.DuckDBPyConnection | None = None

    def close(self) -> None:
        if self.scratch is not None:
            self.scratch.close()
            self.scratch, self.key = None, None

    def _ready(self, con: duckdb.DuckDBPyConnection, tenant_id: str, history: bool) -> bool:
        snapshot = con.execute("SELECT max(snapshot_id) FROM lake.snapshots()").fetchone()[0]
        if self.key == (tenant_id, snapshot, history):
            return True
        self.close()
        table = candidates(con, tenant_id, self.model, history)
        if table.num_rows == 0:
            return False
        scratch = duckdb.connect()
        load_extensions(scratch, ("fts", "vss"))
        scratch.execute("LOAD fts")
        scratch.execute("LOAD vss")
        scratch.register("given", table)
        scratch.execute("CREATE TABLE cand AS SELECT * FROM given")
        scratch.unregister("given")
        scratch.execute("PRAGMA create_fts_index('cand', 'memory_id', 'content', overwrite = 1)")
        self.scratch, self.key = scratch, (tenant_id, snapshot, history)
        return True

    def search(self, con: duckdb.DuckDBPyConnection, text: str,
               query_vector: Sequence[float] | None, where: RecallFilter, k: int = 10) -> list[Hit]:
        if not self._ready(con, where.tenant_id, where.history):
            return []
        scratch = self.scratch
        filters, params = _filter_sql(where)
        lexical = [row[0] for row in scratch.execute(
            "SELECT memory_id FROM (SELECT memory_id, fts_main_cand.match_bm25(memory_id, ?) AS s "
            f"FROM cand WHERE {filters}) WHERE s IS NOT NULL ORDER BY s DESC, memory_id",
            [text, *params]).fetchall()]
        cosine: dict[str, float] = {}
        semantic: list[str] = []
        if query_vector is not None:
            dims = len(query_vector)
            rows = scratch.execute(
                f"SELECT memory_id, array_cosine_similarity(embedding::FLOAT[{dims}], "
                f"?::FLOAT[{dims}]) AS c FROM cand WHERE len(embedding) = {dims} AND {filters} "
                f"ORDER BY c DESC, memory_id LIMIT {VECTOR_DEPTH}",
                [list(map(float, query_vector)), *params],
            ).fetchall()
            semantic = [row[0] for row in rows]
            cosine = dict(rows)
        fused = reciprocal_rank_fusion([lexical, semantic])
        best = sorted(fused, key=lambda key: (-fused[key], key))[:k]
        if not best:
            return []
        lexical_rank = {key: rank for rank, key in enumerate(lexical, start=1)}
        semantic_rank = {key: rank for rank, key in enumerate(semantic, start=1)}
        rows = {row[0]: row for row in scratch.execute(
            "SELECT memory_id, memory_type, content, ts_valid_start, node_id, session_id FROM cand "
            "WHERE memory_id IN (SELECT unnest(?))", [best]).fetchall()}
        fields = ("memory_id", "memory_type", "content", "ts_valid_start", "node_id", "session_id")
        return [
            Hit(**dict(zip(fields, rows[key])), score=round(fused[key], 6),
                bm25_rank=lexical_rank.get(key), vector_rank=semantic_rank.get(key),
                cosine=cosine.get(key))
            for key in best
        ]


def search(
    con: duckdb.DuckDBPyConnection,
    text: str,
    query_vector: Sequence[float] | None,
    where: RecallFilter,
    *,
    model: str,
    k: int = 10,
    index: RecallIndex | None = None,
) -> list[Hit]:
    """The top `k` memories for `text`, best first; `index` keeps the scratch index between
    calls (rebuilt when the lake changes), without it one is built for this call."""
    if index is not None:
        return index.search(con, text, query_vector, where, k)
    once = RecallIndex(model)
    try:
        return once.search(con, text, query_vector, where, k)
    finally:
        once.close()
