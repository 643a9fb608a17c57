import json

import pytest

from ingest.claude_code import parse_claude_code
from ingest.content import MIN_EVENT_CHARS
from ingest.scrub import REDACTED

LONG = "x" * MIN_EVENT_CHARS


def line(**record) -> bytes:
    return json.dumps(record).encode() + b"\n"


def user(text, **extra):
    return line(type="user", sessionId="S", timestamp="2026-01-01T10:00:00.000Z",
                message={"role": "user", "content": text}, **extra)


def assistant(blocks, **extra):
    return line(type="assistant", sessionId="S", timestamp="2026-01-01T10:00:05.000Z",
                message={"role": "assistant", "content": blocks}, **extra)


def test_prompt_and_reply_are_kept_with_their_fields():
    data = user("Please fix the flaky login test " + LONG) + assistant(
        [{"type": "thinking", "thinking": "hmm " * 40},
         {"type": "text", "text": "I raised the timeout to 30s and the test passes now. " + LONG}]
    )
    trail = parse_claude_code(data, project="proj")
    assert [(e.seq, e.role, e.kind) for e in trail.events] == [(0, "user", "prompt"), (1, "assistant", "reply")]
    assert trail.events[0].session_id == "proj:S"
    assert trail.events[0].ts == "2026-01-01T10:00:00.000Z"
    assert "hmm" not in trail.events[1].content


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(user("<command-name>/model</command-name> " + LONG), id="slash-command"),
        pytest.param(user("<local-command-stdout>done</local-command-stdout>" + LONG), id="local-stdout"),
        pytest.param(user("[Request interrupted by user]"), id="interrupt"),
        pytest.param(user(LONG + "meta", isMeta=True), id="isMeta"),
        pytest.param(user("This session is being continued " + LONG, isCompactSummary=True), id="compact"),
        pytest.param(user([{"type": "tool_result", "tool_use_id": "t", "content": LONG}]), id="tool-result"),
        pytest.param(user(LONG, toolUseResult={"stdout": "x"}), id="toolUseResult"),
        pytest.param(assistant([{"type": "tool_use", "id": "t", "name": "Bash", "input": {}}]), id="tool-use"),
        pytest.param(assistant([{"type": "text", "text": "Done."}]), id="reply-under-60-chars"),
        pytest.param(user("ok, continue"), id="acknowledgement"),
        pytest.param(user(LONG, isSidechain=True), id="sidechain"),
        pytest.param(line(type="summary", summary=LONG, leafUuid="u"), id="summary"),
    ],
)
def test_dropped_lines_are_not_events_but_advance_the_cursor(data):
    trail = parse_claude_code(data, project="p")
    assert trail.events == []
    assert trail.last_complete_line == 0
    assert trail.rejects == []


@pytest.mark.parametrize(
    "raw, reason",
    [
        (line(type="user", timestamp="t", message={"role": "user", "content": LONG}), "no sessionId"),
        (line(type="user", sessionId="S", message={"role": "user", "content": LONG}), "no timestamp"),
        (line(type="user", sessionId="S", timestamp="t", message="error"), "without a message object"),
        # not UTF-8: read with U+FFFD (issue 28 item 14), then judged as any other line
        (b'{"type":"user","x":"\xff\xfe"}\n', "without a message object"),
    ],
)
def test_reportable_faults_are_counted_with_line_numbers(raw, reason):
    trail = parse_claude_code(b"\n" + raw, project="p", path="f.jsonl")
    assert [(r.path, r.line) for r in trail.rejects] == [("f.jsonl", 2)]
    assert reason in trail.rejects[0].reason


