"""OpenClaw trails → events: session transcripts (pi session format v3) and the memclaw plugin's
interview buffer (contract §6.1).

Sessions: `message` entries with roles user and assistant; tool results, bash executions, custom
entries and compactions never become events. User text loses OpenClaw's envelope (the `Sender` /
`Conversation info (untrusted metadata)` blocks, the `[channel date]` prefix, a trailing
`[message_id: …]`); a prompt re-recorded for each fallback model counts once; failed empty replies,
gateway notices and silent-reply sentinels are dropped. seq is the raw line index.

Buffer: one C2 event per line, seq from the line itself; a torn final line waits for the next run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ingest.content import (
    DEFAULT_MAX_EVENT_CHARS,
    DEFAULT_RECALL_TAGS,
    finish_content,
    message_text,
)
from ingest.events import MAX_SEQ, Event, ParsedTrail
from ingest.lines import lines_from
from ingest.scan import Outcome, Rejected, decode_line, scan_lines, scan_units
from ingest.times import iso_utc

# OpenClaw mirrors every message (no length floor): a one-word answer can be the decision. A
# user's bare acknowledgement is dropped, as in every source (`ingest.replies`).
MIN_OPENCLAW_CHARS = 1

_ENVELOPE = re.compile(
    r"\A\s*(?:(?:Sender|Conversation info|Chat info|Channel info)\s*\(untrusted metadata\):\s*"
    r"```(?:json)?\s*.*?```\s*)+",
    re.S,
)
_DATE_PREFIX = re.compile(r"\A\s*\[[^\]\n]{0,40}\d{4}-\d{2}-\d{2}[^\]\n]{0,40}\]\s*")
_MESSAGE_ID_TAIL = re.compile(r"\s*\[message_id:[^\]\n]*\]\s*\Z")
_REPLY_TAG = re.compile(r"\A\s*(?:\[\[[a-z_:]+\]\]\s*)+")
_SENTINELS = frozenset({"NO_REPLY", "HEARTBEAT_OK"})
_NOT_HUMAN_PREFIXES = ("[cron:", "[heartbeat", "[system event", "[System event")
# A gateway command (`/mode`, `/model x`, `/think high`): a setting, not something to remember.
_BARE_COMMAND = re.compile(r"\A/[A-Za-z][\w-]*(?:[ \t]+\S+)?\Z")


def user_prompt_text(text: str) -> str | None:
    """The human's words of an OpenClaw user message, or None when it is not a human prompt."""
    text = _ENVELOPE.sub("", text)
    text = _DATE_PREFIX.sub("", text)
    text = _MESSAGE_ID_TAIL.sub("", text).strip()
    if text.startswith(_NOT_HUMAN_PREFIXES) or "HEARTBEAT" in text[:40]:
        return None
    if _BARE_COMMAND.match(text):
        return None
    return text


def assistant_text(message: dict) -> str | None:
    if message.get("provider") == "openclaw" or message.get("model") == "gateway-injected":
        return None
    if message.get("stopReason") in ("error", "aborted") and not message.get("content"):
        return None
    text = _REPLY_TAG.sub("", message_text(message.get("content"))).strip()
    if text in _SENTINELS:
        return None
    return text


def _entry_ts(record: dict, message: dict) -> str | None:
    stamp = record.get("timestamp")
    if isinstance(stamp, str) and stamp:
        return stamp
    return iso_utc(message.get("timestamp"))


