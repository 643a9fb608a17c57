"""Cutting a node's events into bounded, contiguous windows (contract §5.5).

A window is `(node_id, agent_id, cursor_from, cursor_to, events)`. Windows hold at most
`max_events` events and `max_chars` characters of content; the next window starts at the previous
`cursor_to + 1`, and the last one runs to the last complete line, past a filtered noise tail.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ingest.events import Event
from ingest.replies import is_acknowledgement

MAX_EVENTS_PER_WINDOW = 400
MAX_WINDOW_CHARS = 150_000
MIN_WINDOW_EVENTS = 10
MIN_WINDOW_CHARS = 2_000


def attempt_id(node_id: str, cursor_from: int, cursor_to: int) -> str:
    """`interview:` + sha1(node_id:cursor_from:cursor_to), computed here and never trusted."""
    key = f"{node_id}:{cursor_from}:{cursor_to}".encode()
    return "interview:" + hashlib.sha1(key, usedforsecurity=False).hexdigest()


@dataclass(frozen=True, slots=True)
class Window:
    node_id: str
    agent_id: str
    cursor_from: int
    cursor_to: int
    events: tuple[Event, ...]
    tenant_id: str | None = None
    fleet_id: str | None = None
    command_id: str | None = None

    @property
    def attempt_id(self) -> str:
        return attempt_id(self.node_id, self.cursor_from, self.cursor_to)

    @property
    def chars(self) -> int:
        return sum(len(event.content) for event in self.events)

    def to_body(self) -> dict[str, Any]:
        """The submit body of contract §1.1."""
        body: dict[str, Any] = {
            "tenant_id": self.tenant_id,
            "node_id": self.node_id,
            "agent_id": self.agent_id,
            "cursor_from": self.cursor_from,
            "cursor_to": self.cursor_to,
            "events": [event.to_dict() for event in self.events],
        }
        if self.fleet_id is not None:
            body["fleet_id"] = self.fleet_id
        if self.command_id is not None:
            body["command_id"] = self.command_id
        return body


def cut_windows(
    events: list[Event] | tuple[Event, ...],
    *,
    node_id: str,
    agent_id: str,
    cursor_from: int,
    eof_line: int,
    max_events: int = MAX_EVENTS_PER_WINDOW,
    max_chars: int = MAX_WINDOW_CHARS,
    tenant_id: str | None = None,
) -> list[Window]:
    """Greedy, order-preserving cut. Zero events → no window (a submit needs one event)."""
    windows: list[Window] = []
    batch: list[Event] = []
    batch_chars = 0
    start = cursor_from
    for event in events:
        size = len(event.content)
        if batch and (len(batch) >= max_events or batch_chars + size > max_chars):
            end = batch[-1].seq
            windows.append(Window(node_id, agent_id, start, end, tuple(batch), tenant_id))
            start = end + 1
            batch, batch_chars = [], 0
        batch.append(event)
        batch_chars += size
    if batch:
        end = max(eof_line, batch[-1].seq)
        windows.append(Window(node_id, agent_id, start, end, tuple(batch), tenant_id))
    return windows


def worth_interviewing(
    window: Window,
    *,
    flush: bool = False,
    min_events: int = MIN_WINDOW_EVENTS,
    min_chars: int = MIN_WINDOW_CHARS,
) -> bool:
    """The dribble gate: a small tail waits for more activity unless flushed. Acknowledgements
    ("ok", "thanks", "continue") count for nothing, and a window made only of them is never
    interviewed, flushed or not (as a window of no events)."""
    said = [event for event in window.events if not is_acknowledgement(event.content)]
    if not said:
        return False
    return flush or len(said) >= min_events or sum(len(e.content) for e in said) >= min_chars
