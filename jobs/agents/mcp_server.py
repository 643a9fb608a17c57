"""`interview mcp`: the tenant's memories for agents, as a stdio MCP server (official `mcp` SDK).

Read-only: the lake is attached read-only, in the query sandbox (no file access outside it), so
the server answers while a run writes. Every answer is capped in characters, with a note of what
was left out, so a client's context is never flooded. Bad arguments are tool errors with a clear
message, never a traceback.
"""

from __future__ import annotations

import logging
import shutil
import threading
from datetime import UTC, datetime
from typing import Annotated

from pydantic import Field

from jobs.settings import Settings

logger = logging.getLogger(__name__)
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
        import atexit
        import tempfile

        from ingest.errors import InterviewError
        from sinks.lake import Lake
        from sinks.query import sandbox

        with self._lock:
            try:
                if self._lake is None:
                    lake = Lake(self.settings.lake_location, create=False)
                    # A private, empty temp folder, removed when the server exits.
                    self._scratch = tempfile.mkdtemp(prefix="interview-mcp-")
                    atexit.register(shutil.rmtree, self._scratch, ignore_errors=True)
                    sandbox(lake.con, lake.readable, self._scratch)
                    self._lake = lake
                return query(self._lake.con, *args, **kwargs)
            except InterviewError as error:
                raise _tool_error(_short(str(error), 500)) from None

    def close(self) -> None:
        with self._lock:
            if self._lake is not None:
                self._lake.close()
                self._lake = None
                shutil.rmtree(self._scratch, ignore_errors=True)
            self.index.close()

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


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"… ({len(text):,} characters)"


def answer_size(answer: dict) -> int:
    """The characters of an answer as the client reads it: the SDK's text form (JSON, indent 2)."""
    import pydantic_core

    return len(pydantic_core.to_json(answer, fallback=str, indent=2).decode())


def _prepared(item: dict) -> dict:
    item = {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in item.items()}
    if isinstance(item.get("content"), str) and len(item["content"]) > CONTENT_CHARS:
        item["content"] = item["content"][:CONTENT_CHARS] + "…"
    return item


KEPT_FIELDS = ("memory_id", "memory_type", "content", "ts_valid_start")  # of a shortened memory


def _shortened(item: dict, over: int) -> dict | None:
    """`item` about `over` characters shorter: its last field not in KEPT_FIELDS left out, else
    its longest text cut; None when nothing is left to take."""
    extra = [name for name in item if name not in KEPT_FIELDS]
    if extra:
        return {name: value for name, value in item.items() if name != extra[-1]}
    longest = max((name for name, value in item.items() if name != "memory_id"
                   and isinstance(value, str) and len(value) > 20),
                  key=lambda name: len(item[name]), default=None)
    if longest is None:
        return None
    text = item[longest]
    return {**item, longest: text[:max(16, len(text) - over - 10)] + "…"}


def capped(items: list[dict], max_chars: int, key: str, not_found=()) -> dict:
    """The whole answer within `max_chars` (as `answer_size` counts): as many items as fit (each
    memory's content cut at CONTENT_CHARS), the ids `not_found` that fit (each cut at 80
    characters), and a note of what was left out. A first item too long for the cap alone is
    shortened (its minor fields left out, then its text cut) rather than left out."""
    rows, missing = [_prepared(item) for item in items], [_short(i, 80) for i in not_found]
    short = False

    def build(kept: int, listed: int) -> dict:
        answer = {key: rows[:kept], "left_out": len(rows) - kept}
        if missing:
            answer["not_found"] = missing[:listed]
        notes = [f"{answer['left_out']} more left out"] if answer["left_out"] else []
        if listed < len(missing):
            notes.append(f"{len(missing) - listed} more ids not found")
        if short:
            notes.append("the first shortened")
        if notes:
            answer["note"] = (f"{' and '.join(notes)} to keep this answer under {max_chars} "
                              "characters; narrow the query or lower the limit")
        return answer

    kept, listed = 0, 0  # the items first, then the ids not found that still fit
    while kept < len(rows) and answer_size(build(kept + 1, listed)) <= max_chars:
        kept += 1
    if kept == 0 and rows:
        whole, short = rows[0], True
        while (over := answer_size(build(1, listed)) - max_chars) > 0:
            if (smaller := _shortened(rows[0], over)) is None:
                break
            rows[0] = smaller
        if over > 0:
            rows[0], short = whole, False
        else:
            kept = 1
    while listed < len(missing) and answer_size(build(kept, listed + 1)) <= max_chars:
        listed += 1
    return build(kept, listed)


def build_server(settings: Settings, *, max_chars: int = 8000):
    from mcp.server.mcpserver import MCPServer

    from sinks.memory_read import memory_records, shown, timeline
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
            raise _tool_error(f"no memory {shown(memory_id)}" if memory_id
                              else f"no session {shown(session)}")
        return capped(rows, max_chars, "memories")

    @server.tool()
    def get_memories(
        ids: Annotated[list[str], Field(min_length=1, max_length=100, description="memory ids")],
    ) -> dict:
        """Full records of memories by id (ids from search_memories or timeline)."""
        rows = reader.read(memory_records, reader.tenant_id, ids)
        found = {row["memory_id"] for row in rows}
        return capped(rows, max_chars, "memories", sorted(set(ids) - found))

    return server


PARSE_ERROR, INVALID_REQUEST = -32700, -32600  # JSON-RPC 2.0 §5.1


def malformed_reply(error: Exception):
    """The JSON-RPC answer to a line the SDK could not read as a message (it hands the
    exception on and answers nothing, so a client waiting on that id would hang): -32700 for
    text that is not JSON (an unterminated object), -32600 for JSON that is no request (`[]`,
    an object without `method`); `id` null, since none could be read."""
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    kinds = {item.get("type") for item in getattr(error, "errors", lambda: [])()}
    code, text = ((PARSE_ERROR, "Parse error: the line is not JSON") if "json_invalid" in kinds
                  else (INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message"))
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=None,
                                             error=types.ErrorData(code=code, message=text)))


class AnsweringMalformed:
    """The SDK's read stream, less the lines it could not read: each is answered on the write
    stream (`malformed_reply`) instead of reaching the session, which would drop it."""

    def __init__(self, inner, write_stream) -> None:
        self._inner, self._write = inner, write_stream

    @property
    def last_context(self):
        return getattr(self._inner, "last_context", None)

    async def receive(self):
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            logger.warning("mcp: a malformed JSON-RPC line answered with an error: %s",
                           str(item).splitlines()[0])
            await self._write.send(malformed_reply(item))

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self):
        return self

    async def __anext__(self):
        from anyio import EndOfStream

        try:
            return await self.receive()
        except EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        await self.aclose()


async def _serve(server) -> None:
    from mcp.server.stdio import stdio_server

    lowlevel = server._lowlevel_server  # MCPServer.run_stdio_async, with the read stream wrapped
    async with stdio_server() as (read_stream, write_stream):
        await lowlevel.run(AnsweringMalformed(read_stream, write_stream), write_stream,
                           lowlevel.create_initialization_options())


def serve_stdio(settings: Settings, *, max_chars: int = 8000) -> None:
    import anyio

    if not settings.lake_location.exists():
        import sys

        print(f"note: no lake at {settings.lake_location.describe()} yet; tools answer once a run "
              "has written one", file=sys.stderr)
    anyio.run(_serve, build_server(settings, max_chars=max_chars))
