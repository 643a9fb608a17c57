"""Schema changes as named migrations, recorded in the lake's own `migrations` table."""

from __future__ import annotations

MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "001_memories",
        """
        CREATE TABLE memories (
            memory_id VARCHAR, tenant_id VARCHAR, fleet_id VARCHAR, agent_id VARCHAR,
            node_id VARCHAR, memory_type VARCHAR, content VARCHAR,
            ts_valid_start TIMESTAMPTZ, ts_valid_end TIMESTAMPTZ, session_id VARCHAR,
            attempt_id VARCHAR, client_request_id VARCHAR, content_hash VARCHAR,
            metadata JSON, visibility VARCHAR, status VARCHAR, weight DOUBLE,
            created_at TIMESTAMPTZ, run_id VARCHAR
        )
        """,
    ),
    (
        "002_attempts",
        """
        CREATE TABLE attempts (
            attempt_id VARCHAR, tenant_id VARCHAR, fleet_id VARCHAR, node_id VARCHAR,
            agent_id VARCHAR, command_id VARCHAR, cursor_from BIGINT, cursor_to BIGINT,
            events INTEGER, status VARCHAR, items INTEGER, memories_written INTEGER,
            duplicates INTEGER, errors INTEGER, timestamps_dropped INTEGER, backend VARCHAR,
            model VARCHAR, prompt_version VARCHAR, run_id VARCHAR, committed_at TIMESTAMPTZ
        )
        """,
    ),
    (
        "003_watermarks",
        """
        CREATE TABLE watermarks (
            tenant_id VARCHAR, node_id VARCHAR, doc_id VARCHAR, agent_id VARCHAR,
            last_seq BIGINT, last_interview_at TIMESTAMPTZ, last_command_id VARCHAR,
            run_id VARCHAR
        )
        """,
    ),
    (
        "004_nodes",
        """
        CREATE TABLE nodes (
            tenant_id VARCHAR, node_id VARCHAR, source VARCHAR, path VARCHAR, project VARCHAR,
            lines BIGINT, first_seen_at TIMESTAMPTZ, last_seen_at TIMESTAMPTZ
        )
        """,
    ),
    (
        "005_parked",
        """
        CREATE TABLE parked (
            tenant_id VARCHAR, node_id VARCHAR, attempt_id VARCHAR, cursor_from BIGINT,
            cursor_to BIGINT, attempts INTEGER, status VARCHAR, reason VARCHAR,
            window_body JSON, first_failed_at TIMESTAMPTZ, last_failed_at TIMESTAMPTZ
        )
        """,
    ),
    (
        "006_runs",
        """
        CREATE TABLE runs (
            run_id VARCHAR, kind VARCHAR, started_at TIMESTAMPTZ, finished_at TIMESTAMPTZ,
            status VARCHAR, backend VARCHAR, model VARCHAR, prompt_version VARCHAR,
            counts JSON, errors JSON
        )
        """,
    ),
    (
        # A query for one tenant and a date range reads only that tenant's files of those days.
        "007_partition_memories",
        "ALTER TABLE memories SET PARTITIONED BY "
        "(tenant_id, year(ts_valid_start), month(ts_valid_start), day(ts_valid_start))",
    ),
    (
        # One row per memory and embedding model; a new model adds rows, never rewrites memories.
        "008_memory_embeddings",
        """
        CREATE TABLE memory_embeddings (
            memory_id VARCHAR, tenant_id VARCHAR, model VARCHAR, embedding FLOAT[],
            embedded_at TIMESTAMPTZ
        );
        ALTER TABLE memory_embeddings SET PARTITIONED BY (tenant_id);
        """,
    ),
)
