"""The data team's query path: exactly one read statement over a read-only lake, in a sandbox.

`interview sql` (and every reader that takes SQL from a person or an agent) goes through here:
- the text is parsed by DuckDB's own parser (`extract_statements`): exactly one statement, and only
  a read (`SELECT`, or `EXPLAIN` of a `SELECT`: `EXPLAIN ANALYZE` runs what it explains);
  `DELETE`, `COPY`, `ATTACH`, `DETACH`, `USE`, `SET`, `INSTALL`, `CALL`, `PRAGMA`, … are refused
  before anything runs, and so is a SELECT that calls a table function that writes (DuckLake's
  maintenance: `ducklake_flush_inlined_data`, `lake.set_option`, …) or runs SQL text the parser
  never saw (`query`, `sqlite_query`, `postgres_execute`, …);
- the connection reads no file outside the lake's data folder but the catalog it has attached
  (DuckDB allows that one itself): not the server's key beside them, nor the lock files; and it
  writes none anywhere (`allowed_directories` = the data path, `enable_external_access = false`);
  DuckDB spills to a private, empty temp folder (its default, `<cwd>/.tmp/`, would be an allowed
  directory), within a memory limit and a cap on that folder; its configuration is locked
  (`lock_configuration`), so a query cannot switch the sandbox off. `allow_files` keeps file
  access for an analyst who wants `read_csv` of their own files; the one-read rule stays;
- `run_query` stops a statement after `timeout` seconds (DuckDB has none: a timer interrupts the
  connection) and fetches at most `max_rows` rows (+1, to tell that more were left out), so a huge
  result streams only what is printed.
"""

from __future__ import annotations

import contextlib
import json
import threading
from typing import NamedTuple

import duckdb

from ingest.errors import LakeError

READ_STATEMENTS = frozenset({duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN})
ONE_READ = "`interview sql` runs exactly one read statement (SELECT, WITH … SELECT, EXPLAIN SELECT)"
DEFAULT_MAX_ROWS = 1000
DEFAULT_TIMEOUT = 120.0  # seconds
DEFAULT_MEMORY_LIMIT = "2GB"
TEMP_LIMIT = "4GB"  # what a query may spill to its private temp folder

# DuckLake's table functions that write, by their bare name: `ducklake_<name>('lake')` and
# `lake.<name>()` are the same function. On a read-only lake some still write Parquet files
# before failing (flush_inlined_data), delete files (cleanup_old_files) or crash (set_option).
DUCKLAKE_WRITES = frozenset({
    "add_data_files", "cleanup_old_files", "commit", "delete_orphaned_files", "expire_snapshots",
    "flush_inlined_data", "merge_adjacent_files", "rewrite_data_files", "set_commit_message",
    "set_option"})
# Table functions that run SQL text (which the one-read rule never saw), attach a database, or
# change the engine's state.
UNCHECKED_SQL = frozenset({
    "query", "json_execute_serialized_sql", "sqlite_attach", "sqlite_query", "postgres_attach",
    "postgres_execute", "postgres_query", "postgres_configure_pool", "checkpoint",
    "force_checkpoint", "enable_logging", "disable_logging", "truncate_duckdb_logs",
    "enable_profiling", "disable_profiling"})


class QueryResult(NamedTuple):
    columns: list[str]
    rows: list[tuple]
    more: bool = False  # rows beyond `max_rows` were left out


def _parse(query: str) -> list:
    try:
        return duckdb.extract_statements(query)
    except duckdb.Error as error:
        raise LakeError(f"query failed: {error}") from None


def _kind(statement) -> str:
    return statement.type.name.replace("_STATEMENT", "")


def _refuse_many(statements: list) -> LakeError:
    *made, last = statements
    if made and last.type == duckdb.StatementType.SELECT and all(
            s.type == duckdb.StatementType.CREATE and not s.query.strip() for s in made):
        # The parser's own expansion: a PIVOT without IN creates an enum type of the values first.
        return LakeError(
            f"refused: this PIVOT has no IN list, so DuckDB's parser makes it {len(statements)} "
            "statements: a CREATE TYPE of the values found (a write, and the lake is read-only "
            "here), then the SELECT; name the values and it is one read: PIVOT memories ON "
            "memory_type IN ('decision', 'task') USING count(*)")
    return LakeError(f"refused: {len(statements)} statements; {ONE_READ}")


def _words(text: str) -> tuple[list[str], list[int]]:
    """DuckDB's tokens of `text` (lower case, up to a space: a comment is not a token) and
    where each starts."""
    bounds = [start for start, _ in duckdb.tokenize(text)] + [len(text)]
    return [(text[a:b].split() or [""])[0].lower() for a, b in zip(bounds, bounds[1:])], bounds


def _explained(text: str) -> str:
    """The statement an EXPLAIN wraps: `text` past EXPLAIN, ANALYZE and a (options) list."""
    words, bounds = _words(text)
    at = 1  # words[0] is EXPLAIN
    if at < len(words) and words[at] in ("analyze", "analyse"):
        at += 1
    if at < len(words) and words[at] == "(":
        depth = 0
        for at in range(at, len(words)):
            depth += {"(": 1, ")": -1}.get(words[at], 0)
            if depth == 0:
                break
        at += 1
    return text[bounds[at]:] if at < len(words) else ""


