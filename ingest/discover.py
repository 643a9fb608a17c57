"""Finding nodes under trail roots. A node is one trail with one watermark."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ingest.machine import node_id


@dataclass(frozen=True, slots=True)
class NodeRef:
    source: str
    node_id: str
    path: str
    project: str


class TrailRootError(Exception):
    pass


def discover_claude_code(roots: list[str | os.PathLike]) -> list[NodeRef]:
    """Nodes under Claude Code roots: a projects folder (holding project folders) or a project
    folder itself (holding `*.jsonl`). Top-level session files only; subagent transcripts one
    level deeper are not main-session nodes."""
    refs: list[NodeRef] = []
    for root in roots:
        base = Path(root).expanduser()
        if not base.is_dir():
            raise TrailRootError(f"trail root {base} is not a folder; pass a Claude Code "
                                 "projects folder (e.g. ~/.claude/projects) or one project folder")
        projects = [base] if any(base.glob("*.jsonl")) else sorted(p for p in base.iterdir() if p.is_dir())
        for project in projects:
            for path in sorted(project.glob("*.jsonl")):
                if path.is_file():
                    refs.append(NodeRef("claude-code", node_id("cc", path.stem), str(path), project.name))
    return refs