def test_a_prompt_with_a_latin1_byte_is_kept_with_a_replacement_character():
    """Issue 28 item 14: the line was rejected whole and the prompt lost."""
    raw = user("caf\u00e9 au lait, we chose the small cups " + LONG).replace(
        b"caf\\u00e9", "caf\u00e9".encode("latin-1"))
    assert b"caf\xe9 au" in raw
    trail = parse_claude_code(raw, project="p", path="f.jsonl")
    assert [e.content[:20] for e in trail.events] == ["caf\ufffd au lait, we cho"]
    assert (trail.rejects, trail.repaired_lines) == ([], 1)


@pytest.mark.parametrize("noise", [b"", b"not json", b"42", b'"massive error"', b"[1]", b'{"silly":"this"}'])
def test_noise_lines_are_passed_silently(noise):
    trail = parse_claude_code(noise + b"\n" + user("hello " + LONG), project="p")
    assert [e.seq for e in trail.events] == [1]
    assert trail.rejects == []


def test_torn_final_line_is_left_for_the_next_run():
    complete = user("first " + LONG)
    torn = user("second " + LONG).rstrip(b"\n")
    trail = parse_claude_code(complete + torn, project="p")
    assert [e.seq for e in trail.events] == [0]
    assert trail.last_complete_line == 0
    again = parse_claude_code(complete + torn + b"\n", project="p", start_line=1)
    assert [e.seq for e in again.events] == [1]


def test_start_line_skips_earlier_lines_but_keeps_raw_seq():
    data = user("a " + LONG) + b"noise\n" + user("b " + LONG)
    trail = parse_claude_code(data, project="p", start_line=1)
    assert [e.seq for e in trail.events] == [2]
    assert trail.lines_scanned == 2


def test_content_is_scrubbed_then_truncated():
    secret = "sk-" + "A1b2C3d4" * 4
    trail = parse_claude_code(user(f"use key {secret} " + "y" * 5000), project="p", max_event_chars=4000)
    content = trail.events[0].content
    assert secret not in content and REDACTED in content
    assert len(content) == 4000


def test_block_list_text_is_joined_by_newline():
    trail = parse_claude_code(
        user([{"type": "text", "text": "part one " + LONG}, "bare string", {"type": "image"}]),
        project="p",
    )
    assert trail.events[0].content == "part one " + LONG + "\nbare string"


def test_a_line_over_50_mb_is_a_located_reject():
    huge = b'{"type":"user","message":{"content":"' + b"x" * (50 * 1024 * 1024 + 10) + b'"}}\n'
    trail = parse_claude_code(user("before " + LONG) + huge + user("after " + LONG), project="p", path="f")
    assert [e.seq for e in trail.events] == [0, 2]
    assert [(r.line, "over the" in r.reason) for r in trail.rejects] == [(2, True)]


QUESTION = ("Two ways to dedupe the orders: A) merge on order_id, B) keep the newest row per "
            "customer, C) drop both and rebuild from the event log. Which one?")


def test_short_replies_are_events_and_acknowledgements_are_not():
    data = (assistant([{"type": "text", "text": QUESTION}]) + user("C)") + user("ok")
            + user("yes do merge on order_id") + user("thanks!") + user("use pnpm")
            + user([{"type": "text", "text": "continue"}]) + user("y") + user("go on"))
    trail = parse_claude_code(data, project="p")
    assert [(e.seq, e.content) for e in trail.events if e.role == "user"] == [
        (1, "C)"), (3, "yes do merge on order_id"), (5, "use pnpm")]
    assert trail.last_complete_line == 8


def test_a_queued_bare_slash_command_is_not_a_prompt_but_a_queued_short_reply_is():
    queued = [line(type="queue-operation", operation="enqueue", sessionId="S", content=text,
                   timestamp="2026-01-01T10:00:01.000Z") for text in ("/mcp", "use pnpm", "ok")]
    removes = [line(type="queue-operation", operation="remove", sessionId="S",
                    timestamp="2026-01-01T10:00:02.000Z")] * 3
    trail = parse_claude_code(b"".join(queued + removes), project="p")
    assert [(e.seq, e.content) for e in trail.events] == [(4, "use pnpm")]