def _function_names(select: str) -> set[str]:
    """Every function a SELECT calls (table and scalar, qualified or not), from DuckDB's own parse
    tree; should the tree be unavailable, every word of the text (stricter, never looser)."""
    with contextlib.closing(duckdb.connect()) as con:
        tree = json.loads(con.execute("SELECT json_serialize_sql(?)", [select]).fetchone()[0])
    if tree.get("error"):
        return {word.strip('"') for word in _words(select)[0]}
    names, todo = set(), [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            if isinstance(node.get("function_name"), str):
                names.add(node["function_name"].lower())
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return names


def _check_functions(select: str) -> None:
    for name in sorted(_function_names(select)):
        if name.removeprefix("ducklake_") in DUCKLAKE_WRITES:
            raise LakeError(f"refused: {name}() is DuckLake maintenance, which writes the lake or "
                            f"its files; {ONE_READ} (`interview compact` maintains the lake)")
        if name in UNCHECKED_SQL:
            raise LakeError(f"refused: {name}() runs SQL or changes the engine outside the "
                            f"one-read rule; {ONE_READ}")


def check_read_only(query: str) -> str:
    """The one read statement in `query`, or a `LakeError` saying what was refused and why."""
    statements = _parse(query)
    if len(statements) != 1:
        raise _refuse_many(statements)
    (statement,) = statements
    if statement.type not in READ_STATEMENTS:
        raise LakeError(f"refused: a {_kind(statement)} statement; the lake is read-only here and "
                        f"{ONE_READ}")
    select = statement.query
    if statement.type == duckdb.StatementType.EXPLAIN:
        inner = _parse(_explained(statement.query))
        if len(inner) != 1 or inner[0].type != duckdb.StatementType.SELECT:
            what = (f"a {_kind(inner[0])} statement" if len(inner) == 1
                    else f"{len(inner)} statements")
            raise LakeError(f"refused: EXPLAIN of {what}; EXPLAIN ANALYZE runs what it explains, "
                            "so `interview sql` explains a SELECT only")
        select = inner[0].query
    _check_functions(select)
    return statement.query


def sandbox(con: duckdb.DuckDBPyConnection, readable: list[str], scratch: str, *,
            allow_files: bool = False, memory_limit: str = DEFAULT_MEMORY_LIMIT) -> None:
    """No file access outside the lake's `readable` data path (folder or bucket prefix); spills to
    `scratch` (a private, empty folder the caller owns and removes), within `memory_limit` and
    TEMP_LIMIT; and a configuration no query can change."""
    quote = lambda text: "'" + text.replace("'", "''") + "'"  # noqa: E731
    try:
        con.execute(f"SET memory_limit = {quote(memory_limit)}")
    except duckdb.Error as error:
        raise LakeError(f"memory limit {memory_limit!r}: {str(error).splitlines()[0]}; give a "
                        "size such as 2GB or 500MB") from None
    con.execute(f"SET temp_directory = {quote(scratch)}")
    con.execute(f"SET max_temp_directory_size = {quote(TEMP_LIMIT)}")
    con.execute("SET python_enable_replacements = false")  # no Python variable as a table
    if not allow_files:
        con.execute(f"SET allowed_directories = [{', '.join(quote(path) for path in readable)}]")
        con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


def run_query(con: duckdb.DuckDBPyConnection, query: str, *, max_rows: int = DEFAULT_MAX_ROWS,
              timeout: float = DEFAULT_TIMEOUT) -> QueryResult:
    """The first `max_rows` rows of the one read statement in `query`, stopped after `timeout`
    seconds. Rows past `max_rows` are never fetched: `more` says there were some."""
    statement = check_read_only(query)
    timer = threading.Timer(timeout, con.interrupt)
    timer.daemon = True
    timer.start()
    try:
        # The row cap is a LIMIT in the plan, so DuckDB stops producing rows there, whatever its
        # streaming buffer does (streamed fetchmany alone once peaked at 1.8 GB on CI).
        relation = con.sql(statement)
        if relation is None:
            return QueryResult([], [])
        columns = list(relation.columns)
        rows = relation.limit(max_rows + 1).fetchall()
    except duckdb.InterruptException:
        raise LakeError(f"query stopped after {timeout:g} s (the statement timeout): it ran too "
                        "long (an endless recursive CTE?); narrow it, or rerun with --timeout "
                        "SECONDS") from None
    except duckdb.OutOfMemoryException as error:
        raise LakeError(f"query stopped: it needs more memory than the limit "
                        f"({str(error).splitlines()[0]}); narrow it (WHERE, LIMIT, fewer "
                        "columns), or rerun with a larger --memory-limit") from None
    except duckdb.Error as error:
        message = str(error)
        if isinstance(error, duckdb.PermissionException):
            message += (" (files outside the lake are off, and in the lake folder only its data "
                        "and catalog are readable; `interview sql --allow-files` to read your "
                        "own)")
        raise LakeError(f"query failed: {message}") from None
    finally:
        timer.cancel()
    return QueryResult(columns, rows[:max_rows], len(rows) > max_rows)
