"""What a person browses (`interview ui`): the tenant's projects, a project's memories in time
order, and how many memories each day and type holds. Read-only; for one tenant.

The memories come from `browsed_memories()`: what is true now (`current_memories`: no
duplicate, no superseded decision or preference, no closed task), as recall and MCP read; a
memory's own page still shows any memory, with its chain. A memory's project is its node's (`nodes.project`); a node the lake knows only from
pushed windows has none, and its memories are under the project "" (shown as such).

The lake is read once per snapshot: `BrowseCache` copies the tenant's memories (with their
project) into a scratch in-memory DuckDB, as recall's index does, and the page queries run
there. A lake of small daily Parquet files costs ~0.3 s a scan here; a page asks three queries,
and people click through many pages between two commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

import duckdb

from sinks.lake import records
from sinks.memory_read import memories_source

TABLE = "browsed"  # the scratch table of `BrowseCache`


def browsed_memories(con: duckdb.DuckDBPyConnection) -> str:
    """The relation of memories a person sees (the current ones), with a `$tenant` parameter."""
    return (f"(SELECT * FROM {memories_source(con)} WHERE tenant_id = $tenant "
            "AND status = 'active')")


def _with_project(con: duckdb.DuckDBPyConnection) -> str:
    """The browsed memories with their node's project ("" when the node has no `nodes` row)."""
    return f"""
    SELECT m.*, coalesce(n.project, '') AS project
    FROM {browsed_memories(con)} m
    LEFT JOIN (SELECT node_id, any_value(project) AS project FROM nodes WHERE tenant_id = $tenant
               GROUP BY 1) n ON n.node_id = m.node_id"""


@dataclass(frozen=True)
class Slice:
    """Which of a project's memories: types (none: all), and `since` <= start < `until`."""

    project: str
    types: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None

    def where(self) -> tuple[str, dict]:
        clauses, params = ["project = $project"], {"project": self.project}
        if self.types:
            clauses.append("memory_type IN (SELECT unnest($types))")
            params["types"] = list(self.types)
        if self.since is not None:
            clauses.append("ts_valid_start >= $since")
            params["since"] = self.since
        if self.until is not None:
            clauses.append("ts_valid_start < $until")
            params["until"] = self.until
        return " AND ".join(clauses), params


def projects(con: duckdb.DuckDBPyConnection) -> list[dict]:
    """Every project with memories: its nodes, memories (in all and per type), first and last
    memory time; the busiest first."""
    rows = records(con.execute(
        f"SELECT project, memory_type, count(*) AS memories, min(ts_valid_start) AS first_at, "
        f"max(ts_valid_start) AS last_at FROM {TABLE} GROUP BY ALL"))
    found: dict[str, dict] = {}
    for row in rows:
        entry = found.setdefault(row["project"], {"project": row["project"], "memories": 0,
                                                  "types": {}, "first_at": None, "last_at": None})
        entry["memories"] += row["memories"]
        entry["types"][row["memory_type"]] = row["memories"]
        entry["first_at"] = _earliest(entry["first_at"], row["first_at"])
        entry["last_at"] = _latest(entry["last_at"], row["last_at"])
    nodes = dict(con.execute(
        f"SELECT project, count(DISTINCT node_id) FROM {TABLE} GROUP BY 1").fetchall())
    for entry in found.values():
        entry["nodes"] = nodes.get(entry["project"], 0)
    return sorted(found.values(), key=lambda entry: (-entry["memories"], entry["project"]))


