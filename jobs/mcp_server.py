"""`interview mcp`: the tenant's memories for agents, as a stdio MCP server (official `mcp` SDK).

Read-only: the lake is attached read-only, in the query sandbox (no file access outside it), so
the server answers while a run writes. Every answer is capped in characters, with a note of what
was left out, so a client's context is never flooded. Bad arguments are tool errors with a clear
message, never a traceback.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Annotated

from pydantic import Field

from jobs.settings import Settings

MEMORY_TYPES = ("episode", "decision", "outcome", "task", "fact", "preference")
CONTENT_CHARS = 1200  # one memory's text in an answer, at most

INSTRUCTIONS = """Memories of past coding-agent sessions (decisions, outcomes, blockers, facts,
preferences), written by trail-interview from the trails of Claude Code, Cursor, Codex and
OpenClaw. Call search_memories before re-deciding something or re-investigating a problem; call
timeline to see what happened around a memory; call get_memories for full records."""


class MemoryReader:
    """One read-only connection to the lake, opened at the first call (the lake may not exist
    yet when the client starts the server)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.tenant_id = settings.tenant_id
        self._lake = None
        self._lock = threading.Lock()
        from sinks.recall import RecallIndex
        from synth.embeddings import EMBEDDING_MODEL

        self.index = RecallIndex(EMBEDDING_MODEL)  # rebuilt only when the lake changes

    def read(self, query, *args, **kwargs):
        """`query(con, *args, **kwargs)` on the one connection, one call at a time."""
        from ingest.errors import LakeError
        from sinks.lake import Lake
        from sinks.query import sandbox

        with self._lock:
            if self._lake is None:
                try:
                    self._lake = Lake(self.settings.lake_location, create=False)
                except LakeError as error:
                    raise _tool_error(str(error)) from None
                sandbox(self._lake.con, self._lake.readable)
            return query(self._lake.con, *args, **kwargs)

    def embed(self, text: str):
        if not self.settings.embeddings.enabled:
            return None
        from synth.embeddings import shared_embedder

        options = self.settings.embeddings
        return shared_embedder(options.threads, options.batch_size).embed([text])[0]


def _tool_error(message: str):
    from mcp.server.mcpserver.exceptions import ToolError

    return ToolError(message)


def _date(value: str | None, name: str) -> datetime | None:
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise _tool_error(f"{name}: {value!r} is not a date (use YYYY-MM-DD or ISO 8601)") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def capped(items: list[dict], max_chars: int, key: str) -> dict:
    """As many items as fit in `max_chars` of JSON text (each memory's content cut at
    CONTENT_CHARS), and how many were left out."""
    import json

    kept, used = [], 0
    for item in items:
        item = {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in item.items()}
        if isinstance(item.get("content"), str) and len(item["content"]) > CONTENT_CHARS:
            item["content"] = item["content"][:CONTENT_CHARS] + "…"
        size = len(json.dumps(item, default=str))
        if kept and used + size > max_chars:
            break
        kept.append(item)
        used += size
    answer = {key: kept, "left_out": len(items) - len(kept)}
    if answer["left_out"]:
        answer["note"] = (f"{answer['left_out']} more left out to keep this answer under "
                          f"{max_chars} characters; narrow the query or lower the limit")
    return answer


def build_server(settings: Settings, *, max_chars: int = 8000):
    from mcp.server.mcpserver import MCPServer

    from sinks.memory_read import memory_records, timeline
    from sinks.recall import RecallFilter, search
    from synth.embeddings import EMBEDDING_MODEL

    reader = MemoryReader(settings)
    server = MCPServer("trail-interview", instructions=INSTRUCTIONS)

    @server.tool()
    def search_memories(
        query: Annotated[str, Field(description="what to look for, in words or as a question")],
        types: Annotated[list[str] | None, Field(description=f"only these memory types: {', '.join(MEMORY_TYPES)}")] = None,
        since: Annotated[str | None, Field(description="only memories from this date on (YYYY-MM-DD)")] = None,
        until: Annotated[str | None, Field(description="only memories before this date (YYYY-MM-DD)")] = None,
        node: Annotated[str | None, Field(description="only memories of nodes whose id matches this glob")] = None,
        session: Annotated[str | None, Field(description="only memories of this session id")] = None,
        limit: Annotated[int, Field(ge=1, le=50, description="hits to return, best first")] = 10,
        history: Annotated[bool, Field(description="also restatements, superseded decisions and "
                                       "closed tasks (default: what is current only)")] = False,
    ) -> dict:
        """Search past sessions' memories (hybrid: keywords and meaning): what is current, a
        restated statement once, never a decision a later one reversed (`history` for those).
        Each hit has its id, type, content, time, node, session and where it came from (the
        window's seq range and the trail file). Use it before deciding something that may have
        been decided before."""
        if not query.strip():
            raise _tool_error("query is empty: give the words or the question to search for")
        unknown = sorted(set(types or ()) - set(MEMORY_TYPES))
        if unknown:
            raise _tool_error(f"unknown memory type(s) {unknown}; known: {', '.join(MEMORY_TYPES)}")
        where = RecallFilter(reader.tenant_id, tuple(types or ()), _date(since, "since"),
                             _date(until, "until"), node, session, history)
        vector = reader.embed(query)
        hits = reader.read(search, query, vector, where, model=EMBEDDING_MODEL, k=limit,
                           index=reader.index)
        scores = {hit.memory_id: hit.score for hit in hits}
        rows = reader.read(memory_records, reader.tenant_id, [hit.memory_id for hit in hits])
        return capped([{**row, "score": scores[row["memory_id"]]} for row in rows], max_chars,
                      "hits")

    @server.tool(name="timeline")
    def timeline_around(
        memory_id: Annotated[str | None, Field(description="the memory to center on")] = None,
        session: Annotated[str | None, Field(description="or: a session id, from its start")] = None,
        before: Annotated[int, Field(ge=0, le=50)] = 3,
        after: Annotated[int, Field(ge=0, le=50)] = 3,
        history: Annotated[bool, Field(
            description="also superseded and duplicate memories")] = False,
    ) -> dict:
        """What happened around a memory (in its session, else its node), or at the start of a
        session, in time order: the current memories (`history`: all)."""
        if (memory_id is None) == (session is None):
            raise _tool_error("give exactly one of memory_id or session")
        rows = reader.read(timeline, reader.tenant_id, memory_id=memory_id, session=session,
                           before=before, after=after, history=history)
        if not rows:
            raise _tool_error(f"no memory {memory_id!r}" if memory_id else f"no session {session!r}")
        return capped(rows, max_chars, "memories")

    @server.tool()
    def get_memories(
        ids: Annotated[list[str], Field(min_length=1, max_length=100, description="memory ids")],
    ) -> dict:
        """Full records of memories by id (ids from search_memories or timeline)."""
        rows = reader.read(memory_records, reader.tenant_id, ids)
        answer = capped(rows, max_chars, "memories")
        missing = sorted(set(ids) - {row["memory_id"] for row in rows})
        if missing:
            answer["not_found"] = missing
        return answer

    return server


def serve_stdio(settings: Settings, *, max_chars: int = 8000) -> None:
    if not settings.lake_location.exists():
        import sys

        print(f"note: no lake at {settings.lake_location.describe()} yet; tools answer once a run "
              "has written one", file=sys.stderr)
    build_server(settings, max_chars=max_chars).run("stdio")
