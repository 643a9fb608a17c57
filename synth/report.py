"""The report: six sections, its pydantic model, the JSON schema for constrained decoding, the
deterministic reduce of contract §2.7, and the timestamp guard (invariant 5)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

SECTIONS = (
    "worked_on",
    "decisions",
    "outcomes",
    "blockers",
    "open_questions",
    "preferences_learned",
)
MEMORY_TYPES = {
    "worked_on": "episode",
    "decisions": "decision",
    "outcomes": "outcome",
    "blockers": "task",
    "open_questions": "fact",
    "preferences_learned": "preference",
}
SECTION_OF = {memory_type: section for section, memory_type in MEMORY_TYPES.items()}
MAX_ITEMS_PER_SECTION = 15
MAX_EVIDENCE = 5
_TS_FIELDS = ("ts", "ts_start", "ts_end")


class _Item(BaseModel):
    model_config = ConfigDict(extra="ignore")
    summary: str
    evidence: list[int] = Field(default_factory=list)  # seqs of the events the item rests on


class WorkedOn(_Item):
    ts_start: str | None = None
    ts_end: str | None = None
    session_id: str | None = None


class Decision(_Item):
    rationale: str | None = None
    ts: str | None = None


class Outcome(_Item):
    result: Literal["success", "failure", "partial"] | None = None
    ts: str | None = None


class Note(_Item):
    ts: str | None = None


class Report(BaseModel):
    model_config = ConfigDict(extra="ignore")
    worked_on: list[WorkedOn] = Field(default_factory=list)
    decisions: list[Decision] = Field(default_factory=list)
    outcomes: list[Outcome] = Field(default_factory=list)
    blockers: list[Note] = Field(default_factory=list)
    open_questions: list[Note] = Field(default_factory=list)
    preferences_learned: list[Note] = Field(default_factory=list)

    def as_dict(self) -> dict[str, list[dict[str, Any]]]:
        return self.model_dump(mode="json")


class InvalidReport(ValueError):
    """The model's answer is not a report: not JSON, or not of the report's shape."""


def parse_report(text: str) -> Report:
    """Parse a model answer; tolerate a fenced block, refuse anything that is not the shape."""
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`")
        body = body.removeprefix("json").strip()
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError as error:
        raise InvalidReport(f"answer is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise InvalidReport(f"answer is JSON {type(value).__name__}, not an object")
    try:
        return Report.model_validate(value)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise InvalidReport(f"answer does not match the report schema at {where}: {first['msg']}")


def report_json_schema(
    max_items: int = MAX_ITEMS_PER_SECTION,
    max_chars: int = 600,
    timestamps: list[str] | tuple[str, ...] | None = None,
    sessions: list[str] | tuple[str, ...] | None = None,
    seqs: list[int] | tuple[int, ...] | None = None,
    evidence_first: bool = False,
) -> dict:
    """A flat (no $ref) JSON schema that llama.cpp grammars and vLLM guided decoding both take.

    Given the chunk's event timestamps (and session ids), every `ts` field may only be one of
    them or null: constrained decoding then cannot invent a time, by construction. Given its
    seqs, every item's `evidence` is 1 to 5 of them: it cannot cite an event it was not shown.
    """
    text = {"type": "string", "minLength": 10, "maxLength": max_chars}
    nullable_text = {"anyOf": [{"type": "string", "maxLength": max_chars}, {"type": "null"}]}
    if timestamps:
        nullable_ts = {"enum": [*dict.fromkeys(timestamps), None]}
    else:
        nullable_ts = {"anyOf": [{"type": "string", "maxLength": 40}, {"type": "null"}]}
    if sessions:
        nullable_session = {"enum": [*dict.fromkeys(sessions), None]}
    else:
        nullable_session = {"anyOf": [{"type": "string", "maxLength": 200}, {"type": "null"}]}

    if seqs:
        evidence = {"type": "array", "items": {"enum": list(dict.fromkeys(seqs))},
                    "minItems": 1, "maxItems": MAX_EVIDENCE}
    else:
        evidence = {"type": "array", "items": {"type": "integer"}, "minItems": 1,
                    "maxItems": MAX_EVIDENCE}

    def section(properties: dict) -> dict:
        # Constrained decoding writes properties in order: evidence first makes a model pick its
        # events before it writes about them (the lean prompt of small models).
        if evidence_first:
            properties = {"evidence": evidence, **properties}
        else:
            properties = {**properties, "evidence": evidence}
        return {
            "type": "array",
            "maxItems": max_items,
            "items": {
                "type": "object",
                "properties": properties,
                "required": list(properties),
                "additionalProperties": False,
            },
        }

    simple = section({"summary": text, "ts": nullable_ts})
    properties = {
        "worked_on": section(
            {
                "summary": text,
                "ts_start": nullable_ts,
                "ts_end": nullable_ts,
                "session_id": nullable_session,
            }
        ),
        "decisions": section({"summary": text, "rationale": nullable_text, "ts": nullable_ts}),
        "outcomes": section(
            {
                "summary": text,
                "result": {"enum": ["success", "failure", "partial"]},
                "ts": nullable_ts,
            }
        ),
        "blockers": simple,
        "open_questions": simple,
        "preferences_learned": simple,
    }
    return {
        "type": "object",
        "properties": properties,
        "required": list(SECTIONS),
        "additionalProperties": False,
    }


def merge_reports(reports: list[dict | None], cap: int = MAX_ITEMS_PER_SECTION) -> dict:
    """The reduce: chunk order, canonical section order, case-insensitive dedup, cap per section.
    An item said again by a later chunk adds its evidence to the first one's."""
    merged: dict[str, list[dict]] = {name: [] for name in SECTIONS}
    seen: dict[tuple[str, str], dict] = {}
    for report in reports:
        if not isinstance(report, dict):
            continue
        for name in SECTIONS:
            items = report.get(name)
            if not isinstance(items, list):
                continue
            for item in items:
                if not isinstance(item, dict):
                    continue
                summary = item.get("summary")
                if not isinstance(summary, str) or not summary.strip():
                    continue
                key = (name, summary.strip().lower())
                if key in seen:
                    first = seen[key]
                    first["evidence"] = _seqs([*first.get("evidence", []), *_seqs(item.get("evidence"))])
                    continue
                if len(merged[name]) < cap:
                    item = {**item, "evidence": _seqs(item.get("evidence"))}
                    merged[name].append(item)
                    seen[key] = item
                else:
                    seen[key] = {}
    return merged


