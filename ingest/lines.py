"""Splitting raw trail bytes into numbered lines: the seq rule shared by every JSONL source.

seq is the 0-based raw line index. A final line without a trailing newline is a torn, mid-append
tail: it is not complete, it is left for the next run, and the cursor never passes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

MAX_LINE_BYTES = 50 * 1024 * 1024


def complete_lines(data: bytes, start_line: int = 0) -> Iterator[tuple[int, bytes]]:
    """Yield (index, line) for every newline-terminated line at or after `start_line`."""
    yield from lines_from(data, line_offset(data, start_line), start_line)


def lines_from(data: bytes, offset: int, index: int,
               end: int | None = None) -> Iterator[tuple[int, bytes]]:
    """Yield (index, line) for the newline-terminated lines from byte `offset` (line `index`),
    up to byte `end` (default: all of `data`)."""
    size = len(data) if end is None else end
    while offset < size:
        stop = data.find(b"\n", offset)
        if stop < 0:
            return  # torn tail
        yield index, data[offset:stop]
        index += 1
        offset = stop + 1


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


def read_trail_bytes(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()
