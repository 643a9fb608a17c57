"""Finding nodes under trail roots. A node is one trail with one watermark: a Claude Code or
OpenClaw session file, a Cursor transcript or conversation, the OpenClaw plugin buffer, or one
OpenClaw task database. Node ids are `<prefix>:<machine12>:<stem>` (contract §5.6).

Projects are denied by default, as in the reference client: a project is discovered only when it
matches an allowlist glob, or when every project is allowed explicitly.
"""

from __future__ import annotations

import fnmatch
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from ingest.cursor_vscdb import load_conversations
from ingest.errors import TrailRootError, UnreadableTrail
from ingest.events import Reject
from ingest.machine import node_id
from ingest.openclaw_tasks import has_task_table

SOURCES = ("claude-code", "cursor", "openclaw")
PREFIX = {"claude-code": "cc", "cursor": "cursor", "openclaw": "openclaw"}


@dataclass(frozen=True, slots=True)
class NodeRef:
    source: str
    node_id: str
    path: str
    project: str
    kind: str = "cc-session"
    key: str | None = None  # the conversation inside a database


@dataclass
class Allowlist:
    globs: tuple[str, ...] = ()
    allow_all: bool = False

    def allows(self, project: str) -> bool:
        return self.allow_all or any(fnmatch.fnmatchcase(project, glob) for glob in self.globs)

    @property
    def empty(self) -> bool:
        return not self.allow_all and not self.globs


@dataclass
class Discovery:
    nodes: list[NodeRef] = field(default_factory=list)
    denied_projects: set[tuple[str, str]] = field(default_factory=set)  # (source, project)
    rejects: list[Reject] = field(default_factory=list)


def default_roots(source: str) -> list[str]:
    home = Path.home()
    if source == "claude-code":
        roots = []
        for entry in filter(None, os.environ.get("CLAUDE_CONFIG_DIR", "").split(",")):
            path = Path(entry.strip()).expanduser()
            roots.append(str(path if path.name == "projects" else path / "projects"))
        xdg = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
        return roots + [str(home / ".claude" / "projects"), str(xdg / "claude" / "projects")]
    if source == "cursor":
        return [str(home / ".cursor" / "projects"), str(home / ".config" / "Cursor" / "User"),
                str(home / "Library" / "Application Support" / "Cursor" / "User")]
    state = os.environ.get("OPENCLAW_STATE_DIR")
    return [state] if state else [str(home / ".openclaw")]


def _recent(path: Path, since: float | None) -> bool:
    try:
        return since is None or path.stat().st_mtime >= since
    except OSError:
        return False  # vanished between the glob and the stat


def discover(
    roots: dict[str, list[str]],
    allow: Allowlist,
    *,
    include_subagents: bool = False,
    since_hours: float = 0,
    explicit: bool = False,
) -> Discovery:
    """Nodes of every source in `roots` (source → root folders). Missing default roots are
    skipped; a missing root the user named (`explicit`) is an error."""
    since = time.time() - since_hours * 3600 if since_hours else None
    found = Discovery()
    for source, source_roots in roots.items():
        for root in source_roots:
            base = Path(root).expanduser()
            if not base.is_dir():
                if explicit:
                    raise TrailRootError(f"{source} root {base} is not a folder")
                continue
            if source == "claude-code":
                _claude_code(base, allow, include_subagents, since, found)
            elif source == "cursor":
                _cursor(base, allow, since, found)
            elif source == "openclaw":
                _openclaw(base, allow, since, found)
    return found


def _admit(found: Discovery, source: str, project: str, allow: Allowlist) -> bool:
    if allow.allows(project):
        return True
    found.denied_projects.add((source, project))
    return False


