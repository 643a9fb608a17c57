"""Bad input, generated: every parser, the submit validation and the settings loader either
accept, count a located reject, or raise their one documented error. Never a traceback."""

import json
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.claude_code import parse_claude_code
from ingest.cursor_transcript import parse_cursor_transcript
from ingest.errors import SettingsError, SubmitRejected
from ingest.openclaw import parse_openclaw_session, parse_plugin_buffer
from ingest.validate import validate_submit
from jobs.settings import load_settings

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=80),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=5),
    max_leaves=20,
)
keys = st.sampled_from(["type", "message", "sessionId", "timestamp", "role", "content", "seq", "ts",
                        "uuid", "isMeta", "isSidechain", "operation", "attachment", "text"])
records = st.dictionaries(keys, json_values | st.sampled_from(["user", "assistant", "message", "remove"]),
                          max_size=8)
lines = st.one_of(
    records.map(lambda r: json.dumps(r).encode()),
    st.binary(max_size=200),  # truncated JSON, invalid UTF-8, NUL bytes
    st.integers(1, 3000).map(lambda depth: b"[" * depth + b"]" * depth),  # deep nesting
    st.just(b'{"type":"user","message":{"content":"' + b"x" * 200_000 + b'"}}'),
    records.map(lambda r: json.dumps(r).encode()[: len(json.dumps(r)) // 2]),
)
trails = st.lists(lines, max_size=12).map(lambda ls: b"\n".join(l.replace(b"\n", b" ") for l in ls) + b"\n")

PARSERS = [
    lambda data: parse_claude_code(data, project="p", path="f"),
    lambda data: parse_cursor_transcript(data, project="p", stem="s", mtime=0, path="f"),
    lambda data: parse_openclaw_session(data, agent="a", stem="s", path="f"),
    lambda data: parse_plugin_buffer(data, path="f"),
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=trails, start=st.integers(0, 5))
def test_parsers_never_raise_and_locate_every_reject(data, start):
    count = data.count(b"\n")
    for index, parse in enumerate(PARSERS):
        trail = parse(data)
        assert all(0 < reject.line <= count and reject.path == "f" for reject in trail.rejects)
        seqs = [event.seq for event in trail.events]
        assert seqs == sorted(set(seqs))
        if index < 3:  # line-indexed trails; the plugin buffer's seqs are its own
            assert trail.last_complete_line < count
        assert all(seq <= trail.last_complete_line for seq in seqs)
        assert all(event.content.strip() for event in trail.events)
    parse_claude_code(data, project="p", start_line=start)


def event(seq):
    return {"seq": seq, "ts": "2026-01-01T00:00:00Z", "role": "user", "kind": "prompt", "content": "x"}


bodies = st.fixed_dictionaries(
    {"node_id": st.text(max_size=210) | json_values, "agent_id": st.text(min_size=1, max_size=5),
     "cursor_from": st.integers(-2, 12) | json_values, "cursor_to": st.integers(-2, 12),
     "events": st.lists(st.integers(-1, 13).map(event) | records | json_values, max_size=6)},
    optional={"tenant_id": st.none() | st.text(max_size=5), "fleet_id": json_values},
)


@settings(max_examples=300, deadline=None)
@given(body=bodies | json_values)
def test_submit_validation_only_ever_rejects_with_a_code(body):
    try:
        window = validate_submit(body, default_tenant="t")
    except SubmitRejected as rejected:
        assert rejected.status_code in (400, 403, 422) and rejected.detail
        return
    seqs = [e.seq for e in window.events]
    assert window.cursor_from <= seqs[0] and seqs[-1] <= window.cursor_to
    assert all(a < b for a, b in zip(seqs, seqs[1:]))


toml_lines = st.one_of(
    st.sampled_from(["max_windows", "period_hours", "tenant_id", "backend", "[ray]", "[llamacpp]",
                     "threads", "unknown_key", "flush", "since_hours"]).flatmap(
        lambda key: st.sampled_from([" = 3", " = -1", " = 'x'", " = true", " = [1]", " = ", ""]).map(
            lambda value: key + value)),
    st.text(max_size=30),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.lists(toml_lines, max_size=5).map("\n".join))
def test_config_files_load_or_fail_with_a_located_message(tmp_path, text):
    config = tmp_path / f"c{time.monotonic_ns()}.toml"
    config.write_text(text)
    try:
        load_settings(config)
    except SettingsError as error:
        assert str(config) in str(error)