def _seqs(value: object) -> list[int]:
    """Evidence as given: the distinct integer seqs, in order; anything else is left out."""
    if not isinstance(value, list):
        return []
    return list(dict.fromkeys(v for v in value if isinstance(v, int) and not isinstance(v, bool)))


_INSTRUCTION = re.compile(
    r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|above|"
    r"earlier|your)\s+(?:instructions|prompts?|rules|directions)|\bsystem prompt\b|"
    r"\byou are now\b|\bnew instructions?\s*:|\bdisable (?:your )?safety\b|\bjailbreak\b"
)


def item_text(item: dict) -> str:
    """What an item says: its summary, and a decision's rationale."""
    return " ".join(str(item.get(key) or "") for key in ("summary", "rationale")).strip()


def drop_instructions(report: dict) -> tuple[dict, int]:
    """Drop items that read as instructions to a model rather than facts about the work: trail
    text that tried to steer the interviewer must not become a memory that steers the next one."""
    kept: dict[str, list[dict]] = {}
    dropped = 0
    for name in SECTIONS:
        kept[name] = []
        for item in report.get(name, []):
            if _INSTRUCTION.search(item_text(item)):
                dropped += 1
            else:
                kept[name].append(item)
    return kept, dropped


def parse_ts(value: object) -> datetime | None:
    """Non-empty string, trailing Z accepted, naive read as UTC; anything else → None."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed


def ground_timestamps(report: dict, event_ts: list[str],
                      ts_by_seq: dict[int, str] | None = None) -> tuple[dict, int]:
    """Replace each report timestamp by the event timestamp it names.

    A model may drop milliseconds or the zone letter, so a match is the same instant to the second;
    the stored value is always the event's own timestamp. Without `ts_by_seq`, a time must name an
    event of the window (`event_ts`), else it becomes null. Given the window's times by seq, an
    item that cites events takes its time from them: a time that names none of its cited events
    (another event's, an invented one, or null) becomes the first cited event's (`ts_end`: the
    last's), so a memory's time is always when its evidence happened (invariant 5). Returns
    (report, timestamps dropped: the model's non-null times not kept).
    """
    window = _instants(event_ts)
    dropped = 0
    grounded: dict[str, list[dict]] = {}
    for name in SECTIONS:
        items = []
        for item in report.get(name, []):
            item = dict(item)
            cited = [ts_by_seq[seq] for seq in item.get("evidence") or []
                     if ts_by_seq is not None and seq in ts_by_seq]
            allowed = _instants(cited) if cited else window
            for field in _TS_FIELDS:
                if field not in item or (item[field] is None and not cited):
                    continue
                parsed = parse_ts(item[field])
                key = parsed.astimezone(UTC).replace(microsecond=0) if parsed else None
                if key in allowed:
                    item[field] = allowed[key]
                    continue
                dropped += item[field] is not None
                item[field] = (cited[-1] if field == "ts_end" else cited[0]) if cited else None
            items.append(item)
        grounded[name] = items
    return grounded, dropped


def _instants(timestamps: list[str]) -> dict[datetime, str]:
    """Each timestamp by its instant to the second (the first of equal instants)."""
    by_second: dict[datetime, str] = {}
    for ts in timestamps:
        parsed = parse_ts(ts)
        if parsed is not None:
            by_second.setdefault(parsed.astimezone(UTC).replace(microsecond=0), ts)
    return by_second


def unsynthesized_report(event_count: int, first_ts: str, last_ts: str, *,
                         node_id: str | None = None, cursor_from: int | None = None,
                         cursor_to: int | None = None) -> dict:
    """The reference's report when no model is configured (§2.6): one episode, never nothing. It
    names its window (node, seq range, times), so two windows of one node with the same event
    count never collide as content duplicates; the reference's closing words stay."""
    where = ""
    if node_id is not None:
        where = f" on {node_id} (seq {cursor_from}..{cursor_to}, {first_ts} to {last_ts})"
    report: dict[str, list[dict]] = {name: [] for name in SECTIONS}
    report["worked_on"].append(
        {
            "summary": f"Activity window of {event_count} events{where} (LLM unavailable; unsynthesized).",
            "ts_start": first_ts,
            "ts_end": last_ts,
            "session_id": None,
        }
    )
    return report
