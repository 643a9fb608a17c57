"""Derive the benchmark's sessions from the raw trails (entireio/cli's public Claude Code
sessions, MIT; provenance in data/manifest.json and data/LICENSE): each session parsed by the
project's Claude Code parser and masked by the project's masker, written as compact JSONL (one
event a line, the submit wire shape) with a manifest of provenance and split.

    python -m bench.real.derive --source RAW_FOLDER   # the folder of raw session .jsonl files

The raw folder is not carried by the repository; what the benchmark reads is `data/`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from bench.split import split_of
from ingest.claude_code import parse_claude_code
from synth.masking import mask_event

HERE = Path(__file__).parent
DATA = HERE / "data"
SESSIONS = DATA / "sessions"
MANIFEST = DATA / "manifest.json"
PROJECT = "entireio-cli"


def derive_session(path: Path) -> tuple[list[dict], dict]:
    """The masked events of one raw session file, and its manifest row."""
    data = path.read_bytes()
    trail = parse_claude_code(data, project=PROJECT, path=str(path))
    events, masked = [], 0
    for event in trail.events:
        clean, spans = mask_event(event)
        masked += spans
        events.append(clean.to_dict())
    name = path.stem
    row = {
        "session": name,
        "split": split_of(name),
        "source_file": path.name,
        "source_sha256": hashlib.sha256(data).hexdigest(),
        "source_bytes": len(data),
        "eof_line": trail.last_complete_line,
        "events": len(events),
        "chars": sum(len(e["content"]) for e in events),
        "masked_spans": masked,
    }
    return events, row


def derive(source: Path) -> list[dict]:
    files = sorted(source.glob("*.jsonl"))
    if not files:
        raise SystemExit(f"no *.jsonl in {source}: point --source at the raw sessions folder")
    SESSIONS.mkdir(parents=True, exist_ok=True)
    rows = []
    for path in files:
        events, row = derive_session(path)
        with open(SESSIONS / f"{row['session']}.jsonl", "w", encoding="utf-8") as out:
            for event in events:
                out.write(json.dumps(event, ensure_ascii=False) + "\n")
        rows.append(row)
    MANIFEST.write_text(json.dumps({"source": "entireio/cli branch entire/checkpoints/v1 "
                                    "(tip 394f81fab87f71aa8938d91ff7a067c524ff344b)",
                                    "licence": "MIT (c) 2026 Entire Inc. (LICENSE beside this file)",
                                    "sessions": rows}, indent=1) + "\n")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, required=True,
                        help="the folder of raw Claude Code session files (*.jsonl)")
    args = parser.parse_args()
    rows = derive(args.source.resolve())
    print(f"{len(rows)} sessions, {sum(r['events'] for r in rows)} events, "
          f"{sum(r['split'] == 'test' for r in rows)} test, into {SESSIONS}")


if __name__ == "__main__":
    main()
