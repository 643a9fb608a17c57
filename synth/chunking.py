"""`chunk_events`: the map-phase split of a window (contract §2.4).

Greedy and order-preserving under a budget of estimated prompt characters. Events are never split;
an oversize event forms its own chunk; nothing is dropped.
"""

from __future__ import annotations

from ingest.events import Event

CHUNK_MAX_CHARS = 96_000
_ENVELOPE_CHARS = 80  # seq, ts, session and role around each event line


def event_cost(event: Event) -> int:
    cost = len(event.content) + _ENVELOPE_CHARS
    if event.tool:
        cost += len(event.tool) + 6
    if event.outcome:
        cost += len(event.outcome) + 9
    return cost


def chunk_events(events, max_chars: int = CHUNK_MAX_CHARS) -> list[list[Event]]:
    chunks: list[list[Event]] = []
    current: list[Event] = []
    used = 0
    for event in events:
        cost = event_cost(event)
        if current and used + cost > max_chars:
            chunks.append(current)
            current, used = [], 0
        current.append(event)
        used += cost
    if current:
        chunks.append(current)
    return chunks
