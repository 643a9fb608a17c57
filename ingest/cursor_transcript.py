"""Cursor agent transcripts (`agent-transcripts/<id>/<id>.jsonl`) → events (contract §5.3).

Lines are `{role, message:{content:[…]}}` with no ids and no timestamps. A user prompt's time comes
from a `<timestamp>` tag in its text ("Tuesday, Jul 21, 2026, 1:11 PM (UTC+3)"); replies inherit the
last prompt's time; before any, the file's mtime. seq is the raw line index.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

from ingest.claude_code import message_text
from ingest.content import DEFAULT_MAX_EVENT_CHARS, DEFAULT_RECALL_TAGS, finish_content
from ingest.events import Event, ParsedTrail, Reject
from ingest.lines import complete_lines, loads_object
from ingest.times import iso_z

_TIMESTAMP_TAG = re.compile(r"<timestamp>(.{0,80}?)</timestamp>", re.S)
_USER_QUERY = re.compile(r"<user_query>(.*?)</user_query>", re.S)
_REDACTED_TAIL = re.compile(r"(?:\s*\[REDACTED\])+\s*\Z")
_MONTHS = {m: i + 1 for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
_CURSOR_TS = re.compile(
    r"^\s*(?:[A-Za-z]+,\s*)?(?P<mon>[A-Za-z]{3})[a-z]*\.?\s+(?P<day>\d{1,2}),\s*(?P<year>\d{4}),?\s+"
    r"(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2}))?\s*(?P<ampm>[AaPp][Mm])\s*"
    r"\(UTC(?:(?P<sign>[+-])(?P<oh>\d{1,2})(?::(?P<om>\d{2}))?)?\)\s*$"
)


def parse_cursor_timestamp(text: str) -> str | None:
    """"Tuesday, Jul 21, 2026, 1:11 PM (UTC+3)" → "2026-07-21T13:11:00+03:00"; None if invalid."""
    match = _CURSOR_TS.match(text)
    if not match:
        return None
    month = _MONTHS.get(match["mon"].lower())
    hour = int(match["hour"])
    if month is None or not 1 <= hour <= 12:
        return None
    hour = hour % 12 + (12 if match["ampm"].lower() == "pm" else 0)
    offset_minutes = 0
    if match["sign"]:
        offset_minutes = int(match["oh"]) * 60 + int(match["om"] or 0)
        if offset_minutes >= 24 * 60:
            return None
        if match["sign"] == "-":
            offset_minutes = -offset_minutes
    try:
        moment = datetime(
            int(match["year"]), month, int(match["day"]), hour, int(match["minute"]),
            int(match["second"] or 0), tzinfo=timezone(timedelta(minutes=offset_minutes)),
        )
    except ValueError:
        return None
    return moment.isoformat()


def user_text(text: str) -> tuple[str, str | None]:
    """(prompt text, parsed timestamp or None) from a user line's raw text."""
    stamp = None
    tag = _TIMESTAMP_TAG.search(text)
    if tag:
        stamp = parse_cursor_timestamp(tag.group(1))
    query = _USER_QUERY.search(text)
    if query:
        return query.group(1).strip(), stamp
    if tag:
        text = text[: tag.start()] + text[tag.end() :]
    return text.strip(), stamp


def strip_redacted_tail(text: str) -> str:
    return _REDACTED_TAIL.sub("", text)


def parse_cursor_transcript(
    data: bytes,
    *,
    project: str,
    stem: str,
    mtime: float,
    path: str = "<bytes>",
    start_line: int = 0,
    max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
    recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS,
) -> ParsedTrail:
    trail = ParsedTrail(events=[], start_line=start_line, last_complete_line=-1)
    current_ts = iso_z(datetime.fromtimestamp(mtime, UTC))
    session = f"{project}:{stem}"
    for index, line in complete_lines(data):
        if index < start_line:
            # Earlier lines still set the inherited time of the replies that follow.
            if b"<timestamp>" in line:
                record, _ = loads_object(line)
                if record and record.get("role") == "user":
                    _, stamp = user_text(message_text((record.get("message") or {}).get("content")))
                    current_ts = stamp or current_ts
            continue
        trail.lines_scanned += 1
        trail.last_complete_line = index
        record, why = loads_object(line)
        role = record.get("role") if record else None
        if role not in ("user", "assistant"):
            trail.noise_lines += 1
            if why and why.startswith("reject:"):
                trail.rejects.append(Reject(path, index + 1, why.removeprefix("reject: ")))
            continue
        message = record.get("message")
        if not isinstance(message, dict):
            trail.rejects.append(Reject(path, index + 1, f"{role} line without a message object"))
            continue
        text = message_text(message.get("content"))
        if role == "user":
            text, stamp = user_text(text)
            current_ts = stamp or current_ts
        else:
            text = strip_redacted_tail(text)
        content = finish_content(text, max_event_chars, recall_tags=recall_tags)
        if content is None:
            trail.noise_lines += 1
            continue
        trail.events.append(Event(
            seq=index, ts=current_ts, session_id=session, role=role,
            kind="prompt" if role == "user" else "reply", content=content,
        ))
    return trail