class OpenClawSessionLines:
    """The per-line rules of an OpenClaw session, for `scan_lines`. State that spans lines: the
    last prompt, so a prompt re-recorded for a fallback model counts once."""

    candidates = None

    def __init__(self, agent: str, stem: str, *, max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
                 recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS) -> None:
        self.session = f"{agent}:{stem}"
        self.max_event_chars = max_event_chars
        self.recall_tags = recall_tags
        self.last_user_text: str | None = None

    def rebuild(self, data: bytes, offset: int) -> None:
        """The last prompt before the cursor, so a re-record right after it is known."""
        for _, line in lines_from(data, 0, 0, end=offset):
            record = decode_line(line)
            if isinstance(record, dict) and record.get("type") == "message":
                message = record.get("message")
                if isinstance(message, dict):
                    self._text(message)

    def _text(self, message: dict) -> str | None:
        """The message's text, remembering prompts; None for a user line that is a re-record."""
        role = message.get("role")
        if role == "user":
            text = user_prompt_text(message_text(message.get("content")))
            if text is not None and text == self.last_user_text:
                return None
            self.last_user_text = text
            return text
        text = assistant_text(message)
        if text:
            self.last_user_text = None
        return text

    def parse(self, seq: int, record: dict) -> Outcome:
        if record.get("type") != "message":
            return None
        message = record.get("message")
        if not isinstance(message, dict):
            return Rejected("message entry without a message object")
        role = message.get("role")
        if role not in ("user", "assistant"):  # toolResult, bashExecution, custom: never events
            return None
        text = self._text(message)
        content = finish_content(text or "", self.max_event_chars, MIN_OPENCLAW_CHARS,
                                 self.recall_tags, prompt=role == "user")
        if content is None:
            return None
        ts = _entry_ts(record, message)
        if ts is None:
            return Rejected("message without a timestamp")
        return Event(seq=seq, ts=ts, session_id=self.session, role=role,
                     kind="prompt" if role == "user" else "reply", content=content)


def parse_openclaw_session(
    data: bytes,
    *,
    agent: str,
    stem: str,
    path: str = "<bytes>",
    start_line: int = 0,
    max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
    recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS,
) -> ParsedTrail:
    parser = OpenClawSessionLines(agent, stem, max_event_chars=max_event_chars,
                                  recall_tags=recall_tags)
    return scan_lines(data, parser, start_line=start_line, path=path)


def buffer_units(data: bytes) -> Iterator[tuple[int | None, int, dict | Rejected]]:
    """(seq, line, record) of the plugin buffer; a line without an integer seq, or with one not
    after the previous, is a reject outside the seq space."""
    last_seq = -1
    for index, line in lines_from(data, 0, 0):
        record = decode_line(line)
        seq = record.get("seq") if isinstance(record, dict) else None
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            if line.strip():
                reason = (record.reason if isinstance(record, Rejected) else
                          "not a JSON object" if record is None else "line without an integer seq")
                yield None, index + 1, Rejected(reason)
            continue
        if seq <= last_seq:
            yield None, index + 1, Rejected(f"seq {seq} not after {last_seq}")
            continue
        if seq > MAX_SEQ:
            yield None, index + 1, Rejected(f"seq {seq} over the largest seq, {MAX_SEQ}")
            continue
        last_seq = seq
        yield seq, index + 1, record


def buffer_event(seq: int, record: dict, *, max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
                 recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS) -> Event | None:
    content = finish_content(str(record.get("content") or ""), max_event_chars, MIN_OPENCLAW_CHARS,
                             recall_tags, prompt=record.get("role") == "user")
    ts = record.get("ts")
    if content is None or not isinstance(ts, str):
        return None
    tool, outcome = record.get("tool"), record.get("outcome")
    return Event(
        seq=seq, ts=ts, session_id=record.get("session_id"),
        role=str(record.get("role") or "unknown")[:64], kind=str(record.get("kind") or "message")[:64],
        content=content,
        tool=str(tool)[:200] if tool else None, outcome=str(outcome)[:200] if outcome else None,
    )


def parse_plugin_buffer(
    data: bytes,
    *,
    path: str = "<bytes>",
    start_seq: int = 0,
    max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
    recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS,
) -> ParsedTrail:
    """The plugin's buffer: events keep the seq the plugin gave them; bad lines are reported."""
    return scan_units(
        buffer_units(data),
        lambda seq, record: buffer_event(seq, record, max_event_chars=max_event_chars,
                                         recall_tags=recall_tags),
        start=start_seq, path=path)
