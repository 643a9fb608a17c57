"""Golden files for the parsers: expected events (seq, role, kind, ts, session, first 80 chars).

Regenerate after a deliberate parser change, then review the diff:

    python -m tests.goldens
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ingest.claude_code import parse_claude_code

HERE = Path(__file__).resolve().parent
GOLDENS = HERE / "goldens"
FIXTURES = HERE.parent.parent / "shared" / "fixtures" / "trails"


def claude_code_files() -> list[Path]:
    files = sorted((FIXTURES / "claude-code").rglob("*.jsonl"))
    if not files:
        raise FileNotFoundError(f"no trail fixtures under {FIXTURES}: the tests need ../shared")
    return files


def golden_name(path: Path) -> str:
    relative = path.relative_to(FIXTURES)
    return str(relative).replace("/", "__") + ".json"


def describe(path: Path) -> dict:
    trail = parse_claude_code(path.read_bytes(), project=path.parent.name, path=path.name)
    return {
        "file": str(path.relative_to(FIXTURES)),
        "lines_scanned": trail.lines_scanned,
        "last_complete_line": trail.last_complete_line,
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
            for e in trail.events
        ],
    }


def render(value: dict) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    GOLDENS.mkdir(exist_ok=True)
    for path in claude_code_files():
        target = GOLDENS / golden_name(path)
        target.write_text(render(describe(path)), encoding="utf-8")
        print(f"wrote {target.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
