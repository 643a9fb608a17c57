"""Report → typed memory items (contract §2.8): the section map, content rules and metadata.

Pure: no storage here. Item ids are `<attempt>:<index>` in the order sections and items are
walked, so a rerun of the same window lands on the same ids.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ingest.windows import Window
from synth.report import MEMORY_TYPES, SECTIONS, parse_ts

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


def report_to_items(report: dict, window: Window) -> list[MemoryItem]:
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
            session_id = raw.get("session_id") or None
            if session_id:
                metadata["session_id"] = session_id
            if section == "outcomes" and raw.get("result"):
                metadata["outcome_result"] = raw["result"]
            items.append(
                MemoryItem(
                    index=len(items),
                    memory_type=MEMORY_TYPES[section],
                    content=item_content(section, raw),
                    metadata=metadata,
                    ts_valid_start=parse_ts(raw.get("ts") or raw.get("ts_start")),
                    ts_valid_end=parse_ts(raw.get("ts_end")),
                    session_id=session_id,
                    evidence=tuple(raw.get("evidence") or ()),
                )
            )
    return items


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
