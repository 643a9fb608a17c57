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

from ingest.claude_code import message_text
from ingest.content import DEFAULT_MAX_EVENT_CHARS, DEFAULT_RECALL_TAGS, finish_content
from ingest.events import Event, ParsedTrail, Reject
from ingest.lines import complete_lines, loads_object
from ingest.times import iso_utc

# OpenClaw mirrors every message (no length floor): a one-word answer can be the decision.
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


def user_prompt_text(text: str) -> str | None:
    """The human's words of an OpenClaw user message, or None when it is not a human prompt."""
    text = _ENVELOPE.sub("", text)
    text = _DATE_PREFIX.sub("", text)
    text = _MESSAGE_ID_TAIL.sub("", text).strip()
    if text.startswith(_NOT_HUMAN_PREFIXES) or "HEARTBEAT" in text[:40]:
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
    trail = ParsedTrail(events=[], start_line=start_line, last_complete_line=-1)
    session = f"{agent}:{stem}"
    last_user_text: str | None = None  # for fallback-model re-records
    for index, line in complete_lines(data):
        record, why = loads_object(line)
        if index < start_line:
            # Remember the last prompt before the window, so a re-record right after it is known.
            if record and record.get("type") == "message":
                message = record.get("message") or {}
                if message.get("role") == "user":
                    last_user_text = user_prompt_text(message_text(message.get("content")))
                elif message.get("role") == "assistant" and assistant_text(message):
                    last_user_text = None
            continue
        trail.lines_scanned += 1
        trail.last_complete_line = index
        if record is None:
            trail.noise_lines += 1
            if why and why.startswith("reject:"):
                trail.rejects.append(Reject(path, index + 1, why.removeprefix("reject: ")))
            continue
        if record.get("type") != "message":
            trail.noise_lines += 1
            continue
        message = record.get("message")
        if not isinstance(message, dict):
            trail.rejects.append(Reject(path, index + 1, "message entry without a message object"))
            continue
        role = message.get("role")
        if role == "user":
            text = user_prompt_text(message_text(message.get("content")))
            if text is not None and text == last_user_text:
                trail.noise_lines += 1
                continue
            last_user_text = text
        elif role == "assistant":
            text = assistant_text(message)
            if text:
                last_user_text = None
        else:  # toolResult, bashExecution, custom: never events
            trail.noise_lines += 1
            continue
        ts = _entry_ts(record, message)
        content = finish_content(text or "", max_event_chars, MIN_OPENCLAW_CHARS, recall_tags)
        if content is None or ts is None:
            trail.noise_lines += 1
            if content is not None:
                trail.rejects.append(Reject(path, index + 1, "message without a timestamp"))
            continue
        trail.events.append(Event(
            seq=index, ts=ts, session_id=session, role=role,
            kind="prompt" if role == "user" else "reply", content=content,
        ))
    return trail


def parse_plugin_buffer(
    data: bytes,
    *,
    path: str = "<bytes>",
    start_seq: int = 0,
    max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
    recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS,
) -> ParsedTrail:
    """The plugin's buffer: events keep the seq the plugin gave them; bad lines are skipped."""
    trail = ParsedTrail(events=[], start_line=start_seq, last_complete_line=-1)
    last_seq = -1
    for index, line in complete_lines(data):
        record, why = loads_object(line)
        seq = record.get("seq") if record else None
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            if line.strip():
                reason = why.removeprefix("reject: ") if why else "line without an integer seq"
                trail.rejects.append(Reject(path, index + 1, reason))
            continue
        if seq <= last_seq:
            trail.rejects.append(Reject(path, index + 1, f"seq {seq} not after {last_seq}"))
            continue
        last_seq = seq
        if seq < start_seq:
            continue
        trail.lines_scanned += 1
        trail.last_complete_line = seq
        content = finish_content(str(record.get("content") or ""), max_event_chars,
                                 MIN_OPENCLAW_CHARS, recall_tags)
        ts = record.get("ts")
        if content is None or not isinstance(ts, str):
            trail.noise_lines += 1
            continue
        tool, outcome = record.get("tool"), record.get("outcome")
        trail.events.append(Event(
            seq=seq, ts=ts, session_id=record.get("session_id"),
            role=str(record.get("role") or "unknown")[:64], kind=str(record.get("kind") or "message")[:64],
            content=content,
            tool=str(tool)[:200] if tool else None, outcome=str(outcome)[:200] if outcome else None,
        ))
    return trail
