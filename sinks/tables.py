"""Every table of the lake, declared once: its columns (name and DuckDB type, in order), from which
come the `CREATE TABLE` of its migration, the Arrow schema rows are staged in, and the list of
tables that maintenance and `lake info` walk. `insert` is the one way rows get in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import duckdb
import pyarrow as pa

_ARROW = {
    "VARCHAR": pa.string(),
    "JSON": pa.string(),
    "BIGINT": pa.int64(),
    "INTEGER": pa.int32(),
    "DOUBLE": pa.float64(),
    "TIMESTAMPTZ": pa.timestamp("us", tz="UTC"),
    "FLOAT[]": pa.list_(pa.float32()),
    "BIGINT[]": pa.list_(pa.int64()),
}


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[tuple[str, str], ...]  # (column, DuckDB type), in table order

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.columns]

    @property
    def arrow_schema(self) -> pa.Schema:
        return pa.schema([(name, _ARROW[sql_type]) for name, sql_type in self.columns])

    def create_sql(self) -> str:
        body = ", ".join(f"{name} {sql_type}" for name, sql_type in self.columns)
        return f"CREATE TABLE {self.name} ({body})"


def _table(name: str, spec: str) -> Table:
    """`spec`: "column TYPE, column TYPE, ..." as it would be written in the DDL."""
    columns = []
    for part in spec.split(","):
        column, sql_type = part.split()
        columns.append((column, sql_type))
    return Table(name, tuple(columns))


MEMORIES = _table("memories", """
    memory_id VARCHAR, tenant_id VARCHAR, fleet_id VARCHAR, agent_id VARCHAR, node_id VARCHAR,
    memory_type VARCHAR, content VARCHAR, ts_valid_start TIMESTAMPTZ, ts_valid_end TIMESTAMPTZ,
    session_id VARCHAR, attempt_id VARCHAR, client_request_id VARCHAR, content_hash VARCHAR,
    metadata JSON, visibility VARCHAR, status VARCHAR, weight DOUBLE, created_at TIMESTAMPTZ,
    run_id VARCHAR, evidence_seqs BIGINT[]""")
ATTEMPTS = _table("attempts", """
    attempt_id VARCHAR, tenant_id VARCHAR, fleet_id VARCHAR, node_id VARCHAR, agent_id VARCHAR,
    command_id VARCHAR, cursor_from BIGINT, cursor_to BIGINT, events INTEGER, status VARCHAR,
    items INTEGER, memories_written INTEGER, duplicates INTEGER, errors INTEGER,
    timestamps_dropped INTEGER, backend VARCHAR, model VARCHAR, prompt_version VARCHAR,
    run_id VARCHAR, committed_at TIMESTAMPTZ""")
SERVER_RUN = "serve"  # the run id of watermarks the server moved

# Append-only: a forward move of a node's watermark adds a row, so the server and a batch run
# never update the same rows; the `watermarks` view is each node's newest row.
WATERMARK_LOG = _table("watermark_log", """
    tenant_id VARCHAR, node_id VARCHAR, doc_id VARCHAR, agent_id VARCHAR, last_seq BIGINT,
    last_interview_at TIMESTAMPTZ, last_command_id VARCHAR, run_id VARCHAR""")
NODES = _table("nodes", """
    tenant_id VARCHAR, node_id VARCHAR, source VARCHAR, path VARCHAR, project VARCHAR,
    lines BIGINT, first_seen_at TIMESTAMPTZ, last_seen_at TIMESTAMPTZ""")
PARKED = _table("parked", """
    tenant_id VARCHAR, node_id VARCHAR, attempt_id VARCHAR, cursor_from BIGINT, cursor_to BIGINT,
    attempts INTEGER, status VARCHAR, reason VARCHAR, window_body JSON,
    first_failed_at TIMESTAMPTZ, last_failed_at TIMESTAMPTZ""")
# The inbox (contract §2.10): the server appends each accepted, masked window once (the row is
# also the forward move of its node's watermark, in the `watermarks` view); the batch
# driver appends each job's state changes. Neither ever updates or deletes the other's rows.
INBOX_JOBS = _table("inbox_jobs", """
    job_id VARCHAR, tenant_id VARCHAR, fleet_id VARCHAR, node_id VARCHAR, agent_id VARCHAR,
    command_id VARCHAR, cursor_from BIGINT, cursor_to BIGINT, event_count INTEGER, events JSON,
    received_at TIMESTAMPTZ""")
INBOX_STATE = _table("inbox_state", """
    job_id VARCHAR, tenant_id VARCHAR, status VARCHAR, attempts INTEGER, reason VARCHAR,
    memories_written INTEGER, run_id VARCHAR, changed_at TIMESTAMPTZ, version BIGINT""")
# Commands for nodes that push (contract §2.11): a row per state; the newest is the command's.
COMMANDS = _table("commands", """
    command_id VARCHAR, tenant_id VARCHAR, node_id VARCHAR, command VARCHAR, payload JSON,
    status VARCHAR, changed_at TIMESTAMPTZ""")
# When a pushing node last reached the server (its command polls): the scheduler's heartbeat.
NODE_CONTACTS = _table("node_contacts", """
    tenant_id VARCHAR, node_id VARCHAR, seen_at TIMESTAMPTZ""")
RUNS = _table("runs", """
    run_id VARCHAR, kind VARCHAR, started_at TIMESTAMPTZ, finished_at TIMESTAMPTZ, status VARCHAR,
    backend VARCHAR, model VARCHAR, prompt_version VARCHAR, counts JSON, errors JSON""")
MEMORY_EMBEDDINGS = _table("memory_embeddings", """
    memory_id VARCHAR, tenant_id VARCHAR, model VARCHAR, embedding FLOAT[],
    embedded_at TIMESTAMPTZ""")

# `interview forget`: an audit row per forget (never the forgotten text), and the windows whose
# memories went, so that no later run or submit writes memories over those events again.
FORGETS = _table("forgets", """
    forget_id VARCHAR, tenant_id VARCHAR, forgotten_at TIMESTAMPTZ, selector JSON,
    memories INTEGER, windows INTEGER, purge INTEGER""")
FORGOTTEN_SPANS = _table("forgotten_spans", """
    tenant_id VARCHAR, node_id VARCHAR, cursor_from BIGINT, cursor_to BIGINT, forget_id VARCHAR""")

# Consolidation (sinks.links): append-only decisions about memories of one project. `relation`:
# duplicate (memory → its canonical), supersedes (memory → the earlier one it replaces),
# resolves (an outcome → the task it closes), distinct (no target: looked at, kept as it is).
MEMORY_LINKS = _table("memory_links", """
    link_id VARCHAR, tenant_id VARCHAR, project VARCHAR, memory_id VARCHAR, target_id VARCHAR,
    relation VARCHAR, decided_by VARCHAR, score DOUBLE, run_id VARCHAR, linked_at TIMESTAMPTZ""")

TABLES: Mapping[str, Table] = {
    table.name: table
    for table in (MEMORIES, MEMORY_EMBEDDINGS, ATTEMPTS, WATERMARK_LOG, NODES, PARKED, RUNS,
                  INBOX_JOBS, INBOX_STATE, COMMANDS, NODE_CONTACTS, FORGETS, FORGOTTEN_SPANS,
                  MEMORY_LINKS)
}

# What is true now: a memory that is not a duplicate of another, not superseded by a later one
# and not a task an outcome closed; with how often it was said (itself and its duplicates), when
# first and last, and where each duplicate was said (its node, session, time and evidence).
CURRENT_MEMORIES = (
    "SELECT m.*, coalesce(g.seen, 0) + 1 AS seen_count, "
    "least(m.ts_valid_start, g.first_seen) AS first_seen, "
    "greatest(m.ts_valid_start, g.last_seen) AS last_seen, g.duplicates "
    "FROM memories m LEFT JOIN (SELECT l.tenant_id, l.target_id, count(*) AS seen, "
    "min(d.ts_valid_start) AS first_seen, max(d.ts_valid_start) AS last_seen, "
    "list({'memory_id': d.memory_id, 'node_id': d.node_id, 'session_id': d.session_id, "
    "'ts_valid_start': d.ts_valid_start, 'evidence_seqs': d.evidence_seqs} "
    "ORDER BY d.ts_valid_start, d.memory_id) AS duplicates "
    "FROM memory_links l JOIN memories d "
    "ON d.tenant_id = l.tenant_id AND d.memory_id = l.memory_id "
    "WHERE l.relation = 'duplicate' GROUP BY l.tenant_id, l.target_id) g "
    "ON g.tenant_id = m.tenant_id AND g.target_id = m.memory_id "
    "WHERE m.status = 'active' AND NOT EXISTS (SELECT 1 FROM memory_links x "
    "WHERE x.tenant_id = m.tenant_id AND ((x.memory_id = m.memory_id AND x.relation = 'duplicate') "
    "OR (x.target_id = m.memory_id AND x.relation IN ('supersedes', 'resolves'))))")

# Views over the append-only logs: what the data team (and our own reads) query.
VIEWS: dict[str, str] = {
    "watermarks": (
        "SELECT * FROM (SELECT * FROM watermark_log UNION ALL "
        "SELECT tenant_id, node_id, 'wm_' || sha1(node_id), agent_id, cursor_to, received_at, "
        f"command_id, '{SERVER_RUN}' FROM inbox_jobs) QUALIFY row_number() OVER "
        "(PARTITION BY tenant_id, node_id ORDER BY last_seq DESC, last_interview_at DESC) = 1"),
    "inbox": (
        "SELECT j.tenant_id, j.job_id, j.node_id, j.agent_id, j.fleet_id, j.command_id, "
        "j.cursor_from, j.cursor_to, j.event_count AS events, coalesce(s.status, 'pending') AS "
        "status, coalesce(s.attempts, 0) AS attempts, j.received_at, s.changed_at AS updated_at, s.reason, "
        "s.memories_written, s.run_id "
        "FROM (SELECT * EXCLUDE (events) FROM inbox_jobs QUALIFY row_number() OVER "
        "(PARTITION BY tenant_id, job_id ORDER BY received_at) = 1) AS j "
        "LEFT JOIN (SELECT * FROM inbox_state QUALIFY row_number() OVER "
        "(PARTITION BY tenant_id, job_id ORDER BY version DESC) = 1) AS s "
        "ON s.tenant_id = j.tenant_id AND s.job_id = j.job_id"),
}
VIEWS["current_memories"] = CURRENT_MEMORIES
TABLE_NAMES: tuple[str, ...] = tuple(TABLES)


def arrow_rows(table: Table, rows: Sequence[Mapping] | Mapping[str, Sequence]) -> pa.Table:
    """Rows (dicts keyed by column) or columns (column → values) as an Arrow table of `table`."""
    schema = table.arrow_schema
    if isinstance(rows, Mapping):
        return pa.table({name: rows[name] for name in table.names}, schema=schema)
    return pa.Table.from_pylist(list(rows), schema=schema)


def insert(con: duckdb.DuckDBPyConnection, table: Table,
           rows: Sequence[Mapping] | Mapping[str, Sequence] | pa.Table) -> None:
    """Append rows in one statement, inside the caller's transaction if there is one."""
    staged = rows if isinstance(rows, pa.Table) else arrow_rows(table, rows)
    if staged.num_rows == 0:
        return
    name = f"staged_{table.name}"
    con.register(name, staged)
    try:
        con.execute(f"INSERT INTO {table.name} SELECT * FROM {name}")
    finally:
        con.unregister(name)
