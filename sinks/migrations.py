"""Schema changes as named migrations, recorded in the lake's own `migrations` table.

The tables are created from their one declaration in `sinks.tables`. A later column is added there
AND by a new migration `ALTER TABLE … ADD COLUMN IF NOT EXISTS …`, so that old lakes gain it and new
lakes (created with it already) pass over it.
"""

from __future__ import annotations

from sinks.tables import (
    ATTEMPTS,
    COMMANDS,
    FORGETS,
    FORGOTTEN_SPANS,
    INBOX_JOBS,
    INBOX_STATE,
    MEMORIES,
    MEMORY_EMBEDDINGS,
    MEMORY_LINKS,
    NODE_CONTACTS,
    NODES,
    PARKED,
    RUNS,
    VIEWS,
    WATERMARK_LOG,
)

_WATERMARKS_TABLE = WATERMARK_LOG.create_sql().replace("watermark_log", "watermarks", 1)

MIGRATIONS: tuple[tuple[str, str], ...] = (
    ("001_memories", MEMORIES.create_sql()),
    ("002_attempts", ATTEMPTS.create_sql()),
    ("003_watermarks", _WATERMARKS_TABLE),
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
    (
        # The server and a batch run both move watermarks: rows are appended, never updated, so
        # their transactions never conflict. `watermarks` is now the view of the newest marks,
        # over the log and the inbox (an accepted window moves its node's mark: contract §2.10).
        "009_inbox_and_watermark_log",
        "; ".join([
            WATERMARK_LOG.create_sql(), "INSERT INTO watermark_log SELECT * FROM watermarks",
            "DROP TABLE watermarks", INBOX_JOBS.create_sql(), INBOX_STATE.create_sql(),
            COMMANDS.create_sql(), NODE_CONTACTS.create_sql(),
            "CREATE VIEW watermarks AS " + VIEWS["watermarks"],
            "CREATE VIEW inbox AS " + VIEWS["inbox"]]) + ";",
    ),
    ("010_forgets", FORGETS.create_sql() + "; " + FORGOTTEN_SPANS.create_sql() + ";"),
    # The seqs of the events each memory rests on (join `nodes` for the file; seq = line - 1).
    ("011_memory_evidence", "ALTER TABLE memories ADD COLUMN IF NOT EXISTS evidence_seqs BIGINT[]"),
    # Consolidation: links between memories of one project, and the memories true now.
    ("012_memory_links", MEMORY_LINKS.create_sql() + "; CREATE VIEW current_memories AS "
     + VIEWS["current_memories"] + ";"),
)
