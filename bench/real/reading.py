"""Reading files for the labellers: a session's events (masked, as the pipeline sees them),
the tool calls between them (for judging what is true at the end: a push that failed, tests
that passed), and the numbered candidate statements to label.

    python -m bench.real.reading OUT_DIR --raw RAW_FOLDER

Reading files are derived, never committed: the raw trails are needed for the tool calls.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench.real.sessions import Session, sessions
from synth.masking import mask_text

TOOL_CHARS = 160


def _short(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return mask_text(text[:TOOL_CHARS])[0]


def tool_lines(raw: Path) -> dict[int, list[str]]:
    """Per raw line index: the tool calls it makes and the results it returns, one short line
    each."""
    found: dict[int, list[str]] = {}
    for index, line in enumerate(raw.read_bytes().splitlines()):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        message = record.get("message") if isinstance(record, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list) or record.get("isSidechain"):
            continue
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use":
                given = block.get("input") or {}
                detail = next((given[k] for k in ("command", "file_path", "pattern", "description",
                                                  "prompt", "url") if k in given), given)
                found.setdefault(index, []).append(f"tool {block.get('name')}: {_short(detail)}")
            elif block.get("type") == "tool_result":
                body = block.get("content")
                if isinstance(body, list):
                    body = " ".join(b.get("text", "") for b in body if isinstance(b, dict))
                mark = "ERROR " if block.get("is_error") else ""
                found.setdefault(index, []).append(f"result {mark}{_short(body or '')}")
    return found


def render(session: Session, raw: Path | None) -> str:
    tools = tool_lines(raw) if raw is not None and raw.exists() else {}
    events = {event.seq: event for event in session.events}
    out = [f"# Session {session.name}", "",
           "## Trail (events are what the pipeline sees; `..` lines are tool calls and results,",
           "## shown only to help you judge what is true at the end)", ""]
    last = max([*events, *tools], default=-1)
    for seq in range(last + 1):
        for line in tools.get(seq, []):
            out.append(f"   .. [{seq}] {line}")
        if seq in events:
            event = events[seq]
            out.append(f"\n[{seq}] {event.role.upper()} {event.ts}")
            out.append(event.content)
            out.append("")
    out += ["", "## Candidate statements (label every one)", ""]
    for index, (window, candidate) in enumerate(session.statements):
        out.append(f"S{index} (seq {candidate.seq}, {candidate.role}): {candidate.text}")
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--raw", type=Path, required=True,
                        help="the folder of raw session files (tool calls for the digest lines)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for session in sessions():
        raw = args.raw / f"{session.name}.jsonl"
        (args.out / f"{session.name}.md").write_text(render(session, raw), encoding="utf-8")
    print(f"reading files in {args.out}")


if __name__ == "__main__":
    main()
