"""Cursor's `state.vscdb` SQLite stores → one node per conversation (chat tab or composer).

Three generations are read (trail-formats §2): the legacy chat panel
(`workbench.panel.aichat.view.aichat.chatdata` → `tabs[].bubbles[]`), composers with an inline
`conversation[]` (`composer.composerData`), and modern global rows (`composerData:<id>` with
`fullConversationHeadersOnly`, plus `bubbleId:<composerId>:<bubbleId>`). seq is the bubble's
position in its conversation, which only grows. Times come from the bubble, else the
conversation's own times, else the database file's mtime: never the run clock.

The database is opened read-only; if Cursor holds it, a copy (with its -wal) is read instead.
Only the chat keys are read: the same tables hold auth tokens, which we never touch.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from ingest.content import DEFAULT_MAX_EVENT_CHARS, DEFAULT_RECALL_TAGS, finish_content
from ingest.errors import UnreadableTrail
from ingest.events import Event, ParsedTrail
from ingest.scan import scan_units
from ingest.sqlite_ro import open_readonly
from ingest.times import iso_utc

CHAT_KEY = "workbench.panel.aichat.view.aichat.chatdata"
COMPOSER_KEY = "composer.composerData"


@dataclass
class Conversation:
    key: str  # "chat-<tabId>" or "composer-<composerId>"
    title: str | None
    bubbles: list[dict]
    created_ms: int | None = None
    updated_ms: int | None = None
    extra: dict = field(default_factory=dict)


def _tables(con: sqlite3.Connection) -> set[str]:
    return {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def _json(value) -> object:
    if value is None:
        return None
    if isinstance(value, memoryview):
        value = bytes(value)
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return None


def _get(con: sqlite3.Connection, table: str, key: str) -> object:
    row = con.execute(f"SELECT value FROM {table} WHERE key = ?", [key]).fetchone()  # noqa: S608
    return _json(row[0]) if row else None


def load_conversations(path: Path) -> list[Conversation]:
    """Every conversation with at least one bubble, from every generation the file holds."""
    try:
        with open_readonly(path) as con:
            tables = _tables(con)
            found: list[Conversation] = []
            if "ItemTable" in tables:
                found += _legacy_chats(_get(con, "ItemTable", CHAT_KEY))
                found += _inline_composers(_get(con, "ItemTable", COMPOSER_KEY))
            if "cursorDiskKV" in tables:
                found += _modern_composers(con)
    except sqlite3.DatabaseError as error:
        raise UnreadableTrail(f"{path}: {error}") from None
    return [conversation for conversation in found if conversation.bubbles]


def _legacy_chats(data: object) -> list[Conversation]:
    if not isinstance(data, dict):
        return []
    chats = []
    for tab in data.get("tabs") or []:
        if isinstance(tab, dict) and tab.get("tabId"):
            bubbles = [b for b in tab.get("bubbles") or [] if isinstance(b, dict)]
            last = tab.get("lastSendTime")
            chats.append(Conversation(f"chat-{tab['tabId']}", tab.get("chatTitle"), bubbles,
                                      None, last if isinstance(last, int) else None))
    return chats


def _inline_composers(data: object) -> list[Conversation]:
    if not isinstance(data, dict):
        return []
    found = []
    for composer in data.get("allComposers") or []:
        if isinstance(composer, dict) and composer.get("composerId"):
            bubbles = [b for b in composer.get("conversation") or [] if isinstance(b, dict)]
            found.append(_composer(composer, bubbles))
    return found


def _composer(composer: dict, bubbles: list[dict]) -> Conversation:
    def ms(value):
        return value if isinstance(value, int) else None

    return Conversation(f"composer-{composer['composerId']}", composer.get("name"), bubbles,
                        ms(composer.get("createdAt")), ms(composer.get("lastUpdatedAt")))


def _modern_composers(con: sqlite3.Connection) -> list[Conversation]:
    found = []
    rows = con.execute("SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%'")
    for key, value in rows.fetchall():
        composer = _json(value)
        if not isinstance(composer, dict):
            continue
        composer.setdefault("composerId", key.split(":", 1)[1])
        headers = composer.get("fullConversationHeadersOnly")
        if isinstance(headers, list) and headers:
            bubbles = []
            for header in headers:
                bubble_id = header.get("bubbleId") if isinstance(header, dict) else None
                bubble = _get(con, "cursorDiskKV", f"bubbleId:{composer['composerId']}:{bubble_id}")
                if not isinstance(bubble, dict):  # listed but not written yet: keep the position
                    bubble = {"type": header.get("type") if isinstance(header, dict) else None}
                bubbles.append(bubble)
        else:
            bubbles = [b for b in composer.get("conversation") or [] if isinstance(b, dict)]
        found.append(_composer(composer, bubbles))
    return found


def lexical_text(rich: object) -> str:
    """Plain text of a Lexical editor state (richText), for bubbles whose `text` is empty."""
    state = _json(rich) if isinstance(rich, (str, bytes)) else rich
    parts: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("text"), str):
                parts.append(node["text"])
            for child in node.get("children") or []:
                walk(child)
            if node.get("type") == "paragraph":
                parts.append("\n")
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(state.get("root") if isinstance(state, dict) else None)
    return "".join(parts).strip()


def _bubble_role(bubble: dict) -> str | None:
    kind = bubble.get("type")
    if kind in (1, "user"):
        return "user"
    if kind in (2, "ai", "assistant"):
        return "assistant"
    return None


def bubble_event(seq: int, bubble: dict, *, session: str, default_ts: str | None,
                 max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
                 recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS) -> Event | None:
    role = _bubble_role(bubble)
    if role is None:
        return None
    text = bubble.get("text") if isinstance(bubble.get("text"), str) else ""
    if not text.strip() and role == "user":
        text = lexical_text(bubble.get("richText"))
    content = finish_content(text, max_event_chars, recall_tags=recall_tags, prompt=role == "user")
    if content is None:
        return None
    timing = bubble.get("timingInfo")
    ts = (iso_utc(bubble.get("createdAt"))
          or iso_utc(timing.get("clientEndTime") if isinstance(timing, dict) else None)
          or default_ts)
    return Event(seq=seq, ts=ts, session_id=session, role=role,
                 kind="prompt" if role == "user" else "reply", content=content)


def parse_conversation(
    conversation: Conversation,
    *,
    project: str,
    fallback_ms: float,
    start_line: int = 0,
    max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
    recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS,
) -> ParsedTrail:
    """Bubbles from position `start_line` → events. Every bubble is complete once written."""
    default_ts = (iso_utc(conversation.created_ms) or iso_utc(conversation.updated_ms)
                  or iso_utc(fallback_ms))
    session = f"{project}:{conversation.key}"
    units = ((seq, seq + 1, bubble) for seq, bubble in enumerate(conversation.bubbles))
    return scan_units(
        units,
        lambda seq, bubble: bubble_event(seq, bubble, session=session, default_ts=default_ts,
                                         max_event_chars=max_event_chars, recall_tags=recall_tags),
        start=start_line, path=f"{project}#{conversation.key}")
