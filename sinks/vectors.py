"""Memory embeddings in the lake: one row per (memory, embedding model) in `memory_embeddings`.

New memories get theirs in the same transaction as the memory (`sinks.commit`); `embed_missing`
backfills memories written without one (embeddings were off, or another model is now in use).
Each backfill batch is one transaction, and a batch only takes memories that still have no row
for the model, so a crash or a second run never embeds a memory twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import duckdb
import pyarrow as pa

from sinks.lake import write_transaction
from sinks.tables import MEMORY_EMBEDDINGS, arrow_rows, insert


def embedding_rows(memory_ids: Sequence[str], tenant_ids: Sequence[str], model: str, vectors,
                   now: datetime) -> pa.Table:
    count = len(memory_ids)
    return arrow_rows(MEMORY_EMBEDDINGS, {
        "memory_id": list(memory_ids),
        "tenant_id": list(tenant_ids),
        "model": [model] * count,
        "embedding": [[float(x) for x in vector] for vector in vectors],
        "embedded_at": [now] * count,
    })


def insert_embeddings(con: duckdb.DuckDBPyConnection, table: pa.Table) -> None:
    """Append `embedding_rows` inside the caller's transaction."""
    insert(con, MEMORY_EMBEDDINGS, table)


_MISSING = """
    SELECT m.memory_id, m.tenant_id, m.content FROM memories m
    WHERE (? IS NULL OR m.tenant_id = ?) AND NOT EXISTS (
        SELECT 1 FROM memory_embeddings e WHERE e.memory_id = m.memory_id AND e.model = ?)
"""


def count_missing(con: duckdb.DuckDBPyConnection, model: str, tenant_id: str | None = None) -> int:
    return con.execute(f"SELECT count(*) FROM ({_MISSING})", [tenant_id, tenant_id, model]).fetchone()[0]


@dataclass
class EmbedResult:
    embedded: int = 0
    batches: int = 0
    remaining: int = 0


def embed_missing(
    con: duckdb.DuckDBPyConnection,
    embedder,
    *,
    tenant_id: str | None = None,
    batch_size: int = 256,
    limit: int | None = None,
    on_batch: Callable[[int], None] | None = None,
    crash_hook: Callable[[str], None] | None = None,
) -> EmbedResult:
    """Embed memories that have no row for `embedder.model`, `batch_size` per transaction."""
    result = EmbedResult()
    while limit is None or result.embedded < limit:
        take = batch_size if limit is None else min(batch_size, limit - result.embedded)
        rows = con.execute(f"{_MISSING} ORDER BY m.memory_id LIMIT {int(take)}",
                           [tenant_id, tenant_id, embedder.model]).fetchall()
        if not rows:
            break
        ids, tenants, texts = zip(*rows)
        vectors = embedder.embed(list(texts))
        def write(con, ids=ids, tenants=tenants, vectors=vectors) -> None:
            insert_embeddings(con, embedding_rows(ids, tenants, embedder.model, vectors,
                                                  datetime.now(UTC)))
            if crash_hook:
                crash_hook("mid_embed")

        write_transaction(con, write)
        result.embedded += len(rows)
        result.batches += 1
        if on_batch:
            on_batch(len(rows))
    result.remaining = count_missing(con, embedder.model, tenant_id)
    return result
