"""OpenClaw's task trail (contract §6.3): `task` and `task_result` events from `task_runs` tables.

Busy agents do most of their work in background tasks that never reach the chat transcript; this
reads them straight from OpenClaw's SQLite (read-only, columns probed). At most two events per
task: `task` when first seen, `task_result` once it has ended. seq is `2 × rowid` for the task and
`2 × rowid + 1` for its result, so a node's cursor stops before the first task still running: its
result, when it comes, is never behind the watermark. A task silent for more than 8 days is closed
with a "still <status>" result so one stuck task cannot hold the trail forever.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from ingest.content import DEFAULT_MAX_EVENT_CHARS, DEFAULT_RECALL_TAGS, finish_content
from ingest.errors import UnreadableTrail
from ingest.events import Event, ParsedTrail
from ingest.scan import scan_units
from ingest.sqlite_ro import open_readonly
from ingest.times import iso_utc

REQUIRED = ("task_id", "status", "created_at", "task")
OPTIONAL = ("last_event_at", "ended_at", "label", "runtime", "agent_id", "progress_summary",
            "terminal_summary", "terminal_outcome", "error", "child_session_key",
            "requester_session_key")
STALE_SECONDS = 8 * 24 * 3600


def has_task_table(path: Path) -> bool:
    try:
        with open_readonly(path) as con:
            return con.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name='task_runs'"
            ).fetchone() is not None
    except (UnreadableTrail, sqlite3.DatabaseError, OSError):
        return False


def read_task_rows(path: Path) -> list[dict]:
    """Rows of `task_runs` with the columns this database has, in rowid order."""
    try:
        with open_readonly(path) as con:
            columns = {row[1] for row in con.execute("PRAGMA table_info(task_runs)")}
            missing = [name for name in REQUIRED if name not in columns]
            if missing:
                raise UnreadableTrail(f"{path}: task_runs lacks column(s) {', '.join(missing)}")
            wanted = [name for name in (*REQUIRED, *OPTIONAL) if name in columns]
            cursor = con.execute(f"SELECT rowid, {', '.join(wanted)} FROM task_runs ORDER BY rowid")  # noqa: S608
            return [dict(zip(("rowid", *wanted), row)) for row in cursor.fetchall()]
    except sqlite3.DatabaseError as error:
        raise UnreadableTrail(f"{path}: {error}") from None


def task_units(rows: list[dict], now: datetime) -> Iterator[tuple[int, int, tuple[str, dict]]]:
    """(seq, rowid, (part, row)) for the task and the result of every task that has ended (or gone
    stale), in rowid order; the first task still running ends the trail, so its result, when it
    comes, is never behind the cursor."""
    for row in rows:
        created = iso_utc(row.get("created_at"))
        last_activity = iso_utc(row.get("last_event_at")) or created
        ended = iso_utc(row.get("ended_at"))
        stale = (not ended and last_activity is not None and
                 (now - datetime.fromisoformat(last_activity.replace("Z", "+00:00"))).total_seconds()
                 > STALE_SECONDS)
        if not ended and not stale:
            return
        yield 2 * row["rowid"], row["rowid"], ("task", row)
        yield 2 * row["rowid"] + 1, row["rowid"], ("result", row)


def task_event(seq: int, unit: tuple[str, dict], *, max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
               recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS) -> Event | None:
    part, row = unit
    runtime = row.get("runtime") or None
    label = row.get("label")
    header = f"[task {runtime or '-'}/{label or '-'}]" if runtime or label else "[task]"
    session = row.get("child_session_key") or row.get("requester_session_key") or None
    tool = str(runtime)[:200] if runtime else None
    if part == "task":
        created = iso_utc(row.get("created_at"))
        content = finish_content(f"{header} {row.get('task') or ''}", max_event_chars, 1, recall_tags)
        if not created or not content:
            return None
        return Event(seq, created, session, "agent", "task", content, tool=tool)
    ended = iso_utc(row.get("ended_at"))
    if ended:
        body = (row.get("terminal_summary") or row.get("progress_summary") or row.get("error")
                or f"task ended: {row.get('status')}")
        outcome, when = row.get("terminal_outcome") or row.get("status"), ended
    else:
        body, outcome = f"task still {row.get('status')} after 8 days", row.get("status")
        when = iso_utc(row.get("last_event_at")) or iso_utc(row.get("created_at"))
    content = finish_content(f"{header} {body}", max_event_chars, 1, recall_tags)
    if not content or not when:
        return None
    return Event(seq, when, session, "agent", "task_result", content, tool=tool,
                 outcome=str(outcome)[:200] if outcome else None)


def task_events(
    rows: list[dict],
    *,
    now: datetime,
    start_seq: int = 0,
    max_event_chars: int = DEFAULT_MAX_EVENT_CHARS,
    recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS,
    path: str = "<rows>",
) -> ParsedTrail:
    return scan_units(
        task_units(rows, now),
        lambda seq, unit: task_event(seq, unit, max_event_chars=max_event_chars,
                                     recall_tags=recall_tags),
        start=start_seq, path=path)
