"""The data team's query path: SQL over the lake, results as columns and rows."""

from __future__ import annotations

import duckdb

from ingest.errors import LakeError


def run_query(con: duckdb.DuckDBPyConnection, query: str) -> tuple[list[str], list[tuple]]:
    try:
        cursor = con.execute(query)
    except duckdb.Error as error:
        raise LakeError(f"query failed: {error}") from None
    if cursor.description is None:
        return [], []
    return [column[0] for column in cursor.description], cursor.fetchall()
