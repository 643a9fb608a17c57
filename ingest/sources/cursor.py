"""Cursor: agent transcripts (`agent-transcripts/<id>/<id>.jsonl`, one node each) and the chat
tabs and composers inside `state.vscdb` databases (one node per conversation, read together)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ingest.cursor_transcript import parse_cursor_transcript
from ingest.cursor_vscdb import Conversation, load_conversations, parse_conversation
from ingest.errors import UnreadableTrail
from ingest.events import Reject
from ingest.lines import count_complete_lines, read_trail_bytes
from ingest.machine import node_id
from ingest.nodes import Allowlist, DiscoverOptions, Discovery, NodeRef, ReadOptions
from ingest.sources.registry import Source, jsonl_size, register_source

NAME = "cursor"
PREFIX = "cursor"


def default_roots() -> list[str]:
    home = Path.home()
    return [str(home / ".cursor" / "projects"), str(home / ".config" / "Cursor" / "User"),
            str(home / "Library" / "Application Support" / "Cursor" / "User")]


def _workspace_name(folder: Path) -> str:
    try:
        meta = json.loads((folder / "workspace.json").read_text())
        uri = meta.get("folder") or meta.get("workspace") or ""
        name = uri.rstrip("/").rsplit("/", 1)[-1]
        return name or folder.name
    except (OSError, ValueError, AttributeError):
        return folder.name


def discover(base: Path, allow: Allowlist, options: DiscoverOptions, found: Discovery) -> None:
    transcript_dirs = ([base / "agent-transcripts"] if (base / "agent-transcripts").is_dir()
                       else sorted(base.glob("*/agent-transcripts")))
    for folder in transcript_dirs:
        project = folder.parent.name
        if not found.admit(NAME, project, allow):
            continue
        for path in sorted(folder.glob("*/*.jsonl")):
            if found.trail_file(path) and options.recent(path):
                found.nodes.append(NodeRef(NAME, node_id(PREFIX, path.stem), str(path), project,
                                           "cursor-transcript"))
    for db, project in _databases(base):
        if (not found.admit(NAME, project, allow) or not options.recent(db)
                or not found.inside_roots(db)):
            continue
        try:
            conversations = load_conversations(db)
        except UnreadableTrail as error:
            found.rejects.append(Reject(str(db), 0, str(error)))
            continue
        for conversation in conversations:
            found.nodes.append(NodeRef(NAME, node_id(PREFIX, conversation.key), str(db), project,
                                       "cursor-db", conversation.key))


def _databases(base: Path) -> list[tuple[Path, str]]:
    databases: list[tuple[Path, str]] = []
    if (base / "state.vscdb").is_file():
        databases.append((base / "state.vscdb", _workspace_name(base)))
    if (base / "globalStorage" / "state.vscdb").is_file():
        databases.append((base / "globalStorage" / "state.vscdb", "global"))
    for db in sorted(base.glob("workspaceStorage/*/state.vscdb")):
        databases.append((db, _workspace_name(db.parent)))
    return databases


def _conversation(node: NodeRef, cache: dict) -> Conversation:
    """The node's conversation; a database is loaded once per run for all its conversations."""
    if node.path not in cache:
        cache[node.path] = load_conversations(Path(node.path))
    found = next((c for c in cache[node.path] if c.key == node.key), None)
    if found is None:
        raise FileNotFoundError(f"conversation {node.key} is gone from {node.path}")
    return found


def read(node: NodeRef, start: int, options: ReadOptions, cache: dict):
    path = Path(node.path)
    if node.kind == "cursor-db":
        conversation = _conversation(node, cache)
        trail = parse_conversation(conversation, project=node.project,
                                   fallback_ms=os.stat(path).st_mtime * 1000, start_line=start,
                                   max_event_chars=options.max_event_chars,
                                   recall_tags=options.recall_tags)
        return trail, len(conversation.bubbles)
    data = read_trail_bytes(path)
    trail = parse_cursor_transcript(data, project=node.project, stem=path.stem,
                                    mtime=os.stat(path).st_mtime, path=node.path, start_line=start,
                                    max_event_chars=options.max_event_chars,
                                    recall_tags=options.recall_tags)
    return trail, count_complete_lines(data)


def size(node: NodeRef, cache: dict) -> int:
    if node.kind == "cursor-db":
        return len(_conversation(node, cache).bubbles)
    return jsonl_size(node)


SOURCE = register_source(Source(
    name=NAME, prefix=PREFIX, settings_key="cursor_roots", cli_flag="--cursor-roots",
    roots_help="~/.cursor/projects, a Cursor User folder, or a folder with state.vscdb.",
    default_roots=default_roots, discover=discover, read=read, size=size,
))
