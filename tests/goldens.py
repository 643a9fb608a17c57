"""Golden files for the parsers: expected events (seq, role, kind, ts, session, first 80 chars).

Regenerate after a deliberate parser change, then review the diff:

    python -m tests.goldens
"""

from __future__ import annotations

import json
import sys
from pathlib import Path, PurePosixPath

from ingest.nodes import NodeRef, ReadOptions
from ingest.sources import read_node
from tests.trails import fixture_name, fixture_trails

HERE = Path(__file__).resolve().parent
GOLDENS = HERE / "goldens"
CODEX_SAMPLES = HERE.parent / "jobs" / "samples" / "codex"


def fixture_nodes() -> list[tuple[str, NodeRef]]:
    """(golden name, node) for every fixture trail: each file, each Cursor conversation. A golden
    is named after the fixture's name (tests.trails), wherever in the repository the file is."""
    from ingest.cursor_vscdb import load_conversations

    found: list[tuple[str, NodeRef]] = []
    for relative, path in fixture_trails().items():
        name = relative.replace("/", "__")
        logical = PurePosixPath(relative)
        if path.suffix == ".jsonl" and relative.startswith("claude-code/"):
            in_subagents = logical.parent.name == "subagents"
            subagent = in_subagents and not path.stem.startswith("agent-acompact")
            project = logical.parents[2].name if in_subagents else logical.parent.name
            kind = "cc-subagent" if subagent else "cc-session"
            found.append((name, NodeRef("claude-code", "n", str(path), project, kind)))
        elif path.suffix == ".jsonl" and relative.startswith("cursor/"):
            found.append((name, NodeRef("cursor", "n", str(path), logical.parent.name,
                                        "cursor-transcript")))
        elif path.suffix == ".jsonl" and relative.startswith("openclaw/"):
            found.append((name, NodeRef("openclaw", "n", str(path), "main", "openclaw-session")))
        elif path.name == "state.vscdb":
            for conversation in load_conversations(path):
                found.append((f"{name}__{conversation.key}",
                              NodeRef("cursor", "n", str(path), "ws", "cursor-db", conversation.key)))
    for path in sorted(CODEX_SAMPLES.rglob("rollout-*.jsonl")):
        # No public Codex rollout came with a licence: the shipped sample is ours (jobs/samples).
        found.append((f"codex__samples__{path.name}", NodeRef("codex", "n", str(path),
                                                                "ratelimit-api", "codex-rollout")))
    return found


def golden_name(name: str) -> str:
    return name + ".json"


def describe(node: NodeRef) -> dict:
    trail, units = read_node(node, 0, ReadOptions())
    events = trail.events
    if node.kind == "cursor-transcript":  # the ts is the file's mtime: not stable across checkouts
        events = [e.__class__(e.seq, "<mtime>", e.session_id, e.role, e.kind, e.content) for e in events]
    return {
        "file": _relative(node.path) + (f"#{node.key}" if node.key else ""),
        "kind": node.kind,
        "units": units,
        "last_complete": trail.last_complete_line,
        "rejects": [{"line": r.line, "reason": r.reason} for r in trail.rejects],
        "events": [
            {
                "seq": e.seq,
                "role": e.role,
                "kind": e.kind,
                "ts": e.ts,
                "session_id": e.session_id,
                "chars": len(e.content),
                "content80": e.content[:80],
            }
            for e in events
        ],
    }


def _relative(path: str) -> str:
    return fixture_name(path) or Path(path).relative_to(HERE.parent).as_posix()


def render(value: dict) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    GOLDENS.mkdir(exist_ok=True)
    for old in GOLDENS.glob("*.jsonl.json"):
        old.unlink()
    for old in GOLDENS.glob("*vscdb__*.json"):
        old.unlink()
    for name, node in fixture_nodes():
        target = GOLDENS / golden_name(name)
        target.write_text(render(describe(node)), encoding="utf-8")
        print(f"wrote {target.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
