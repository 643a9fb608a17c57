"""The byte-level fast path of the Claude Code parser (skip lines before parsing them) must give
exactly what a full parse of every line gives: same events, same rejects, same cursor; and a scan
that resumes at any cursor gives exactly the events of a full scan after it."""

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.claude_code import ClaudeCodeLines, parse_claude_code
from ingest.events import Event, Reject
from ingest.lines import complete_lines
from ingest.scan import Rejected, decode_line
from tests.trails import fixture_trails

KEPT_TYPE = re.compile(rb'"(?:user|assistant|queue-operation|attachment)"')
TRAILS = fixture_trails("claude-code/")


def parse_every_line(data: bytes, start_line: int = 0):
    """The reference: every complete line from line 0 through orjson and the record rules, nothing
    skipped by a byte test; the events and rejects at or after `start_line`. A line naming none of
    the kept types cannot hold an event, and is noise even when it is not JSON."""
    parser = ClaudeCodeLines("p")
    events, rejects, last = [], [], -1
    for index, line in complete_lines(data, 0):
        last = index
        record = decode_line(line) if KEPT_TYPE.search(line) else None
        outcome = parser.parse(index, record) if isinstance(record, dict) else record
        if index < start_line:
            continue
        if isinstance(outcome, Event):
            events.append(outcome)
        elif isinstance(outcome, Rejected):
            rejects.append(Reject("f", index + 1, outcome.reason))
    return events, rejects, last if last >= start_line else -1


def assert_same(data: bytes, start_line: int = 0):
    fast = parse_claude_code(data, project="p", path="f", start_line=start_line)
    events, rejects, last = parse_every_line(data, start_line)
    assert fast.events == events
    assert fast.rejects == rejects
    assert fast.last_complete_line == last
    assert fast.noise_lines == fast.lines_scanned - len(events)


@pytest.mark.parametrize("path", TRAILS.values(), ids=lambda p: p.name)
def test_fast_path_equals_a_full_parse_on_every_real_trail(path):
    data = path.read_bytes()
    assert_same(data)
    assert_same(data, start_line=data.count(b"\n") // 2)


def compact(record) -> bytes:
    return json.dumps(record, separators=(",", ":")).encode()


TEXT = st.sampled_from([
    "Please fix the flaky login test, it times out on CI every other run.",
    'He wrote {"type":"tool_result"} and "type":"user" in a prompt, quoted.',
    "I raised the timeout to 30 s and the whole suite passes now on CI.",
])
BASE = {"sessionId": "S", "timestamp": "2026-01-01T10:00:00.000Z"}
RECORDS = st.one_of(
    TEXT.map(lambda t: {"type": "user", "message": {"role": "user", "content": t}, **BASE}),
    TEXT.map(lambda t: {"type": "assistant", "message": {"role": "assistant", "content": [
        {"type": "text", "text": t}]}, **BASE}),
    TEXT.map(lambda t: {"type": "user", "message": {"role": "user", "content": [
        {"tool_use_id": "toolu_1", "type": "tool_result", "content": t}]},
        "toolUseResult": {"stdout": t}, **BASE}),
    # a reply whose tool call carries both members as data: not a tool result, and kept whole
    TEXT.map(lambda t: {"type": "assistant", "message": {"role": "assistant", "content": [
        {"type": "text", "text": t},
        {"type": "tool_use", "input": {"type": "user", "inner": {"type": "tool_result"}}}]},
        **BASE}),
    TEXT.map(lambda t: {"type": "user", "message": {"role": "user", "content": [
        {"type": "tool_result", "content": t}]}}),  # no sessionId: a tool result all the same
    TEXT.map(lambda t: {"type": "progress", "data": {"type": "hook_progress", "output": t},
                        **BASE}),
    TEXT.map(lambda t: {"type": "queue-operation", "operation": "remove", "content": t, **BASE}),
    st.just({"type": "user", "message": "not an object", **BASE}),
)
LINES = st.one_of(
    st.tuples(RECORDS, st.integers(0, 5)).map(
        lambda pair: compact({**pair[0], "uuid": f"u{pair[1]}"})),
    RECORDS.map(lambda r: json.dumps(r).encode()),  # spaced JSON, as older writers produce
    st.just(b'{"type":"user","message":{"content":"\xff\xfe"}}'),
    st.just(b"not json at all"),
    st.just(b""),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=12), st.booleans(), st.integers(0, 12))
def test_fast_path_equals_a_full_parse_on_generated_lines(lines, torn_tail, start_line):
    data = b"\n".join(lines) + (b"" if torn_tail else b"\n")
    assert_same(data, start_line)
