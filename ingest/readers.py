"""Reading one node from a cursor position: the I/O edge in front of the pure parsers.

`read_node` returns the parsed trail and the node's size in seq units (lines, bubbles, buffer
seqs, task slots), which the planner compares with the watermark to notice a trail that shrank.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import orjson

from ingest.claude_code import EXCLUDE, INCLUDE, ONLY, parse_claude_code
from ingest.content import DEFAULT_MAX_EVENT_CHARS, DEFAULT_RECALL_TAGS
from ingest.cursor_transcript import parse_cursor_transcript
from ingest.cursor_vscdb import Conversation, load_conversations, parse_conversation
from ingest.discover import NodeRef
from ingest.events import ParsedTrail
from ingest.lines import count_complete_lines, read_trail_bytes
from ingest.openclaw import parse_openclaw_session, parse_plugin_buffer
from ingest.openclaw_tasks import read_task_rows, task_events


@dataclass(frozen=True)
class ReadOptions:
    max_event_chars: int = DEFAULT_MAX_EVENT_CHARS
    recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS


_SIDECHAINS = {"cc-session": EXCLUDE, "cc-sidechains": ONLY, "cc-subagent": INCLUDE}


def read_node(
    node: NodeRef,
    start: int,
    options: ReadOptions,
    db_cache: dict[str, list[Conversation]] | None = None,
) -> tuple[ParsedTrail, int]:
    """Parse `node` from seq `start`. Raises OSError / UnreadableTrail for unreadable trails."""
    common = {"max_event_chars": options.max_event_chars, "recall_tags": options.recall_tags}
    path = Path(node.path)
    if node.kind in _SIDECHAINS:
        data = read_trail_bytes(path)
        return parse_claude_code(data, project=node.project, path=node.path, start_line=start,
                                 sidechains=_SIDECHAINS[node.kind], **common), count_complete_lines(data)
    if node.kind == "cursor-transcript":
        data = read_trail_bytes(path)
        trail = parse_cursor_transcript(data, project=node.project, stem=path.stem,
                                        mtime=os.stat(path).st_mtime, path=node.path,
                                        start_line=start, **common)
        return trail, count_complete_lines(data)
    if node.kind == "cursor-db":
        cache = db_cache if db_cache is not None else {}
        if node.path not in cache:
            cache[node.path] = load_conversations(path)
        conversation = next((c for c in cache[node.path] if c.key == node.key), None)
        if conversation is None:
            raise FileNotFoundError(f"conversation {node.key} is gone from {node.path}")
        trail = parse_conversation(conversation, project=node.project,
                                   fallback_ms=os.stat(path).st_mtime * 1000, start_line=start, **common)
        return trail, len(conversation.bubbles)
    if node.kind == "openclaw-session":
        data = read_trail_bytes(path)
        agent = node.project
        return parse_openclaw_session(data, agent=agent, stem=path.stem, path=node.path,
                                      start_line=start, **common), count_complete_lines(data)
    if node.kind == "openclaw-buffer":
        data = read_trail_bytes(path)
        next_seq = _next_seq(path)
        trail = parse_plugin_buffer(data, path=node.path, start_seq=start, **common)
        # The sidecar's next_seq keeps the buffer's seq space from shrinking when the plugin
        # pruned it to empty: never a false "shrank below watermark".
        units = max(trail.last_complete_line + 1, start, next_seq or 0)
        return trail, units
    if node.kind == "openclaw-tasks":
        rows = read_task_rows(path)
        trail = task_events(rows, now=datetime.now(UTC), start_seq=start, **common)
        return trail, max(trail.last_complete_line + 1, start)
    raise ValueError(f"unknown node kind {node.kind!r} for {node.path}")


def _next_seq(buffer: Path) -> int | None:
    try:
        meta = orjson.loads(Path(str(buffer) + ".meta.json").read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    value = meta.get("next_seq") if isinstance(meta, dict) else None
    return value if isinstance(value, int) else None


def node_size(node: NodeRef, db_cache: dict[str, list[Conversation]] | None = None) -> int:
    """The node's size in seq units, as `read_node` reports it, without parsing its events."""
    if node.kind in _SIDECHAINS or node.kind in ("cursor-transcript", "openclaw-session"):
        return count_complete_lines(read_trail_bytes(Path(node.path)))
    return read_node(node, 0, ReadOptions(), db_cache)[1]
