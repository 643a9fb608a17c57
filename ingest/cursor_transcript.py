"""Cursor agent transcripts (`agent-transcripts/<id>/<id>.jsonl`) → events (contract §5.3).

Lines are `{role, message:{content:[…]}}` with no ids and no timestamps. A user prompt's time comes
from a `<timestamp>` tag in its text ("Tuesday, Jul 21, 2026, 1:11 PM (UTC+3)"); replies inherit the
last prompt's time; before any, the file's mtime. seq is the raw line index.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

from ingest.content import (
    DEFAULT_MAX_EVENT_CHARS,
    DEFAULT_RECALL_TAGS,
    finish_content,
    message_text,
)
from ingest.events import Event, ParsedTrail
from ingest.lines import lines_from
from ingest.scan import Outcome, Rejected, decode_line, scan_lines
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


class CursorTranscriptLines:
    """The per-line rules of a Cursor agent transcript, for `scan_lines`. State that spans lines:
    the time of the last prompt, which the replies after it inherit."""

    candidates = None

    def __init__(self, session: str, mtime: float, *,
                 max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
                 recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS) -> None:
        self.session = session
        self.max_event_chars = max_event_chars
        self.recall_tags = recall_tags
        self.current_ts = iso_z(datetime.fromtimestamp(mtime, UTC))

    def rebuild(self, data: bytes, offset: int) -> None:
        """Earlier prompts still set the inherited time of the replies that follow."""
        for _, line in lines_from(data, 0, 0, end=offset):
            if b"<timestamp>" in line:
                record = decode_line(line)
                if isinstance(record, dict) and record.get("role") == "user":
                    message = record.get("message")
                    content = message.get("content") if isinstance(message, dict) else None
                    _, stamp = user_text(message_text(content))
                    self.current_ts = stamp or self.current_ts

    def parse(self, seq: int, record: dict) -> Outcome:
        role = record.get("role")
        if role not in ("user", "assistant"):
            return None
        message = record.get("message")
        if not isinstance(message, dict):
            return Rejected(f"{role} line without a message object")
        text = message_text(message.get("content"))
        if role == "user":
            text, stamp = user_text(text)
            self.current_ts = stamp or self.current_ts
        else:
            text = strip_redacted_tail(text)
        content = finish_content(text, self.max_event_chars, recall_tags=self.recall_tags,
                                 prompt=role == "user")
        if content is None:
            return None
        return Event(seq=seq, ts=self.current_ts, session_id=self.session, role=role,
                     kind="prompt" if role == "user" else "reply", content=content)


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
    parser = CursorTranscriptLines(f"{project}:{stem}", mtime, max_event_chars=max_event_chars,
                                   recall_tags=recall_tags)
    return scan_lines(data, parser, start_line=start_line, path=path)
