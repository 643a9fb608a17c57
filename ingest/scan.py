"""The one scan loop every parser runs in. It owns the cursor and the counters; a parser only says,
per line (or per unit of a database), what the line is: an `Event`, noise (`None`), or a typed
`Rejected` that is reported with its place and reason.

Two shapes of trail:
- `scan_lines`: JSONL bytes. seq is the raw line index; a final line without a newline is a torn,
  mid-append tail that is left for the next run. The loop decodes each line (a line too large or
  not JSON is a reject; blank or non-object lines are noise; bytes that are not UTF-8 become
  U+FFFD, as the reference client decodes, and the line counts as repaired) and hands objects to the
  parser. A parser may name a byte `candidates` pattern: lines without it are noise, passed in C
  without a Python step each. Before the cursor, the parser's `rebuild` sees the bytes already
  consumed, so state that spans lines (seen uuids, the inherited time) is what a full scan has.
- `scan_units`: units with their own seq (bubbles of a conversation, task rows, buffer entries).

Counters are the same for every parser: `lines_scanned` units at or after the cursor,
`noise_lines` of them that did not become events (rejects included), `rejects` listed,
`repaired_lines` of them read with U+FFFD for bytes that were not UTF-8.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

from ingest.events import Event, ParsedTrail, Reject
from ingest.lines import MAX_LINE_BYTES, count_complete_lines, line_offset, lines_from


@dataclass(frozen=True, slots=True)
class Rejected:
    """A unit we cannot use and must report: why, and (for units outside the seq space, such as a
    buffer line without a seq) the 1-based line it is on."""

    reason: str
    line: int | None = None


Outcome = Event | Rejected | None  # None: noise, passed silently


class Repaired(dict):
    """A line's object read with U+FFFD in place of bytes that were not UTF-8 (one latin-1 byte in
    a prompt): kept, as the reference client keeps it, and counted as repaired."""


class LineParser(Protocol):
    candidates: re.Pattern[bytes] | None

    def rebuild(self, data: bytes, offset: int) -> None:
        """State from the complete lines before byte `offset` (the lines already consumed)."""

    def parse(self, seq: int, record: dict) -> Outcome: ...


def decode_line(line: bytes) -> dict | Rejected | None:
    """One line as a JSON object (a `Repaired` one when bytes that are not UTF-8 had to become
    U+FFFD); a reject when it is not JSON (or too large); noise (None) when it is blank or JSON
    but not an object."""
    stripped = line.strip()
    if not stripped:
        return None
    if len(line) > MAX_LINE_BYTES:
        return Rejected(f"line of {len(line):,} bytes is over the {MAX_LINE_BYTES:,} limit")
    try:
        value = orjson.loads(stripped)
    except orjson.JSONDecodeError as error:
        try:
            text = stripped.decode("utf-8")
        except UnicodeDecodeError as err:
            value = _loads_lenient(stripped.decode("utf-8", "replace"))
            if value is None:
                return Rejected(f"invalid UTF-8 at byte {err.start}")
            return Repaired(value) if isinstance(value, dict) else None
        value = _lenient_json(text)
        if value is None:
            return Rejected(f"not JSON ({str(error).split(':', 1)[0]})")
    return value if isinstance(value, dict) else None


def _loads_lenient(text: str) -> object | None:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return _lenient_json(text)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _lenient_json(text: str) -> object | None:
    """JSON that orjson refuses only for a lone surrogate escape (`"\\ud83d"`, a cut emoji): parsed
    by the standard library, each lone surrogate replaced by U+FFFD. None if it is not JSON."""
    if not _SURROGATE_ESCAPE.search(text):
        return None
    try:
        return _replace_surrogates(json.loads(text))
    except (ValueError, RecursionError):
        return None


def _replace_surrogates(value: object) -> object:
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_replace_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {_replace_surrogates(key): _replace_surrogates(item) for key, item in value.items()}
    return value


def scan_lines(data: bytes, parser: LineParser, *, start_line: int = 0,
               path: str = "<bytes>") -> ParsedTrail:
    """Scan JSONL `data` from line `start_line`; every complete line advances the cursor."""
    offset = line_offset(data, start_line)
    trail = ParsedTrail(events=[], start_line=start_line, last_complete_line=-1)
    trail.lines_scanned = count_complete_lines(data, offset)
    if trail.lines_scanned:
        trail.last_complete_line = start_line + trail.lines_scanned - 1
    parser.rebuild(data, offset)
    if parser.candidates is None:
        lines = lines_from(data, offset, start_line)
    else:
        lines = candidate_lines(data, offset, start_line, parser.candidates)
    for index, line in lines:
        decoded = decode_line(line)
        trail.repaired_lines += isinstance(decoded, Repaired)
        outcome = parser.parse(index, decoded) if isinstance(decoded, dict) else decoded
        _count(trail, path, index, outcome)
    trail.noise_lines = trail.lines_scanned - len(trail.events)
    return trail


def scan_units(units: Iterable[tuple[int | None, int, Any]], parse: Callable[[int, Any], Outcome],
               *, start: int = 0, path: str = "<bytes>") -> ParsedTrail:
    """Scan `(seq, line, unit)` in seq order from seq `start`. A unit may already be a `Rejected`;
    one with seq None lies outside the seq space and is only reported."""
    trail = ParsedTrail(events=[], start_line=start, last_complete_line=-1)
    for seq, line, unit in units:
        if seq is None:
            if isinstance(unit, Rejected):
                trail.rejects.append(Reject(path, unit.line or line, unit.reason))
            continue
        if seq < start:
            continue
        trail.lines_scanned += 1
        trail.repaired_lines += isinstance(unit, Repaired)
        trail.last_complete_line = seq
        outcome = unit if isinstance(unit, Rejected) else parse(seq, unit)
        _count(trail, path, line - 1, outcome)
    trail.noise_lines = trail.lines_scanned - len(trail.events)
    return trail


def _count(trail: ParsedTrail, path: str, index: int, outcome: Outcome) -> None:
    if isinstance(outcome, Event):
        trail.events.append(outcome)
    elif isinstance(outcome, Rejected):
        trail.rejects.append(Reject(path, outcome.line or index + 1, outcome.reason))


def candidate_lines(data: bytes, offset: int, index: int, marker: re.Pattern[bytes],
                    end: int | None = None) -> Iterator[tuple[int, bytes]]:
    """(index, line) of the complete lines from byte `offset` (line `index`), up to byte `end`,
    that hold `marker`.

    The search runs in C over the whole buffer, so lines without it (progress, snapshots, system
    lines: most lines of a Claude Code session) are passed without a Python step each.
    """
    end = len(data) if end is None else end
    while True:
        found = marker.search(data, offset, end)
        if found is None:
            return
        newline = data.rfind(b"\n", offset, found.start())
        line_start = offset if newline < 0 else newline + 1
        line_end = data.find(b"\n", found.end(), end)
        if line_end < 0:
            return  # torn tail: not a complete line
        index += data.count(b"\n", offset, line_start)
        yield index, data[line_start:line_end]
        index += 1
        offset = line_end + 1
