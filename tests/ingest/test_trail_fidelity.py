"""What real trails showed (issue "Trail fidelity"): each case failed before its fix."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.claude_code import parse_claude_code
from ingest.content import MIN_EVENT_CHARS
from ingest.openclaw import parse_openclaw_session
from ingest.scrub import REDACTED, scrub
from synth.masking import mask_text

LONG = "x" * MIN_EVENT_CHARS
S = "sess-1"


def line(**record) -> bytes:
    return json.dumps(record).encode() + b"\n"


def at(second: int) -> str:
    return f"2026-01-01T10:00:{second:02d}.000Z"


def user(text, second=0, **extra):
    return line(type="user", sessionId=S, timestamp=at(second),
                message={"role": "user", "content": text}, **extra)


def queue(operation, second, content=None):
    record = {"type": "queue-operation", "operation": operation, "sessionId": S,
              "timestamp": at(second)}
    if content is not None:
        record["content"] = content
    return line(**record)


def queued_attachment(text, second):
    return line(type="attachment", sessionId=S, timestamp=at(second),
                attachment={"type": "queued_command", "prompt": text})


def events(data, start_line=0, **options):
    return [(e.seq, e.role, e.ts, e.content)
            for e in parse_claude_code(data, project="p", start_line=start_line, **options).events]


# 1. Prompts typed while the agent works: the text is on the enqueue, the remove delivers it.
def test_a_content_less_remove_delivers_the_oldest_pending_enqueue_of_its_session():
    first, second = "Also add a regression test for the scroll bug " + LONG, "And update the changelog " + LONG
    data = (user("Fix the scroll bug " + LONG, 0) + queue("enqueue", 3, first)
            + queue("enqueue", 4, second) + queue("remove", 9) + queue("remove", 12))
    assert events(data)[1:] == [(3, "user", at(3), first), (4, "user", at(4), second)]


def test_popall_and_dequeue_deliver_nothing_and_notifications_are_harness():
    kept = "Please rename the config flag to --strict " + LONG
    data = (queue("enqueue", 1, "Dropped when the user pulled the queue back " + LONG)
            + queue("popAll", 2)
            + queue("enqueue", 3, "<agent-notification>agent b finished</agent-notification> " + LONG)
            + queue("remove", 4)
            + queue("enqueue", 5, "Sent as a normal turn instead " + LONG) + queue("dequeue", 6)
            + queue("enqueue", 7, kept) + queue("remove", 8))
    assert [(seq, text) for seq, _, _, text in events(data)] == [(7, kept)]


# 2. A resumed scan yields exactly the events of a full scan after the cursor.
def test_a_scan_resuming_between_a_remove_and_its_attachment_twin_does_not_repeat_the_prompt():
    steering = "Use the staging database for this, not prod " + LONG
    data = user("Start the migration " + LONG, 0) + queue("remove", 1, steering) + queued_attachment(steering, 2)
    full = events(data)
    assert [seq for seq, *_ in full] == [0, 1]
    assert events(data, start_line=2) == []


TEXTS = st.sampled_from(["Fix the login bug please " + LONG, "Add a test for the cache " + LONG,
                         "Warmup", "<command-name>/plan</command-name><command-args>ship v2 "
                         + LONG + "</command-args>"])
RECORDS = st.one_of(
    st.tuples(TEXTS, st.integers(0, 4)).map(lambda p: ("user", p[0], f"u{p[1]}")),
    st.tuples(TEXTS, st.integers(0, 4)).map(lambda p: ("assistant", p[0], f"a{p[1]}")),
    TEXTS.map(lambda t: ("enqueue", t, None)),
    st.sampled_from(["remove", "dequeue", "popAll"]).map(lambda op: (op, None, None)),
    TEXTS.map(lambda t: ("remove-with-text", t, None)),
    TEXTS.map(lambda t: ("attachment", t, None)),
)


def render(records) -> bytes:
    out = b""
    for second, (kind, text, uuid) in enumerate(records):
        second %= 60
        if kind == "user":
            out += user(text, second, uuid=uuid)
        elif kind == "assistant":
            out += line(type="assistant", sessionId=S, timestamp=at(second), uuid=uuid,
                        message={"role": "assistant", "content": [{"type": "text", "text": text}]})
        elif kind == "enqueue":
            out += queue("enqueue", second, text)
        elif kind == "remove-with-text":
            out += queue("remove", second, text)
        elif kind == "attachment":
            out += queued_attachment(text, second)
        else:
            out += queue(kind, second)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(RECORDS, max_size=14))
def test_every_cursor_resumes_to_exactly_the_full_scan(records):
    data = render(records)
    full = events(data)
    for cursor in range(len(records) + 1):
        assert events(data, start_line=cursor) == [e for e in full if e[0] >= cursor]


# 3. A lone surrogate escape is still a complete JSON object; a line that is not JSON is a reject.
def test_a_lone_surrogate_escape_keeps_its_event_and_broken_json_is_reported():
    cut = (b'{"type":"user","sessionId":"S","timestamp":"2026-01-01T10:00:00.000Z","message":'
           b'{"role":"user","content":"Ship it \\ud83d ' + LONG.encode() + b'"}}\n')
    broken = b'{"type":"user","sessionId":"S","message":{"content":"cut off\n'
    trail = parse_claude_code(cut + broken, project="p", path="f.jsonl")
    assert [e.content[:9] for e in trail.events] == ["Ship it \ufffd"]
    assert [(r.line, r.reason.split(" (")[0]) for r in trail.rejects] == [(2, "not JSON")]


# 4. A slash command's arguments are what the user asked for; harness lines stay out.
@pytest.mark.parametrize("text, kept", [
    ("<command-name>/orchestrator</command-name>\n<command-message>orchestrator</command-message>\n"
     "<command-args>create TODO app by Next.js with auth and a Postgres backend</command-args>",
     "/orchestrator create TODO app by Next.js with auth and a Postgres backend"),
    ("<command-message>x</command-message>\n<command-name>/x</command-name>\n"
     "<command-args>refactor the billing module into three services, keep the API</command-args>",
     "/x refactor the billing module into three services, keep the API"),
    ("<command-name>/clear</command-name>\n<command-message>clear</command-message>\n"
     "<command-args></command-args>", None),
    ("<command-name>/x</command-name><command-args>use pnpm</command-args>", "/x use pnpm"),
    ("<local-command-stdout>Compacted the conversation " + LONG + "</local-command-stdout>", None),
    ("[Request interrupted by user]", None),
])
def test_slash_commands_keep_their_arguments(text, kept):
    assert [content for *_, content in events(user(text))] == ([kept] if kept else [])


# 5. Claude Code 2.0.x subagents open with "Warmup" and a canned greeting.
def test_warmup_and_its_greeting_are_not_events():
    greeting = "Hello! I'm ready to help you search and explore the codebase. " + LONG
    data = (line(type="user", sessionId=S, timestamp=at(0), isSidechain=True,
                 message={"role": "user", "content": "Warmup"})
            + line(type="assistant", sessionId=S, timestamp=at(1), isSidechain=True,
                   message={"role": "assistant", "content": [{"type": "text", "text": greeting}]})
            + line(type="user", sessionId=S, timestamp=at(2), isSidechain=True,
                   message={"role": "user", "content": "Find where the cache is built " + LONG}))
    assert [seq for seq, *_ in events(data, sidechains="include")] == [2]


# 6. An empty role takes the line's type.
def test_an_assistant_line_with_an_empty_role_is_a_reply_of_the_assistant():
    data = line(type="assistant", sessionId=S, timestamp=at(0),
                message={"role": "", "content": [{"type": "text", "text": "Done, tests pass " + LONG}]})
    assert [role for _, role, *_ in events(data)] == ["assistant"]


# 7. OpenClaw: bare slash commands and the empty aborted replies after them are not events.
def test_openclaw_bare_commands_and_their_aborted_replies_are_not_events():
    def entry(role, content, **message):
        return line(type="message", timestamp=at(0),
                    message={"role": role, "content": content, **message})

    data = (entry("user", [{"type": "text", "text": "/model openai/gpt-5"}])
            + entry("assistant", [], stopReason="aborted")
            + entry("user", [{"type": "text", "text": "/mode"}])
            + entry("assistant", [{"type": "text", "text": ""}], stopReason="aborted")
            + entry("user", [{"type": "text", "text": "/fix the flaky login test"}])
            + entry("assistant", [{"type": "text", "text": "Fixed."}]))
    trail = parse_openclaw_session(data, agent="main", stem="s")
    assert [(e.seq, e.content) for e in trail.events] == [(4, "/fix the flaky login test"), (5, "Fixed.")]


# 8-10. The local scrub and the masking layer.
@pytest.mark.parametrize("text, secret", [
    ("Authorization: Bearer  abcdefghijklmnop1234XYZ", "abcdefghijklmnop1234XYZ"),
    ("Authorization: Bearer\tabcdefghijklmnop1234XYZ", "abcdefghijklmnop1234XYZ"),
    ("DATADOG_API_KEY=3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d", "3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d"),
    ('PostHogAPIKey="phc_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"', "phc_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"),
    ("export OPENAI_API_KEY=Qx7rT2mW9pL4vN8kJ3hG6fD1sA5zB0cE", "Qx7rT2mW9pL4vN8kJ3hG6fD1sA5zB0cE"),
])
def test_credentials_reach_neither_the_scrub_nor_the_mask(text, secret):
    assert secret not in scrub(text) and REDACTED in scrub(text)
    assert secret not in mask_text(text)[0]


@pytest.mark.parametrize("text", [
    "git checkout fix-cask-point-at-private-repo",
    "see task-runner-for-background-jobs in the README",
    "pin sk-learn-compat-for-new-release to 1.4",
    "const savedApiKey = localStorage.getItem('openai_api_key');",
])
def test_ordinary_words_and_code_are_left_whole(text):
    assert scrub(text) == text and mask_text(text)[0] == text
