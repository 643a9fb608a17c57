"""The event: one kept user prompt or assistant reply, with the field names of contract §1.1."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The largest seq or cursor: 2**53 - 1, the largest integer every JSON client keeps exact (the
# OpenClaw plugin's numbers are doubles). Contract §1.1 bounds them below only; any bound leaves
# room for `cursor_to - cursor_from + 1` and friends in the lake's BIGINT columns.
MAX_SEQ = 2**53 - 1


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    ts: str
    session_id: str | None
    role: str
    kind: str
    content: str
    tool: str | None = None
    outcome: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The wire shape: optional fields are omitted when absent, as producers send them."""
        body: dict[str, Any] = {
            "seq": self.seq,
            "ts": self.ts,
            "session_id": self.session_id,
            "role": self.role,
            "kind": self.kind,
            "content": self.content,
        }
        if self.tool is not None:
            body["tool"] = self.tool
        if self.outcome is not None:
            body["outcome"] = self.outcome
        return body


@dataclass(slots=True)
class Reject:
    """A line we could not use, counted and reported with where and why (invariant 6)."""

    path: str
    line: int
    reason: str


@dataclass(slots=True)
class ParsedTrail:
    """What one scan of a trail file from `start_line` yields.

    `last_complete_line` is the 0-based index of the last newline-terminated line scanned (-1 when
    none past `start_line`); a torn final line is left for the next run.
    """

    events: list[Event]
    start_line: int
    last_complete_line: int
    lines_scanned: int = 0
    noise_lines: int = 0
    repaired_lines: int = 0  # read with U+FFFD for bytes that were not UTF-8 (kept, not rejected)
    rejects: list[Reject] = field(default_factory=list)
