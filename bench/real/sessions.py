"""The benchmark's sessions as the pipeline sees them: events, windows and candidate statements.

A statement's id is its index among the session's candidates, window after window (the
extractor picks among exactly these), so labels written against one segmentation stay attached
to their text: `statement_key` is what a label is matched by.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ingest.events import Event
from ingest.windows import Window, cut_windows
from synth.extract.candidates import Candidate, window_candidates

HERE = Path(__file__).parent
DATA = HERE / "data"
NODE_PREFIX = "cc:realbench000:"


@dataclass(frozen=True)
class Session:
    name: str
    split: str
    events: tuple[Event, ...]
    windows: tuple[Window, ...]
    statements: tuple[tuple[int, Candidate], ...]  # (window number, candidate), session order


def manifest() -> list[dict]:
    return json.loads((DATA / "manifest.json").read_text())["sessions"]


def load_events(name: str) -> list[Event]:
    with open(DATA / "sessions" / f"{name}.jsonl", encoding="utf-8") as handle:
        return [Event(**json.loads(line)) for line in handle if line.strip()]


@lru_cache(maxsize=None)
def load_session(name: str) -> Session:
    row = next(r for r in manifest() if r["session"] == name)
    events = load_events(name)
    windows = cut_windows(events, node_id=NODE_PREFIX + name, agent_id="claude-code",
                          cursor_from=0, eof_line=row["eof_line"])
    statements = tuple((number, candidate) for number, window in enumerate(windows)
                       for candidate in window_candidates(list(window.events)))
    return Session(name, row["split"], tuple(events), tuple(windows), statements)


def sessions(split: str | None = None) -> list[Session]:
    return [load_session(r["session"]) for r in manifest() if split in (None, r["split"])]


def statement_key(candidate: Candidate) -> str:
    return f"{candidate.seq}:{candidate.text}"
