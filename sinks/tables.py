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
    run_id VARCHAR""")
ATTEMPTS = _table("attempts", """
    attempt_id VARCHAR, tenant_id VARCHAR, fleet_id VARCHAR, node_id VARCHAR, agent_id VARCHAR,
    command_id VARCHAR, cursor_from BIGINT, cursor_to BIGINT, events INTEGER, status VARCHAR,
    items INTEGER, memories_written INTEGER, duplicates INTEGER, errors INTEGER,
    timestamps_dropped INTEGER, backend VARCHAR, model VARCHAR, prompt_version VARCHAR,
    run_id VARCHAR, committed_at TIMESTAMPTZ""")
WATERMARKS = _table("watermarks", """
    tenant_id VARCHAR, node_id VARCHAR, doc_id VARCHAR, agent_id VARCHAR, last_seq BIGINT,
    last_interview_at TIMESTAMPTZ, last_command_id VARCHAR, run_id VARCHAR""")
NODES = _table("nodes", """
    tenant_id VARCHAR, node_id VARCHAR, source VARCHAR, path VARCHAR, project VARCHAR,
    lines BIGINT, first_seen_at TIMESTAMPTZ, last_seen_at TIMESTAMPTZ""")
PARKED = _table("parked", """
    tenant_id VARCHAR, node_id VARCHAR, attempt_id VARCHAR, cursor_from BIGINT, cursor_to BIGINT,
    attempts INTEGER, status VARCHAR, reason VARCHAR, window_body JSON,
    first_failed_at TIMESTAMPTZ, last_failed_at TIMESTAMPTZ""")
RUNS = _table("runs", """
    run_id VARCHAR, kind VARCHAR, started_at TIMESTAMPTZ, finished_at TIMESTAMPTZ, status VARCHAR,
    backend VARCHAR, model VARCHAR, prompt_version VARCHAR, counts JSON, errors JSON""")
MEMORY_EMBEDDINGS = _table("memory_embeddings", """
    memory_id VARCHAR, tenant_id VARCHAR, model VARCHAR, embedding FLOAT[],
    embedded_at TIMESTAMPTZ""")

TABLES: Mapping[str, Table] = {
    table.name: table
    for table in (MEMORIES, MEMORY_EMBEDDINGS, ATTEMPTS, WATERMARKS, NODES, PARKED, RUNS)
}
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
