"""Report → typed memory items (contract §2.8): the section map, content rules and metadata.

Pure: no storage here. Item ids are `<attempt>:<index>` in the order sections and items are
walked, so a rerun of the same window lands on the same ids.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ingest.windows import Window
from synth.report import MEMORY_TYPES, SECTIONS, parse_ts
from synth.statements import Statement, most_specific, near_same

MAX_CONTENT_LENGTH = 10_000
MIN_CONTENT_LENGTH = 10
_MEMORY_NAMESPACE = uuid.UUID("4b0c6c1e-7a52-4c59-9a0e-6f1f1f0d6a11")


@dataclass(frozen=True, slots=True)
class MemoryItem:
    index: int
    memory_type: str
    content: str
    metadata: dict[str, Any]
    ts_valid_start: datetime | None
    ts_valid_end: datetime | None
    session_id: str | None
    evidence: tuple[int, ...] = ()  # seqs of the events the item rests on


def item_content(section: str, item: dict) -> str:
    summary = str(item.get("summary", "")).strip()
    if section == "decisions" and item.get("rationale"):
        summary = f"{summary} — rationale: {item['rationale']}"
    elif section == "outcomes" and item.get("result"):
        summary = f"[{item['result']}] {summary}"
    return summary[:MAX_CONTENT_LENGTH]


def _cited(window: Window, evidence: tuple[int, ...]) -> list:
    """The cited events; without any, the window's first event."""
    cited = set(evidence)
    return [e for e in window.events if e.seq in cited] or list(window.events[:1])


def event_time(window: Window, evidence: tuple[int, ...]) -> datetime | None:
    """The earliest time among the cited events (without any, the window's first event's).
    Event time, never the run's clock: a memory is dated by what it rests on."""
    times = [t for e in _cited(window, evidence) if (t := parse_ts(e.ts)) is not None]
    return min(times) if times else None


def event_session(window: Window, evidence: tuple[int, ...]) -> str | None:
    """The session of the earliest cited event that names one."""
    return next((e.session_id for e in _cited(window, evidence) if e.session_id), None)


def report_to_items(report: dict, window: Window) -> list[MemoryItem]:
    """The report's items as memories, one per statement (`one_per_statement`), each dated:
    the model's time when it gave one (grounded to an event already), else its evidence's."""
    items: list[MemoryItem] = []
    for section in SECTIONS:
        for raw in report.get(section, []) or []:
            if not isinstance(raw, dict) or not str(raw.get("summary", "")).strip():
                continue
            metadata: dict[str, Any] = {
                "source": "interviewer",
                "category": section,
                "node_id": window.node_id,
                "written_by": "interviewer",
            }
            if window.command_id:
                metadata["command_id"] = window.command_id
            evidence = tuple(raw.get("evidence") or ())
            session_id = raw.get("session_id") or event_session(window, evidence)
            if session_id:
                metadata["session_id"] = session_id
            if section == "outcomes" and raw.get("result"):
                metadata["outcome_result"] = raw["result"]
            start = parse_ts(raw.get("ts") or raw.get("ts_start")) or event_time(window, evidence)
            items.append(
                MemoryItem(
                    index=len(items),
                    memory_type=MEMORY_TYPES[section],
                    content=item_content(section, raw),
                    metadata=metadata,
                    ts_valid_start=start,
                    ts_valid_end=parse_ts(raw.get("ts_end")),
                    session_id=session_id,
                    evidence=evidence,
                )
            )
    return one_per_statement(items)


def one_per_statement(items: list[MemoryItem]) -> list[MemoryItem]:
    """The same (or nearly the same) statement under several sections is one memory: the most
    specific type of them (`synth.statements.TYPE_PRECEDENCE`), the content of the first item of
    that type, every item's evidence, the earliest start. Indexes follow the kept order, so a
    rerun of the same report lands on the same ids."""
    groups: list[list[MemoryItem]] = []
    features: list[Statement] = []
    for item in items:
        said = Statement.of(item.content)
        for group, first in zip(groups, features):
            if near_same(said, first):
                group.append(item)
                break
        else:
            groups.append([item])
            features.append(said)
    kept = []
    for group in groups:
        winner_type = most_specific([item.memory_type for item in group])
        winner = next(item for item in group if item.memory_type == winner_type)
        evidence = tuple(sorted({seq for item in group for seq in item.evidence}))
        starts = [item.ts_valid_start for item in group if item.ts_valid_start is not None]
        metadata = winner.metadata
        if len(group) > 1:
            metadata = {**metadata, "also_reported_as": sorted(
                {item.memory_type for item in group} - {winner_type})}
        kept.append(replace(winner, index=len(kept), evidence=evidence, metadata=metadata,
                            ts_valid_start=min(starts) if starts else None))
    return kept


def content_hash(tenant_id: str, fleet_id: str | None, content: str) -> str:
    return hashlib.sha256(f"{tenant_id}:{fleet_id or ''}:{content}".encode()).hexdigest()


def memory_id(tenant_id: str, fleet_id: str | None, client_request_id: str) -> str:
    """Stable across reruns: the same item of the same attempt always has the same id."""
    return str(uuid.uuid5(_MEMORY_NAMESPACE, f"{tenant_id}:{fleet_id or ''}:{client_request_id}"))


def item_error(item: MemoryItem) -> str | None:
    size = len(item.content.strip())
    if size < MIN_CONTENT_LENGTH:
        return f"content shorter than {MIN_CONTENT_LENGTH} characters"
    if len(item.content) > MAX_CONTENT_LENGTH:
        return f"content longer than {MAX_CONTENT_LENGTH} characters"
    return None
