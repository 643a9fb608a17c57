import json
import sqlite3

import pytest

from ingest.cursor_transcript import parse_cursor_timestamp, parse_cursor_transcript
from ingest.cursor_vscdb import load_conversations, parse_conversation
from ingest.errors import UnreadableTrail

LONG = " and please keep the existing tests green while you do it"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Tuesday, Jul 21, 2026, 1:11 PM (UTC+3)", "2026-07-21T13:11:00+03:00"),
        ("Tuesday, Jul 21, 2026, 12:05 AM (UTC)", "2026-07-21T00:05:00+00:00"),
        ("Tuesday, Jul 21, 2026, 12:05 PM (UTC-5:30)", "2026-07-21T12:05:00-05:30"),
        ("Sunday, Dec 1, 2024, 9:00 am (UTC+10)", "2024-12-01T09:00:00+10:00"),
        ("Tuesday, Jul 21, 2026, 13:11 PM (UTC+3)", None),  # 12-hour clock only
        ("Tuesday, Jul 21, 2026, 0:11 AM (UTC+3)", None),
        ("Tuesday, Jul 21, 2026, 1:11 PM (UTC+24)", None),  # offset of a day or more
        ("Tuesday, Foo 21, 2026, 1:11 PM (UTC+3)", None),
        ("Tuesday, Feb 30, 2026, 1:11 PM (UTC+3)", None),
        ("yesterday", None),
    ],
)
def test_cursor_timestamp(text, expected):
    assert parse_cursor_timestamp(text) == expected


def line(role, text):
    return json.dumps({"role": role, "message": {"content": [{"type": "text", "text": text}]}}).encode() + b"\n"


def test_transcript_prompts_replies_and_inherited_times():
    data = (
        b'{"type":"metadata","metadata":{"overview":"x"}}\n'
        + line("assistant", "Reply before any prompt, so it takes the file's modification time" + LONG)
        + line("user", "<user_info>os linux</user_info>\n<timestamp>Tuesday, Jul 21, 2026, 1:11 PM (UTC+3)"
               "</timestamp>\n<user_query>\nFix the flaky login test" + LONG + "\n</user_query>")
        + line("assistant", "I raised the timeout to 30 seconds and the suite passes now" + LONG + " [REDACTED] [REDACTED]")
        + b'{"type":"turn_ended","status":"success"}\n'
    )
    trail = parse_cursor_transcript(data, project="repo", stem="abc", mtime=0.0)
    assert [(e.seq, e.role, e.kind, e.ts) for e in trail.events] == [
        (1, "assistant", "reply", "1970-01-01T00:00:00.000Z"),
        (2, "user", "prompt", "2026-07-21T13:11:00+03:00"),
        (3, "assistant", "reply", "2026-07-21T13:11:00+03:00"),
    ]
    assert trail.events[1].content.startswith("Fix the flaky login test") and "user_info" not in trail.events[1].content
    assert not trail.events[2].content.endswith("[REDACTED]")
    assert trail.events[0].session_id == "repo:abc"
    assert trail.last_complete_line == 4
    later = parse_cursor_transcript(data, project="repo", stem="abc", mtime=0.0, start_line=3)
    assert [(e.seq, e.ts) for e in later.events] == [(3, "2026-07-21T13:11:00+03:00")]


def test_mid_prose_redacted_is_kept():
    data = line("assistant", "The key [REDACTED] was rotated yesterday and the new one is in vault" + LONG)
    assert "[REDACTED]" in parse_cursor_transcript(data, project="p", stem="s", mtime=0).events[0].content


def build_modern_db(path, *, bubbles, headers=None, composer=None):
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)")
    con.execute("CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)")
    con.execute("INSERT INTO ItemTable VALUES ('cursorAuth/accessToken', 'secret-token-never-read')")
    data = {"_v": 13, "composerId": "c1", "name": "Login fix", "createdAt": 1767225600000,
            "lastUpdatedAt": 1767229200000, "status": "completed",
            "fullConversationHeadersOnly": headers if headers is not None else
            [{"bubbleId": f"b{i}", "type": b.get("type")} for i, b in enumerate(bubbles)]}
    data.update(composer or {})
    con.execute("INSERT INTO cursorDiskKV VALUES ('composerData:c1', ?)", [json.dumps(data).encode()])
    con.execute("INSERT INTO cursorDiskKV VALUES ('composerData:empty', ?)",
                [json.dumps({"composerId": "empty", "fullConversationHeadersOnly": []})])
    for i, bubble in enumerate(bubbles):
        con.execute("INSERT INTO cursorDiskKV VALUES (?, ?)", [f"bubbleId:c1:b{i}", json.dumps(bubble)])
    con.commit()
    con.close()