def project_memories(con: duckdb.DuckDBPyConnection, where: Slice, *, limit: int = 1000,
                     offset: int = 0) -> tuple[list[dict], int]:
    """A page of the slice's memories, newest first (those without a time last), and how many
    the slice holds in all."""
    clause, params = where.where()
    total = con.execute(f"SELECT count(*) FROM {TABLE} WHERE {clause}", params).fetchone()[0]
    rows = records(con.execute(
        "SELECT memory_id, memory_type, content, ts_valid_start, ts_valid_end, node_id, "
        f"session_id, created_at FROM {TABLE} WHERE {clause} "
        "ORDER BY ts_valid_start DESC NULLS LAST, memory_id LIMIT $limit OFFSET $offset",
        {**params, "limit": int(limit), "offset": int(offset)}))
    return rows, int(total)


def memories_per_day(con: duckdb.DuckDBPyConnection,
                     where: Slice) -> list[tuple[date, str, int]]:
    """(day in UTC, type, memories) of the slice, in day order; memories without a time are not
    in any day."""
    clause, params = where.where()
    rows = con.execute(
        "SELECT CAST(timezone('UTC', ts_valid_start) AS DATE) AS day, memory_type, count(*) "
        f"FROM {TABLE} WHERE {clause} AND ts_valid_start IS NOT NULL "
        "GROUP BY ALL ORDER BY day, memory_type", params).fetchall()
    return [(day, kind, int(count)) for day, kind, count in rows]


def neighbours(con: duckdb.DuckDBPyConnection, memory_id: str, *, before: int = 3,
               after: int = 3) -> list[dict]:
    """The memories around one (its session's, else its node's), in time order, itself
    included; empty when it is not in the copy."""
    anchor = con.execute(f"SELECT session_id, node_id FROM {TABLE} WHERE memory_id = ?",
                         [memory_id]).fetchone()
    if anchor is None:
        return []
    scope, value = ("session_id", anchor[0]) if anchor[0] else ("node_id", anchor[1])
    rows = records(con.execute(
        "SELECT memory_id, memory_type, content, ts_valid_start, node_id, session_id "
        f"FROM {TABLE} WHERE {scope} = ? ORDER BY ts_valid_start NULLS LAST, memory_id",
        [value]))
    at = next(index for index, row in enumerate(rows) if row["memory_id"] == memory_id)
    return rows[max(0, at - before):at + after + 1]


class BrowseCache:
    """The browsed memories of a tenant with their project, in a scratch in-memory DuckDB,
    copied again only when the lake has a new snapshot; the last `tenants` tenants asked for
    are kept (a keyed UI serves each key its own)."""

    def __init__(self, tenants: int = 4) -> None:
        self.tenants = tenants
        self._kept: dict[str, tuple[int, duckdb.DuckDBPyConnection]] = {}

    def connection(self, con: duckdb.DuckDBPyConnection,
                   tenant_id: str) -> duckdb.DuckDBPyConnection:
        """The scratch connection holding `TABLE` for `tenant_id`, current with the lake."""
        snapshot = con.execute("SELECT max(snapshot_id) FROM lake.snapshots()").fetchone()[0]
        kept = self._kept.pop(tenant_id, None)
        if kept is not None and kept[0] == snapshot:
            self._kept[tenant_id] = kept  # now the most recently used
            return kept[1]
        if kept is not None:
            kept[1].close()
        given = con.execute(
            "SELECT memory_id, memory_type, content, ts_valid_start, ts_valid_end, node_id, "
            f"session_id, created_at, project FROM ({_with_project(con)})",
            {"tenant": tenant_id}).to_arrow_table()
        scratch = duckdb.connect()
        scratch.register("given", given)
        scratch.execute(f"CREATE TABLE {TABLE} AS SELECT * FROM given")
        scratch.unregister("given")
        self._kept[tenant_id] = (snapshot, scratch)
        while len(self._kept) > self.tenants:
            oldest = next(iter(self._kept))
            self._kept.pop(oldest)[1].close()
        return scratch

    def close(self) -> None:
        for _, scratch in self._kept.values():
            scratch.close()
        self._kept.clear()


def _earliest(a, b):
    return b if a is None else a if b is None else min(a, b)


def _latest(a, b):
    return b if a is None else a if b is None else max(a, b)
