"""The written stories' dev split (`bench/quality/`) as statement labels for the head: a
candidate statement that holds a planted fact's source is a keep of that fact's type, one that
matches an acceptable statement is left out (true, but of no labelled type), every other is junk.
The stories are short and dense where real sessions are long and sparse; training on both keeps
the head from learning only one of them. Test stories are never read here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ingest.claude_code import parse_claude_code
from ingest.windows import Window, cut_windows
from synth.extract.candidates import Candidate, window_candidates
from synth.masking import mask_event

SET = Path(__file__).resolve().parents[1] / "quality"
WINDOW_CHARS = 6000  # as bench/quality.py cuts them


@dataclass(frozen=True)
class StoryTrail:
    name: str
    windows: tuple[Window, ...]
    labels: dict[tuple[int, int], str | None]  # (window, candidate) → head class; None: leave out
    distinct_keeps: int


def _norm(text: str) -> str:
    return " ".join(text.replace("**", "").split()).casefold()


def _label(candidate: Candidate, facts: list[dict], acceptable: list[str]) -> str | None:
    text = _norm(candidate.text)
    for fact in facts:
        if any(_norm(source) in text or (len(text) > 30 and text in _norm(source))
               for source in fact["source"]):
            kind = fact["type"]
            return f"outcome:{fact.get('result') or 'partial'}" if kind == "outcome" else kind
    if any(text and (text in a or a in text) for a in acceptable):
        return None
    return "junk"


def story_trails(split: str = "dev") -> list[StoryTrail]:
    labels = json.loads((SET / "labels.json").read_text())
    out = []
    for trail in labels["trails"]:
        story = labels["stories"][trail["story"]]
        if trail["split"] != split or trail["shape"] != "claude-code":
            continue
        acceptable = [_norm(a["statement"]) for a in story.get("acceptable", [])]
        for number, name in enumerate(trail["files"]):
            data = (SET / name).read_bytes()
            parsed = parse_claude_code(data, project=trail["story"], path=name)
            events = [mask_event(event)[0] for event in parsed.events]
            windows = cut_windows(events, node_id=f"story:{trail['story']}:{number}",
                                  agent_id="claude-code", cursor_from=0,
                                  eof_line=parsed.last_complete_line, max_chars=WINDOW_CHARS)
            marks: dict[tuple[int, int], str | None] = {}
            found = set()
            for w, window in enumerate(windows):
                for c, candidate in enumerate(window_candidates(list(window.events))):
                    marks[(w, c)] = _label(candidate, story["facts"], acceptable)
                    if marks[(w, c)] not in (None, "junk"):
                        found.add(candidate.text)
            out.append(StoryTrail(f"{trail['story']}#{number}", tuple(windows), marks, len(found)))
    return out
