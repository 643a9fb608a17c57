"""Reading memories back, for agents (MCP) and session digests: full records with where they came
from, what happened around a memory, and a project's recent decisions, blockers and preferences.
Read-only; every query is for one tenant."""

from __future__ import annotations

import unicodedata
from datetime import datetime

import duckdb

from ingest.errors import UsageError
from sinks.lake import IN_JOINED, joined, records


def memories_source(con: duckdb.DuckDBPyConnection, history: bool = False) -> str:
    """What reads read: `current_memories` (what is true now), or with `history` every memory.
    A lake no writer has migrated to the view yet (migration 012) has only `memories`."""
    if history:
        return "memories"
    found = con.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = 'current_memories' "
                        "AND database_name = current_database()").fetchone()[0]
    return "current_memories" if found else "memories"


# A memory with its window (the attempt's seq range) and the trail it was read from.
_RECORD = """
    SELECT m.memory_id, m.memory_type, m.content, m.ts_valid_start, m.ts_valid_end, m.node_id,
           m.session_id, m.agent_id, m.attempt_id, a.cursor_from AS window_from,
           a.cursor_to AS window_to, n.source, n.path, n.project, m.metadata, m.created_at,
           m.evidence_seqs
    FROM {source} m
    LEFT JOIN (SELECT attempt_id, any_value(cursor_from) AS cursor_from,
                      any_value(cursor_to) AS cursor_to FROM attempts WHERE tenant_id = $tenant
               GROUP BY 1) a ON a.attempt_id = m.attempt_id
    LEFT JOIN (SELECT node_id, any_value(source) AS source, any_value(path) AS path,
                      any_value(project) AS project FROM nodes WHERE tenant_id = $tenant
               GROUP BY 1) n ON n.node_id = m.node_id
    WHERE m.tenant_id = $tenant AND m.status = 'active'"""


def shown(value: str, limit: int = 60) -> str:
    """`value` for a message: escaped, and cut when long (a message never echoes a megabyte)."""
    text = repr(value[:limit])
    return text if len(value) <= limit else f"{text}… ({len(value):,} characters)"


def check_memory_ids(ids) -> None:
    """A `UsageError` for an id that no memory can have: one with a control character (U+0000 to
    U+001F, U+007F to U+009F). Memory ids are UUIDs."""
    for value in ids:
        bad = next((char for char in value if unicodedata.category(char) == "Cc"), None)
        if bad is not None:
            raise UsageError(
                f"memory id {shown(value)} holds a control character (U+{ord(bad):04X}); memory "
                "ids are UUIDs such as 3f2b8e1c-5d7a-5e9b-8c1d-2a4f6b8d0e1f, as `interview recall "
                "--json` and the memories table show them")


def memory_records(con: duckdb.DuckDBPyConnection, tenant_id: str, ids: list[str]) -> list[dict]:
    """Full records of `ids` (those of this tenant), in the order asked."""
    if not ids:
        return []
    check_memory_ids(ids)
    found = {row["memory_id"]: row for row in records(con.execute(
        _RECORD.format(source="memories") + " AND m.memory_id IN " + IN_JOINED.replace("?", "$ids"),
        {"tenant": tenant_id, "ids": joined(ids)}))}
    return [found[memory_id] for memory_id in ids if memory_id in found]


def timeline(con: duckdb.DuckDBPyConnection, tenant_id: str, *, memory_id: str | None = None,
             session: str | None = None, before: int = 3, after: int = 3,
             history: bool = False) -> list[dict]:
    """The memories around one memory (its session, else its node), or the start of a session,
    in time order: the current ones (the anchor always), or with `history` all of them. Empty
    when the memory or session is not this tenant's."""
    if memory_id is not None:
        anchor = memory_records(con, tenant_id, [memory_id])
        if not anchor:
            return []
        row = anchor[0]
        scope, value = ("session_id", row["session_id"]) if row["session_id"] else (
            "node_id", row["node_id"])
    else:
        scope, value, row = "session_id", session, None
    rows = records(con.execute(
        _RECORD.format(source=memories_source(con, history)) + f" AND m.{scope} = $value "
        "ORDER BY m.ts_valid_start NULLS LAST, m.memory_id", {"tenant": tenant_id, "value": value}))
    if row is None:
        return rows[:before + after + 1]
    if all(item["memory_id"] != memory_id for item in rows):  # a memory that is not current
        rows = sorted([*rows, row], key=lambda item: (item["ts_valid_start"] is None,
                                                      item["ts_valid_start"], item["memory_id"]))
    at = next(index for index, item in enumerate(rows) if item["memory_id"] == memory_id)
    return rows[max(0, at - before):at + after + 1]


def recent_for_projects(con: duckdb.DuckDBPyConnection, tenant_id: str, projects: list[str],
                        types: tuple[str, ...], since: datetime | None = None,
                        limit: int = 200, history: bool = False) -> list[dict]:
    """The newest current memories (with `history`: all) of `types` from `projects` (GLOBs on
    the project name: the node's, or for a pushed node the one its session names), newest
    first."""
    if not projects:
        return []
    from sinks.links import PROJECT

    where = " OR ".join(f"{PROJECT} GLOB $p%d" % i for i in range(len(projects)))
    params = {"tenant": tenant_id, "types": list(types), "limit": int(limit),
              **{"p%d" % i: glob for i, glob in enumerate(projects)}}
    clause = ""
    if since is not None:
        clause, params["since"] = " AND m.ts_valid_start >= $since", since
    return records(con.execute(
        _RECORD.format(source=memories_source(con, history)) + f" AND ({where}) "
        f"AND m.memory_type IN (SELECT unnest($types)){clause} "
        "ORDER BY m.ts_valid_start DESC NULLS LAST, m.memory_id LIMIT $limit", params))
