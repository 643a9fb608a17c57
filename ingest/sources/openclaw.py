"""OpenClaw: session transcripts (`agents/<agent>/sessions/*.jsonl`), the memclaw plugin's
interview buffer, and the task trail in `task_runs` tables (one node per database)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import orjson

from ingest.lines import count_complete_lines, read_trail_bytes
from ingest.machine import node_id
from ingest.nodes import Allowlist, DiscoverOptions, Discovery, NodeRef, ReadOptions
from ingest.openclaw import parse_openclaw_session, parse_plugin_buffer
from ingest.openclaw_tasks import has_task_table, read_task_rows, task_events
from ingest.sources.registry import Source, jsonl_size, register_source

NAME = "openclaw"
PREFIX = "openclaw"
BUFFER = Path("plugins") / "memclaw" / "interview-buffer.jsonl"


def default_roots() -> list[str]:
    state = os.environ.get("OPENCLAW_STATE_DIR")
    return [state] if state else [str(Path.home() / ".openclaw")]


def task_databases(base: Path) -> list[Path]:
    if override := os.environ.get("MEMCLAW_TASK_DB_PATH"):
        return [Path(override).expanduser()]
    candidates = [base / "tasks" / "runs.sqlite", *sorted(base.glob("*.sqlite"))]
    return [path for path in dict.fromkeys(candidates)
            if path.is_file() and not path.name.startswith(".") and has_task_table(path)]


def discover(base: Path, allow: Allowlist, options: DiscoverOptions, found: Discovery) -> None:
    for sessions in sorted(base.glob("agents/*/sessions")):
        agent = sessions.parent.name
        if not found.admit(NAME, agent, allow):
            continue
        for path in sorted(sessions.glob("*.jsonl")):
            if ".checkpoint." in path.name or not found.trail_file(path) or not options.recent(path):
                continue
            found.nodes.append(NodeRef(NAME, node_id(PREFIX, path.stem), str(path), agent,
                                       "openclaw-session"))
    buffer = base / BUFFER
    if (buffer.is_file() and found.admit(NAME, "memclaw-buffer", allow) and options.recent(buffer)
            and found.inside_roots(buffer)):
        found.nodes.append(NodeRef(NAME, node_id(PREFIX, "interview-buffer"), str(buffer),
                                   "memclaw-buffer", "openclaw-buffer"))
    if found.admit(NAME, "task-trail", allow):
        for db in task_databases(base):
            found.nodes.append(NodeRef(NAME, node_id(PREFIX, f"tasks-{db.stem}"), str(db),
                                       "task-trail", "openclaw-tasks"))


def read(node: NodeRef, start: int, options: ReadOptions, cache: dict):
    path = Path(node.path)
    common = {"max_event_chars": options.max_event_chars, "recall_tags": options.recall_tags}
    if node.kind == "openclaw-tasks":
        trail = task_events(read_task_rows(path), now=datetime.now(UTC), start_seq=start,
                            path=node.path, **common)
        return trail, max(trail.last_complete_line + 1, start)
    data = read_trail_bytes(path)
    if node.kind == "openclaw-buffer":
        trail = parse_plugin_buffer(data, path=node.path, start_seq=start, **common)
        # The sidecar's next_seq keeps the buffer's seq space from shrinking when the plugin
        # pruned it to empty: never a false "shrank below watermark".
        return trail, max(trail.last_complete_line + 1, start, _next_seq(path) or 0)
    trail = parse_openclaw_session(data, agent=node.project, stem=path.stem, path=node.path,
                                   start_line=start, **common)
    return trail, count_complete_lines(data)


def size(node: NodeRef, cache: dict) -> int:
    if node.kind == "openclaw-session":
        return jsonl_size(node)
    return read(node, 0, ReadOptions(), cache)[1]


def _next_seq(buffer: Path) -> int | None:
    try:
        meta = orjson.loads(Path(str(buffer) + ".meta.json").read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    value = meta.get("next_seq") if isinstance(meta, dict) else None
    return value if isinstance(value, int) else None


SOURCE = register_source(Source(
    name=NAME, prefix=PREFIX, settings_key="openclaw_roots", cli_flag="--openclaw-roots",
    roots_help="OpenClaw state folder (default ~/.openclaw).",
    default_roots=default_roots, discover=discover, read=read, size=size,
))
