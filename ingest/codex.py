"""OpenAI Codex CLI rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`) → events.

Every line is `{timestamp, type, payload}` (docs/trail-formats.md has the whole format):
- `session_meta` (first line): the session's id and `cwd`, whose folder name is the project;
- `response_item`: model I/O. `message` items with role `user` (`input_text` parts) or
  `assistant` (`output_text` parts) are kept; reasoning, function calls and their outputs, and
  `developer`/`system` messages never are;
- `event_msg`: runtime events. `user_message` and `agent_message` repeat the text of the
  `response_item` messages (in either order); each message is kept once. Token counts, reasoning
  and the rest are noise;
- `turn_context`, `compacted`: noise.

The context Codex injects as user messages (AGENTS.md instructions, `<environment_context>`,
`<user_instructions>`, …) is harness text, never a prompt. seq is the raw line index; an event's
time is its line's `timestamp`.
"""

from __future__ import annotations

import re

from ingest.content import DEFAULT_MAX_EVENT_CHARS, DEFAULT_RECALL_TAGS, finish_content
from ingest.events import Event, ParsedTrail
from ingest.lines import lines_from
from ingest.scan import Outcome, Rejected, decode_line, scan_lines

_INJECTED_PREFIXES = (
    "# AGENTS.md instructions",
    "<INSTRUCTIONS>",
    "<environment_context>",
    "<user_instructions>",
    "<user_shell_command>",
    "<permissions instructions>",
    "<turn_aborted>",
    "<subagent_notification>",
)
_KEPT_TYPES = re.compile(rb'"(?:message|user_message|agent_message|session_meta)"')
_TEXT_PARTS = {"user": "input_text", "assistant": "output_text"}
_EVENT_ROLES = {"user_message": "user", "agent_message": "assistant"}


def message_parts_text(content: object, part_type: str) -> str:
    """The text of a message's `input_text` / `output_text` parts, joined by newline."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "\n".join(part["text"] for part in content
                     if isinstance(part, dict) and part.get("type") == part_type
                     and isinstance(part.get("text"), str) and part["text"])


def is_injected(text: str) -> bool:
    return text.lstrip().startswith(_INJECTED_PREFIXES)


class CodexLines:
    """The per-line rules of a Codex rollout, for `scan_lines`. State that spans lines: the
    session id (from `session_meta`), and the messages whose twin (the same text as the other
    record kind) is still to come."""

    candidates = _KEPT_TYPES

    def __init__(self, project: str, stem: str, *, max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
                 recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS) -> None:
        self.project = project
        self.session = stem
        self.max_event_chars = max_event_chars
        self.recall_tags = recall_tags
        self.awaiting_twin: dict[tuple[str, str, str], int] = {}  # (kind, role, text) → count

    def rebuild(self, data: bytes, offset: int) -> None:
        """The session id and the pending twins, exactly as a scan from line 0 leaves them."""
        for index, line in lines_from(data, 0, 0, end=offset):
            record = decode_line(line)
            if isinstance(record, dict):
                self.parse(index, record)

    def parse(self, seq: int, record: dict) -> Outcome:
        payload = record.get("payload")
        line_type = record.get("type")
        if not isinstance(payload, dict):
            return Rejected(f"{line_type} line without a payload object") if line_type else None
        if line_type == "session_meta":
            if isinstance(payload.get("id"), str) and payload["id"]:
                self.session = payload["id"]
            return None
        if line_type == "response_item" and payload.get("type") == "message":
            role = payload.get("role")
            if role not in _TEXT_PARTS:
                return None  # developer and system messages
            return self._event(seq, record, "item", role,
                               message_parts_text(payload.get("content"), _TEXT_PARTS[role]))
        if line_type == "event_msg" and payload.get("type") in _EVENT_ROLES:
            message = payload.get("message")
            return self._event(seq, record, "event", _EVENT_ROLES[payload["type"]],
                               message if isinstance(message, str) else "")
        return None

    def _event(self, seq: int, record: dict, kind: str, role: str, text: str) -> Outcome:
        text = text.strip()
        if not text or is_injected(text):
            return None
        twin = ("event" if kind == "item" else "item", role, text)
        if self.awaiting_twin.get(twin):  # the other record of a message already kept
            self.awaiting_twin[twin] -= 1
            return None
        key = (kind, role, text)
        self.awaiting_twin[key] = self.awaiting_twin.get(key, 0) + 1
        timestamp = record.get("timestamp")
        if not isinstance(timestamp, str) or not timestamp:
            return Rejected("message without a timestamp")
        content = finish_content(text, self.max_event_chars, recall_tags=self.recall_tags,
                                 prompt=role == "user")
        if content is None:
            return None
        return Event(seq=seq, ts=timestamp, session_id=f"{self.project}:{self.session}", role=role,
                     kind="prompt" if role == "user" else "reply", content=content)


def parse_codex(
    data: bytes,
    *,
    project: str,
    stem: str,
    path: str = "<bytes>",
    start_line: int = 0,
    max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
    recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS,
) -> ParsedTrail:
    parser = CodexLines(project, stem, max_event_chars=max_event_chars, recall_tags=recall_tags)
    return scan_lines(data, parser, start_line=start_line, path=path)


def session_project(head: bytes) -> str | None:
    """The project (the folder name of `cwd`) from a rollout's first line, or None."""
    first = decode_line(head.split(b"\n", 1)[0])
    if not isinstance(first, dict) or first.get("type") != "session_meta":
        return None
    payload = first.get("payload")
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    if not isinstance(cwd, str) or not cwd.strip("/\\"):
        return None
    return re.split(r"[/\\]", cwd.rstrip("/\\"))[-1]
