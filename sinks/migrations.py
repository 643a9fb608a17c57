"""Schema changes as named migrations, recorded in the lake's own `migrations` table.

The tables are created from their one declaration in `sinks.tables`. A later column is added there
AND by a new migration `ALTER TABLE … ADD COLUMN IF NOT EXISTS …`, so that old lakes gain it and new
lakes (created with it already) pass over it.
"""

from __future__ import annotations

from sinks.tables import ATTEMPTS, MEMORIES, MEMORY_EMBEDDINGS, NODES, PARKED, RUNS, WATERMARKS

MIGRATIONS: tuple[tuple[str, str], ...] = (
    ("001_memories", MEMORIES.create_sql()),
    ("002_attempts", ATTEMPTS.create_sql()),
    ("003_watermarks", WATERMARKS.create_sql()),
    ("004_nodes", NODES.create_sql()),
    ("005_parked", PARKED.create_sql()),
    ("006_runs", RUNS.create_sql()),
    (
        # A query for one tenant and a date range reads only that tenant's files of those days.
        "007_partition_memories",
        "ALTER TABLE memories SET PARTITIONED BY "
        "(tenant_id, year(ts_valid_start), month(ts_valid_start), day(ts_valid_start))",
    ),
    (
        # One row per memory and embedding model; a new model adds rows, never rewrites memories.
        "008_memory_embeddings",
        MEMORY_EMBEDDINGS.create_sql() + "; ALTER TABLE memory_embeddings SET PARTITIONED BY (tenant_id);",
    ),
)
