"""`interview context`: a short digest of a project's memories for a new session (a SessionStart
hook prints it into the session). It is wrapped in a tag the recall guard cuts before
interviewing (`memory-context`), so a digest that lands in a trail never becomes a memory again.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

DIGEST_TAG = "memory-context"  # one of DEFAULT_RECALL_TAGS (ingest/content.py)
SECTIONS = (("decision", "Recent decisions"), ("task", "Open blockers and tasks"),
            ("preference", "Preferences"))


def project_globs(project: str) -> list[str]:
    """The project names a folder has in the trails (Claude Code and Cursor name a project after
    its path with every other character as `-`), or `project` itself as a glob."""
    path = Path(project).expanduser()
    if not path.is_dir():
        return [project]
    resolved = str(path.resolve())
    return sorted({re.sub(r"[^A-Za-z0-9]", "-", resolved), path.resolve().name})


def render_digest(rows: list[dict], project: str, max_chars: int) -> str:
    """The rows (newest first) grouped by section, one line each, within `max_chars` in all;
    an empty string when there is nothing to say."""
    if not rows:
        return ""
    head = f'<{DIGEST_TAG} source="trail-interview" project="{project}">'
    tail = f"</{DIGEST_TAG}>"
    budget = max_chars - len(head) - len(tail) - 2
    lines: list[str] = []
    used = left_out = 0
    for memory_type, title in SECTIONS:
        chosen = [row for row in rows if row["memory_type"] == memory_type]
        if not chosen:
            continue
        block = [f"{title}:"]
        size = used + len(block[0]) + 1
        for row in chosen:
            when = row["ts_valid_start"]
            day = when.strftime("%Y-%m-%d") if isinstance(when, datetime) else "?"
            line = f"- {day}: {' '.join(row['content'].split())[:300]}"
            if size + len(line) + 1 > budget:
                left_out += 1
                continue
            block.append(line)
            size += len(line) + 1
        if len(block) > 1:
            lines += block
            used = size
    if not lines:
        return ""
    if left_out:
        lines.append(f"({left_out} more left out; `interview recall` finds them)")
    return "\n".join([head, *lines, tail])