def _claude_code(base: Path, allow, include_subagents: bool, since, found: Discovery) -> None:
    projects = [base] if any(base.glob("*.jsonl")) else sorted(p for p in base.iterdir() if p.is_dir())
    for project in projects:
        if not _admit(found, "claude-code", project.name, allow):
            continue
        for path in sorted(project.glob("*.jsonl")):
            if not path.is_file() or not _recent(path, since):
                continue
            flat_subagent = path.stem.startswith("agent-")
            if flat_subagent:
                if include_subagents and not path.stem.startswith("agent-acompact"):
                    found.nodes.append(NodeRef("claude-code", node_id("cc", path.stem), str(path),
                                               project.name, "cc-subagent"))
                continue
            found.nodes.append(NodeRef("claude-code", node_id("cc", path.stem), str(path), project.name))
            if include_subagents:
                if b'"isSidechain":true' in path.read_bytes():
                    found.nodes.append(NodeRef("claude-code", node_id("cc", f"{path.stem}:sidechains"),
                                               str(path), project.name, "cc-sidechains"))
                for sub in sorted((project / path.stem / "subagents").glob("agent-*.jsonl")):
                    # agent-acompact-*: the compaction agent; its answer is a compaction summary,
                    # which never becomes an event.
                    if _recent(sub, since) and not sub.stem.startswith("agent-acompact"):
                        found.nodes.append(NodeRef("claude-code", node_id("cc", sub.stem), str(sub),
                                                   project.name, "cc-subagent"))


def _workspace_name(folder: Path) -> str:
    try:
        meta = json.loads((folder / "workspace.json").read_text())
        uri = meta.get("folder") or meta.get("workspace") or ""
        name = uri.rstrip("/").rsplit("/", 1)[-1]
        return name or folder.name
    except (OSError, ValueError, AttributeError):
        return folder.name


def _cursor(base: Path, allow, since, found: Discovery) -> None:
    transcript_dirs = [base / "agent-transcripts"] if (base / "agent-transcripts").is_dir() else \
        sorted(base.glob("*/agent-transcripts"))
    for folder in transcript_dirs:
        project = folder.parent.name
        if not _admit(found, "cursor", project, allow):
            continue
        for path in sorted(folder.glob("*/*.jsonl")):
            if _recent(path, since):
                found.nodes.append(NodeRef("cursor", node_id("cursor", path.stem), str(path), project,
                                           "cursor-transcript"))
    databases: list[tuple[Path, str]] = []
    if (base / "state.vscdb").is_file():
        databases.append((base / "state.vscdb", _workspace_name(base)))
    if (base / "globalStorage" / "state.vscdb").is_file():
        databases.append((base / "globalStorage" / "state.vscdb", "global"))
    for db in sorted(base.glob("workspaceStorage/*/state.vscdb")):
        databases.append((db, _workspace_name(db.parent)))
    for db, project in databases:
        if not _admit(found, "cursor", project, allow) or not _recent(db, since):
            continue
        try:
            conversations = load_conversations(db)
        except UnreadableTrail as error:
            found.rejects.append(Reject(str(db), 0, str(error)))
            continue
        for conversation in conversations:
            found.nodes.append(NodeRef("cursor", node_id("cursor", conversation.key), str(db), project,
                                       "cursor-db", conversation.key))


def task_databases(base: Path) -> list[Path]:
    if override := os.environ.get("MEMCLAW_TASK_DB_PATH"):
        return [Path(override).expanduser()]
    candidates = [base / "tasks" / "runs.sqlite", *sorted(base.glob("*.sqlite"))]
    return [path for path in dict.fromkeys(candidates)
            if path.is_file() and not path.name.startswith(".") and has_task_table(path)]


def _openclaw(base: Path, allow, since, found: Discovery) -> None:
    for sessions in sorted(base.glob("agents/*/sessions")):
        agent = sessions.parent.name
        if not _admit(found, "openclaw", agent, allow):
            continue
        for path in sorted(sessions.glob("*.jsonl")):
            if ".checkpoint." in path.name or not _recent(path, since):
                continue
            found.nodes.append(NodeRef("openclaw", node_id("openclaw", path.stem), str(path), agent,
                                       "openclaw-session"))
    buffer = base / "plugins" / "memclaw" / "interview-buffer.jsonl"
    if buffer.is_file() and _admit(found, "openclaw", "memclaw-buffer", allow) and _recent(buffer, since):
        found.nodes.append(NodeRef("openclaw", node_id("openclaw", "interview-buffer"), str(buffer),
                                   "memclaw-buffer", "openclaw-buffer"))
    if _admit(found, "openclaw", "task-trail", allow):
        for db in task_databases(base):
            found.nodes.append(NodeRef("openclaw", node_id("openclaw", f"tasks-{db.stem}"), str(db),
                                       "task-trail", "openclaw-tasks"))