def rich(text):
    return json.dumps({"root": {"children": [{"type": "paragraph", "children": [{"type": "text", "text": text}]}]}})


def test_modern_composer_rows(tmp_path):
    db = tmp_path / "state.vscdb"
    build_modern_db(db, bubbles=[
        {"type": 1, "text": "", "richText": rich("Move the session store to Postgres" + LONG),
         "createdAt": "2026-01-01T00:00:05.000Z"},
        {"type": 2, "text": "", "toolFormerData": {"name": "read_file"}},  # tool-only bubble
        {"type": 2, "text": "Moved the store; the migration is in db/002_sessions.sql" + LONG,
         "timingInfo": {"clientEndTime": 1767225700000}},
        {"type": 2, "text": "Follow-up with no time of its own, so the composer's createdAt" + LONG},
    ])
    [conversation] = load_conversations(db)  # the empty composer is skipped
    assert conversation.key == "composer-c1"
    trail = parse_conversation(conversation, project="repo", fallback_ms=0)
    assert [(e.seq, e.role, e.ts) for e in trail.events] == [
        (0, "user", "2026-01-01T00:00:05.000Z"),
        (2, "assistant", "2026-01-01T00:01:40.000Z"),
        (3, "assistant", "2026-01-01T00:00:00.000Z"),
    ]
    assert trail.last_complete_line == 3
    assert all("secret-token" not in e.content for e in trail.events)


def test_header_order_is_authoritative_and_unwritten_bubbles_keep_their_place(tmp_path):
    db = tmp_path / "state.vscdb"
    bubbles = [{"type": 1, "text": "First question about the cache eviction policy" + LONG},
               {"type": 2, "text": "Answer about the cache eviction policy and its TTL" + LONG}]
    headers = [{"bubbleId": "b1", "type": 2}, {"bubbleId": "missing", "type": 1}, {"bubbleId": "b0", "type": 1}]
    build_modern_db(db, bubbles=bubbles, headers=headers)
    [conversation] = load_conversations(db)
    trail = parse_conversation(conversation, project="p", fallback_ms=0)
    assert [(e.seq, e.role) for e in trail.events] == [(0, "assistant"), (2, "user")]


def test_corrupt_database_is_a_clear_error(tmp_path):
    bad = tmp_path / "state.vscdb"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(UnreadableTrail, match="state.vscdb"):
        load_conversations(bad)


def test_a_database_locked_by_cursor_is_read_from_a_copy(tmp_path):
    db = tmp_path / "state.vscdb"
    build_modern_db(db, bubbles=[{"type": 1, "text": "Lock test prompt that is long enough to keep" + LONG}])
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        [conversation] = load_conversations(db)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(conversation.bubbles) == 1


def prompt_line(text, time="1:11 PM"):
    return line("user", f"<user_info>os linux</user_info>\n<timestamp>Tuesday, Jul 21, 2026, {time} "
                        f"(UTC+3)</timestamp>\n<user_query>\n{text}\n</user_query>")


def test_transcript_short_replies_are_events_and_acknowledgements_are_not():
    data = (line("assistant", "Which package manager should the workspace use: npm, yarn or pnpm?")
            + prompt_line("use pnpm") + line("assistant", "Switched the lockfile to pnpm.")
            + prompt_line("thanks!", "1:12 PM") + prompt_line("C)", "1:13 PM")
            + prompt_line("ok, continue", "1:14 PM"))
    trail = parse_cursor_transcript(data, project="p", stem="s", mtime=0.0)
    assert [(e.seq, e.role, e.content) for e in trail.events] == [
        (0, "assistant", "Which package manager should the workspace use: npm, yarn or pnpm?"),
        (1, "user", "use pnpm"),
        (4, "user", "C)"),
    ]  # a reply under the floor ("Switched the lockfile to pnpm.") stays dropped
    assert trail.events[2].ts == "2026-07-21T13:13:00+03:00"


def test_vscdb_short_replies_are_events_and_acknowledgements_are_not(tmp_path):
    db = tmp_path / "state.vscdb"
    build_modern_db(db, bubbles=[
        {"type": 2, "text": "Should I merge on order_id or keep the newest row per customer?" + LONG},
        {"type": 1, "text": "", "richText": rich("yes do merge on order_id")},
        {"type": 2, "text": "Merged."},
        {"type": 1, "text": "ok"},
        {"type": 1, "text": "", "richText": rich("fix this")},
        {"type": 1, "text": "Thanks!"},
    ])
    [conversation] = load_conversations(db)
    trail = parse_conversation(conversation, project="repo", fallback_ms=0)
    assert [(e.seq, e.role, e.content) for e in trail.events if e.role == "user"] == [
        (1, "user", "yes do merge on order_id"), (4, "user", "fix this")]
    assert trail.last_complete_line == 5
