"""The data team's query path: exactly one read statement over a read-only lake, in a sandbox.

`interview sql` (and every reader that takes SQL from a person or an agent) goes through here:
- the text is parsed by DuckDB's own parser (`extract_statements`): exactly one statement, and only
  a read (`SELECT`, `EXPLAIN`); `DELETE`, `COPY`, `ATTACH`, `DETACH`, `USE`, `SET`, `INSTALL`,
  `CALL`, `PRAGMA`, … are refused before anything runs;
- the connection reads no file outside the lake folder and writes none anywhere
  (`allowed_directories` = the lake, `enable_external_access = false`), and its configuration is
  locked (`lock_configuration`), so a query cannot switch the sandbox off. `allow_files` keeps
  file access for an analyst who wants `read_csv` of their own files; the one-read rule stays.
"""

from __future__ import annotations

import duckdb

from ingest.errors import LakeError

READ_STATEMENTS = frozenset({duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN})


def check_read_only(query: str) -> str:
    """The one read statement in `query`, or a `LakeError` saying why it is refused."""
    try:
        statements = duckdb.extract_statements(query)
    except duckdb.Error as error:
        raise LakeError(f"query failed: {error}") from None
    if len(statements) != 1:
        raise LakeError(f"refused: {len(statements)} statements; `interview sql` runs exactly one "
                        "read statement (SELECT, WITH … SELECT, EXPLAIN)")
    (statement,) = statements
    if statement.type not in READ_STATEMENTS:
        kind = statement.type.name.replace("_STATEMENT", "")
        raise LakeError(f"refused: a {kind} statement; the lake is read-only here and "
                        "`interview sql` runs one read statement (SELECT, WITH … SELECT, EXPLAIN)")
    return statement.query


def sandbox(con: duckdb.DuckDBPyConnection, readable: list[str], *, allow_files: bool = False) -> None:
    """No file access outside the lake's `readable` folders (or bucket prefix), and a
    configuration no query can change."""
    if not allow_files:
        folders = ", ".join("'" + folder.replace("'", "''") + "'" for folder in readable)
        con.execute(f"SET allowed_directories = [{folders}]")
        con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


def run_query(con: duckdb.DuckDBPyConnection, query: str) -> tuple[list[str], list[tuple]]:
    statement = check_read_only(query)
    try:
        cursor = con.execute(statement)
    except duckdb.Error as error:
        message = str(error)
        if isinstance(error, duckdb.PermissionException):
            message += " (files outside the lake are off; `interview sql --allow-files` to read your own)"
        raise LakeError(f"query failed: {message}") from None
    if cursor.description is None:
        return [], []
    return [column[0] for column in cursor.description], cursor.fetchall()
