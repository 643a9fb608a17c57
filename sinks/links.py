"""Consolidation, the storage part: a project's memories in, `memory_links` rows out, in the
transaction discipline of memories. The decisions are `synth.consolidate`'s (pure).

A project is a tenant's trails of one project: the node's project (`nodes.project`), else for a
pushed window whose node was never read from disk the project its session id names
(`<project>:<session>`, as the reference clients write it), else the node itself.

Whole projects at a time (up to `batch_memories` memories), ONE transaction reads their
memories and links, decides the links of the memories no pass has looked at, appends them
(deterministic ids: sha1 of tenant, memory, target, relation; a link already there is not written
again) and sets `ts_valid_end` of each superseded memory to the start of the one that replaced
it: a handful of statements whatever the number of projects. A kill anywhere leaves all of a
transaction's links or none; a rerun decides the same links for what is left, since the pass of
a project is deterministic.
"""

from __future__ import annotations

import fnmatch
import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import duckdb
import numpy as np
import pyarrow as pa

from sinks.lake import IN_JOINED, joined, write_transaction
from sinks.tables import MEMORY_LINKS, insert
from synth.consolidate import Judge, Link, Memory, consolidate

log = logging.getLogger(__name__)

# The project of a memory `m`, with `n` its node's row (LEFT JOIN; see the module docstring).
PROJECT = ("coalesce(n.project, CASE WHEN strpos(coalesce(m.session_id, ''), ':') > 1 "
           "THEN split_part(m.session_id, ':', 1) END, m.node_id)")
_NODES = ("LEFT JOIN (SELECT node_id, any_value(project) AS project FROM nodes "
          "WHERE tenant_id = $tenant GROUP BY 1) n ON n.node_id = m.node_id")


@dataclass
class ConsolidateResult:
    projects: int = 0
    looked_at: int = 0  # memories no pass had looked at before
    links: dict[str, int] = field(default_factory=dict)  # relation → links written
    seconds: float = 0.0
    judge: str = "rules"
    run_id: str | None = None

    def to_json(self) -> dict:
        return {"run_id": self.run_id, "projects": self.projects, "memories": self.looked_at,
                "links": self.links, "judge": self.judge, "seconds": self.seconds}


def link_id(tenant_id: str, link: Link) -> str:
    key = f"{tenant_id}:{link.memory_id}:{link.target_id or ''}:{link.relation}"
    return hashlib.sha1(key.encode()).hexdigest()


def waiting_projects(con: duckdb.DuckDBPyConnection, tenant_id: str,
                     project_glob: str = "*") -> list[tuple[str, int]]:
    """The projects (matching `project_glob`) with memories no pass has looked at, in order,
    each with how many memories it holds in all."""
    rows = con.execute(
        f"SELECT project, count(*), count(*) FILTER (WHERE NOT looked) FROM (SELECT {PROJECT} AS "
        "project, (m.memory_id IN (SELECT memory_id FROM memory_links WHERE tenant_id = $tenant) "
        "OR m.memory_id IN (SELECT target_id FROM memory_links WHERE tenant_id = $tenant AND "
        f"target_id IS NOT NULL)) AS looked FROM memories m {_NODES} WHERE m.tenant_id = $tenant "
        "AND m.status = 'active') GROUP BY 1 HAVING count(*) FILTER (WHERE NOT looked) > 0 "
        "ORDER BY 1", {"tenant": tenant_id}).fetchall()
    return [(project, total) for project, total, _ in rows
            if fnmatch.fnmatchcase(project, project_glob)]


def _batch_memories(con, tenant_id: str, projects: list[str], model: str) -> list[dict]:
    cursor = con.execute(
        f"SELECT {PROJECT} AS project, m.memory_id, m.memory_type, m.content, m.ts_valid_start, "
        "json_extract_string(m.metadata, '$.outcome_result') AS result, e.embedding "
        f"FROM memories m {_NODES} LEFT JOIN (SELECT memory_id, any_value(embedding) AS embedding "
        "FROM memory_embeddings WHERE tenant_id = $tenant AND model = $model GROUP BY 1) e "
        "ON e.memory_id = m.memory_id WHERE m.tenant_id = $tenant AND m.status = 'active' "
        f"AND {PROJECT} IN {IN_JOINED.replace('?', '$projects')} ORDER BY m.memory_id",
        {"tenant": tenant_id, "projects": joined(projects), "model": model})
    table = cursor.to_arrow_table()
    vectors = _vectors(table.column("embedding"))
    rows = table.drop_columns(["embedding"]).to_pylist()
    for row, vector in zip(rows, vectors):
        row["embedding"] = vector
    return rows


