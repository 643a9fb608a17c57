"""Splitting raw trail bytes into numbered lines: the seq rule shared by every JSONL source.

seq is the 0-based raw line index. A final line without a trailing newline is a torn, mid-append
tail: it is not complete, it is left for the next run, and the cursor never passes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson

MAX_LINE_BYTES = 50 * 1024 * 1024


def complete_lines(data: bytes, start_line: int = 0) -> Iterator[tuple[int, bytes]]:
    """Yield (index, line) for every newline-terminated line at or after `start_line`."""
    index = 0
    pos = 0
    size = len(data)
    while pos < size:
        end = data.find(b"\n", pos)
        if end < 0:
            return  # torn tail
        if index >= start_line:
            yield index, data[pos:end]
        index += 1
        pos = end + 1


def count_complete_lines(data: bytes, offset: int = 0) -> int:
    return data.count(b"\n", offset)


def line_offset(data: bytes, line: int) -> int:
    """Byte offset where 0-based line `line` starts (len(data) when the data has fewer lines)."""
    offset = 0
    for _ in range(line):
        found = data.find(b"\n", offset)
        if found < 0:
            return len(data)
        offset = found + 1
    return offset


def loads_object(line: bytes) -> tuple[dict | None, str | None]:
    """Parse one line as a JSON object: (object, None), or (None, why it is noise or a reject).

    The reason starts with "reject:" for lines that must be reported (too large, not UTF-8); other
    reasons are plain noise that the cursor passes silently.
    """
    stripped = line.strip()
    if not stripped:
        return None, "blank"
    if len(line) > MAX_LINE_BYTES:
        return None, f"reject: line of {len(line):,} bytes is over the {MAX_LINE_BYTES:,} limit"
    try:
        value = orjson.loads(stripped)
    except orjson.JSONDecodeError:
        try:
            stripped.decode("utf-8")
        except UnicodeDecodeError as err:
            return None, f"reject: invalid UTF-8 at byte {err.start}"
        return None, "not JSON"
    if not isinstance(value, dict):
        return None, f"JSON {type(value).__name__}, not an object"
    return value, None


def read_trail_bytes(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()
