"""Codex CLI: one node per rollout, `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` (default
`~/.codex`). Rollouts are filed by date, not by project: the project is the folder name of the
session's `cwd` (its `session_meta` line), and the allowlist applies to it as to Claude Code."""

from __future__ import annotations

import os
from pathlib import Path

from ingest.codex import parse_codex, session_project
from ingest.lines import count_complete_lines, read_trail_bytes
from ingest.machine import clean_stem, node_id
from ingest.nodes import Allowlist, DiscoverOptions, Discovery, NodeRef, ReadOptions
from ingest.sources.registry import Source, jsonl_size, register_source

NAME = "codex"
PREFIX = "codex"
HEAD_BYTES = 64 * 1024  # the session_meta line; base instructions can make it long


def default_roots() -> list[str]:
    home = os.environ.get("CODEX_HOME")
    return [home] if home else [str(Path.home() / ".codex")]


def rollouts(base: Path) -> list[Path]:
    """Rollouts under a Codex home (its `sessions/`), or under a sessions folder given directly."""
    sessions = base / "sessions" if (base / "sessions").is_dir() else base
    return sorted(sessions.rglob("rollout-*.jsonl"))


def _project(path: Path) -> str:
    with open(path, "rb") as handle:
        return session_project(handle.read(HEAD_BYTES)) or "unknown-project"


def discover(base: Path, allow: Allowlist, options: DiscoverOptions, found: Discovery) -> None:
    for path in rollouts(base):
        if not found.trail_file(path) or not options.recent(path):
            continue
        try:
            project = _project(path)
        except OSError:
            continue  # vanished between the walk and the read
        if found.admit(NAME, project, allow):
            found.nodes.append(NodeRef(NAME, node_id(PREFIX, path.stem), str(path), project,
                                       "codex-rollout"))


def read(node: NodeRef, start: int, options: ReadOptions, cache: dict):
    data = read_trail_bytes(Path(node.path))
    stem = clean_stem(Path(node.path).stem)  # the session id, as printable as the node id
    trail = parse_codex(data, project=node.project, stem=stem, path=node.path, start_line=start,
                        max_event_chars=options.max_event_chars, recall_tags=options.recall_tags)
    return trail, count_complete_lines(data)


SOURCE = register_source(Source(
    name=NAME, prefix=PREFIX, settings_key="codex_roots", cli_flag="--codex-roots",
    roots_help="Codex home ($CODEX_HOME, default ~/.codex) or its sessions folder.",
    default_roots=default_roots, discover=discover, read=read, size=jsonl_size,
))