def _vectors(column) -> list[np.ndarray | None]:
    """A FLOAT[] column as numpy rows (None where NULL), without a Python list per value."""
    column = column.combine_chunks()
    if len(column) == 0:
        return []
    flat = column.flatten().to_numpy(zero_copy_only=False).astype(np.float32, copy=False)
    offsets = column.offsets.to_numpy()
    valid = column.is_valid().to_numpy(zero_copy_only=False)
    return [flat[offsets[i]:offsets[i + 1]] if valid[i] else None for i in range(len(column))]


def _links_of(con, tenant_id: str, ids: list[str]) -> list[tuple[str, str, str | None, str]]:
    if not ids:
        return []
    return con.execute(
        "SELECT link_id, memory_id, target_id, relation FROM memory_links WHERE tenant_id = ? "
        "AND (memory_id IN " + IN_JOINED + " OR target_id IN " + IN_JOINED + ")",
        [tenant_id, joined(ids), joined(ids)]).fetchall()


def _memories(rows: list[dict], embedder) -> dict[str, Memory]:
    """Rows as `synth.consolidate.Memory`; the ones without a stored vector get one from
    `embedder` when there is one (in memory only: `interview embed` stores them)."""
    missing = [row for row in rows if row["embedding"] is None]
    if missing and embedder is not None:
        for row, vector in zip(missing, embedder.embed([row["content"] for row in missing])):
            row["embedding"] = vector
    found = {}
    for row in rows:
        vector = None
        if row["embedding"] is not None:
            vector = np.asarray(row["embedding"], dtype=np.float32)
            vector = vector / max(float(np.linalg.norm(vector)), 1e-12)
        found[row["memory_id"]] = Memory(row["memory_id"], row["memory_type"], row["content"],
                                         row["ts_valid_start"], vector,
                                         failed=row["result"] == "failure")
    return found


def _decide(rows: list[dict], existing: list[tuple], judge: Judge | None,
            embedder) -> tuple[list[Link], dict[str, Memory], int]:
    """One project's pass over its rows and the links already touching them."""
    seen_ids = {memory for _, memory, _, _ in existing} | {
        target for _, _, target, _ in existing if target}
    gone = {memory for _, memory, _, relation in existing if relation == "duplicate"} | {
        target for _, _, target, relation in existing if relation in ("supersedes", "resolves")}
    new_rows = [row for row in rows if row["memory_id"] not in seen_ids]
    if not new_rows:
        return [], {}, 0
    memories = _memories(rows, embedder)
    seen = [memories[row["memory_id"]] for row in rows if row["memory_id"] in seen_ids]
    decided = consolidate([memories[row["memory_id"]] for row in new_rows], seen,
                          seen_ids - gone, judge)
    return decided, memories, len(new_rows)


