"""Claude Code: `<projects>/<project>/<session>.jsonl`, one node per session file; with subagents,
each subagent transcript and a file's inline sidechain lines are nodes of their own."""

from __future__ import annotations

import os
from pathlib import Path

from ingest.claude_code import EXCLUDE, INCLUDE, ONLY, parse_claude_code
from ingest.lines import count_complete_lines, read_trail_bytes
from ingest.machine import node_id
from ingest.nodes import Allowlist, DiscoverOptions, Discovery, NodeRef, ReadOptions
from ingest.sources.registry import Source, jsonl_size, register_source

NAME = "claude-code"
PREFIX = "cc"
_SIDECHAINS = {"cc-session": EXCLUDE, "cc-sidechains": ONLY, "cc-subagent": INCLUDE}


def default_roots() -> list[str]:
    home = Path.home()
    roots = []
    for entry in filter(None, os.environ.get("CLAUDE_CONFIG_DIR", "").split(",")):
        path = Path(entry.strip()).expanduser()
        roots.append(str(path if path.name == "projects" else path / "projects"))
    xdg = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    return roots + [str(home / ".claude" / "projects"), str(xdg / "claude" / "projects")]


def _node(path: Path, project: str, kind: str = "cc-session", stem: str | None = None) -> NodeRef:
    return NodeRef(NAME, node_id(PREFIX, stem or path.stem), str(path), project, kind)


def discover(base: Path, allow: Allowlist, options: DiscoverOptions, found: Discovery) -> None:
    projects = [base] if any(base.glob("*.jsonl")) else sorted(p for p in base.iterdir() if p.is_dir())
    for project in projects:
        if not found.admit(NAME, project.name, allow) or not found.readable_folder(project):
            continue
        for path in sorted(project.glob("*.jsonl")):
            if not found.trail_file(path) or not options.recent(path):
                continue
            if path.stem.startswith("agent-"):  # a flat subagent transcript
                if options.include_subagents and not path.stem.startswith("agent-acompact"):
                    found.nodes.append(_node(path, project.name, "cc-subagent"))
                continue
            found.nodes.append(_node(path, project.name))
            if options.include_subagents:
                _subagents(path, project, options, found)


def _subagents(path: Path, project: Path, options: DiscoverOptions, found: Discovery) -> None:
    if b'"isSidechain":true' in path.read_bytes():
        found.nodes.append(_node(path, project.name, "cc-sidechains", f"{path.stem}:sidechains"))
    for sub in sorted((project / path.stem / "subagents").glob("agent-*.jsonl")):
        # agent-acompact-*: the compaction agent; its answer is a compaction summary, which never
        # becomes an event.
        if (options.recent(sub) and not sub.stem.startswith("agent-acompact")
                and found.inside_roots(sub)):
            found.nodes.append(_node(sub, project.name, "cc-subagent"))


def read(node: NodeRef, start: int, options: ReadOptions, cache: dict):
    data = read_trail_bytes(Path(node.path))
    trail = parse_claude_code(data, project=node.project, path=node.path, start_line=start,
                              sidechains=_SIDECHAINS[node.kind],
                              max_event_chars=options.max_event_chars,
                              recall_tags=options.recall_tags)
    return trail, count_complete_lines(data)


SOURCE = register_source(Source(
    name=NAME, prefix=PREFIX, settings_key="claude_code_roots", cli_flag="--roots",
    roots_help="Claude Code projects folder or project folder (repeatable).",
    default_roots=default_roots, discover=discover, read=read, size=jsonl_size,
))
