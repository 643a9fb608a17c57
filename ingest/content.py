"""Turning raw message text into event content, the same way for every source: cut recalled
memory that an earlier recall step injected (so memories never breed memories), scrub client-side
secrets, apply the length floor (replies) or drop what says nothing (prompts), truncate."""

from __future__ import annotations

import functools
import re

from ingest.replies import says_nothing
from ingest.scrub import scrub

MIN_EVENT_CHARS = 60
DEFAULT_MAX_EVENT_CHARS = 4000

# Blocks that recall/memory plugins inject into prompts. Configurable: `recall_guard_tags`.
DEFAULT_RECALL_TAGS = (
    "memclaw-context",
    "claude-mem-context",
    "supermemory",
    "supermemory-context",
    "relevant-memories",
    "relevant_memories",
    "recalled-memories",
    "memory-context",
    "system-reminder",
)


@functools.cache
def _guard_pattern(tags: tuple[str, ...]) -> re.Pattern[str] | None:
    if not tags:
        return None
    names = "|".join(re.escape(tag) for tag in sorted(tags, key=len, reverse=True))
    # A closed block, or an opening tag left unclosed (cut to the end: better lose a tail of
    # recalled text than keep it).
    return re.compile(rf"<(?P<tag>{names})\b[^>]*>(?:.*?</(?P=tag)\s*>|.*\Z)", re.S | re.I)


def cut_recalled(text: str, tags: tuple[str, ...] = DEFAULT_RECALL_TAGS) -> str:
    pattern = _guard_pattern(tags)
    if pattern is None or "<" not in text:
        return text
    return pattern.sub("", text)


def finish_content(
    text: str,
    max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
    min_chars: int = MIN_EVENT_CHARS,
    recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS,
    *,
    prompt: bool = False,
) -> str | None:
    """guard → strip → scrub → floor → truncate; None when not kept. A user's `prompt` has no
    floor: it is kept unless it says nothing (a bare acknowledgement, a slash command without
    arguments; `ingest.replies`), so "use pnpm" and "C)" are events and "ok, continue" is not."""
    text = scrub(cut_recalled(text, recall_tags).strip())
    if prompt:
        return None if says_nothing(text) else text[:max_event_chars]
    if len(text) < min_chars:
        return None
    return text[:max_event_chars]


def message_text(content: object) -> str:
    """Plain-string content as is; block lists (Claude Code, Cursor, OpenClaw, Codex) joined by
    newline from their text blocks."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            text = block.get("text")
            if isinstance(text, str) and text:
                parts.append(text)
    return "\n".join(parts)