def consolidate_projects(con: duckdb.DuckDBPyConnection, tenant_id: str, projects: list[str], *,
                         run_id: str, model: str, judge: Judge | None = None, embedder=None,
                         now: datetime | None = None,
                         crash_hook: Callable[[str], None] | None = None,
                         ) -> tuple[int, list[Link]]:
    """The pass of each of `projects`, all in ONE transaction: (memories looked at, links
    written)."""
    now = now or datetime.now(UTC)

    def write(con) -> tuple[int, list[Link]]:
        rows = _batch_memories(con, tenant_id, projects, model)
        existing = _links_of(con, tenant_id, [row["memory_id"] for row in rows])
        touching: dict[str, list[tuple]] = {}
        for link in existing:
            for memory in (link[1], link[2]):
                if memory:
                    touching.setdefault(memory, []).append(link)
        by_project: dict[str, list[dict]] = {}
        for row in rows:
            by_project.setdefault(row["project"], []).append(row)
        looked_at, fresh, memories = 0, [], {}
        have = {link[0] for link in existing}
        for project in sorted(by_project):
            mine = by_project[project]
            known = {link for row in mine for link in touching.get(row["memory_id"], ())}
            decided, known_memories, count = _decide(mine, sorted(known), judge, embedder)
            looked_at += count
            memories.update(known_memories)
            fresh += [(project, link) for link in decided if link_id(tenant_id, link) not in have]
        insert(con, MEMORY_LINKS, [{
            "link_id": link_id(tenant_id, link), "tenant_id": tenant_id, "project": project,
            "memory_id": link.memory_id, "target_id": link.target_id, "relation": link.relation,
            "decided_by": link.decided_by, "score": link.score, "run_id": run_id,
            "linked_at": now} for project, link in fresh])
        if crash_hook is not None:
            crash_hook("mid_consolidation")
        _end_superseded(con, tenant_id, [link for _, link in fresh], memories)
        return looked_at, [link for _, link in fresh]

    return write_transaction(con, write)


def _end_superseded(con, tenant_id: str, links: list[Link], memories: dict[str, Memory]) -> None:
    """A superseded memory is valid until the start of the one that replaced it."""
    ends = [(link.target_id, memories[link.memory_id].start) for link in links
            if link.relation == "supersedes" and memories[link.memory_id].start is not None]
    if not ends:
        return
    schema = pa.schema([("memory_id", pa.string()), ("ends", pa.timestamp("us", tz="UTC"))])
    staged = pa.Table.from_pylist([{"memory_id": t, "ends": e} for t, e in ends], schema=schema)
    con.register("staged_ends", staged)
    try:
        con.execute("UPDATE memories SET ts_valid_end = s.ends FROM staged_ends s WHERE "
                    "memories.tenant_id = ? AND memories.memory_id = s.memory_id", [tenant_id])
    finally:
        con.unregister("staged_ends")


def batches(projects: list[tuple[str, int]], limit: int) -> list[list[str]]:
    """Projects in order, grouped up to `limit` memories a group (a larger project is alone)."""
    groups: list[list[str]] = []
    size = 0
    for project, count in projects:
        if not groups or size + count > limit:
            groups.append([])
            size = 0
        groups[-1].append(project)
        size += count
    return groups


def consolidate_lake(con: duckdb.DuckDBPyConnection, tenant_id: str, *, run_id: str,
                     model: str, project_glob: str = "*", judge: Judge | None = None,
                     embedder=None, now: datetime | None = None, batch_memories: int = 20_000,
                     crash_hook: Callable[[str], None] | None = None) -> ConsolidateResult:
    """Every project of the tenant (matching `project_glob`) with memories no pass has looked
    at, in transactions of up to `batch_memories` memories (whole projects: crash point
    `mid_consolidation` in each). Deterministic and idempotent: a second call writes nothing."""
    started = time.perf_counter()
    result = ConsolidateResult()
    waiting = waiting_projects(con, tenant_id, project_glob)
    for group in batches(waiting, batch_memories):
        looked_at, links = consolidate_projects(
            con, tenant_id, group, run_id=run_id, model=model, judge=judge, embedder=embedder,
            now=now, crash_hook=crash_hook)
        result.projects += len(group)
        result.looked_at += looked_at
        for link in links:
            result.links[link.relation] = result.links.get(link.relation, 0) + 1
        log.info("consolidated %d projects: %d memories, %d links", len(group), looked_at,
                 len(links))
    result.seconds = round(time.perf_counter() - started, 3)
    return result


def link_rows(con: duckdb.DuckDBPyConnection, tenant_id: str, ids: list[str]) -> list[dict]:
    """Every link touching `ids`, oldest decision first, as dicts."""
    if not ids:
        return []
    cursor = con.execute(
        "SELECT memory_id, target_id, relation, decided_by, score, run_id, linked_at "
        "FROM memory_links WHERE tenant_id = ? AND (memory_id IN " + IN_JOINED
        + " OR target_id IN " + IN_JOINED + ") ORDER BY linked_at, link_id",
        [tenant_id, joined(ids), joined(ids)])
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def memory_chain(con: duckdb.DuckDBPyConnection, tenant_id: str, memory_id: str,
                 limit: int = 50) -> list[dict]:
    """The memories linked to `memory_id`, directly or through others (its canonical and that
    one's duplicates, what it superseded and what superseded it, the task it closed or the
    outcome that closed it), oldest first; each with its state now: `current`, `duplicate of`,
    `superseded by`, `closed by` (with the other memory's id and start). Empty when no pass linked
    it to anything."""
    found, frontier, links = {memory_id}, [memory_id], {}
    while frontier and len(found) < limit:
        rows = [row for row in link_rows(con, tenant_id, frontier) if row["relation"] != "distinct"]
        frontier = []
        for row in rows:
            links[(row["memory_id"], row["target_id"], row["relation"])] = row
            for other in (row["memory_id"], row["target_id"]):
                if other not in found and len(found) < limit:
                    found.add(other)
                    frontier.append(other)
    if len(found) == 1:
        return []
    cursor = con.execute(
        "SELECT memory_id, memory_type, content, ts_valid_start, ts_valid_end, node_id, "
        "session_id FROM memories WHERE tenant_id = ? AND memory_id IN " + IN_JOINED,
        [tenant_id, joined(sorted(found))])
    names = [column[0] for column in cursor.description]
    chain = {row[0]: {**dict(zip(names, row)), "state": "current", "other_id": None,
                      "since": None} for row in cursor.fetchall()}
    for (source, target, relation), row in sorted(links.items(), key=lambda item: str(item[0])):
        if relation == "duplicate" and source in chain:
            chain[source].update(state="duplicate of", other_id=target)
        elif relation in ("supersedes", "resolves") and target in chain:
            state = "superseded by" if relation == "supersedes" else "closed by"
            since = chain[source]["ts_valid_start"] if source in chain else None
            chain[target].update(state=state, other_id=source, since=since)
    for memory in found - set(chain):  # forgotten since it was linked
        chain[memory] = {"memory_id": memory, "memory_type": None, "content": None,
                         "ts_valid_start": None, "ts_valid_end": None, "node_id": None,
                         "session_id": None, "state": "forgotten", "other_id": None,
                         "since": None}
    return sorted(chain.values(), key=lambda row: (row["ts_valid_start"] is None,
                                                   row["ts_valid_start"], row["memory_id"]))


def duplicates_of(con: duckdb.DuckDBPyConnection, tenant_id: str, ids: list[str]) -> list[str]:
    """The memories linked as duplicates to any of `ids`: what a canonical memory stands for."""
    if not ids:
        return []
    rows = con.execute(
        "SELECT DISTINCT memory_id FROM memory_links WHERE tenant_id = ? AND relation = "
        "'duplicate' AND target_id IN " + IN_JOINED + " ORDER BY 1",
        [tenant_id, joined(ids)]).fetchall()
    return [memory for (memory,) in rows]


def unlink(con: duckdb.DuckDBPyConnection, tenant_id: str, ids: list[str]) -> None:
    """Inside a forget's transaction: the links of the forgotten `ids` go, and a memory that only
    a forgotten one superseded is valid again (as if it had never been said)."""
    if not ids:
        return
    params = [tenant_id, joined(ids), joined(ids)]
    revived = [row[0] for row in con.execute(
        "SELECT DISTINCT target_id FROM memory_links WHERE tenant_id = ? AND relation = "
        "'supersedes' AND memory_id IN " + IN_JOINED + " AND target_id NOT IN " + IN_JOINED,
        params).fetchall()]
    con.execute("DELETE FROM memory_links WHERE tenant_id = ? AND (memory_id IN " + IN_JOINED
                + " OR target_id IN " + IN_JOINED + ")", params)
    if revived:
        con.execute(
            "UPDATE memories SET ts_valid_end = NULL WHERE tenant_id = ? AND memory_id IN "
            + IN_JOINED + " AND memory_id NOT IN (SELECT target_id FROM memory_links WHERE "
            "tenant_id = ? AND relation = 'supersedes')", [tenant_id, joined(revived), tenant_id])
