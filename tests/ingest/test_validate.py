import pytest
from hypothesis import given
from hypothesis import strategies as st

from ingest.errors import SubmitRejected
from ingest.validate import validate_submit


def event(seq, **over):
    body = {"seq": seq, "ts": "2026-01-01T10:00:00Z", "role": "user", "kind": "prompt",
            "content": "hello"}
    body.update(over)
    return body


def body(**over):
    base = {"tenant_id": "t", "node_id": "n", "agent_id": "a", "cursor_from": 0, "cursor_to": 9,
            "events": [event(0), event(5)]}
    base.update(over)
    return base


@pytest.mark.parametrize(
    "changes, code, detail",
    [
        ({}, None, None),
        ({"events": [event(0), event(9)]}, None, None),  # events may reach cursor_to
        ({"cursor_to": 12}, None, None),  # or stop short of it
        ({"tenant_id": None}, 400, "tenant_id required"),
        ({"cursor_from": 10, "cursor_to": 9}, 422, "cursor_to must be >= cursor_from"),
        ({"events": [event(3), event(3)]}, 422, "events must be strictly seq-ascending (no duplicates)"),
        ({"events": [event(4), event(3)]}, 422, "events must be strictly seq-ascending (no duplicates)"),
        ({"cursor_from": 1}, 422, "event seq range must lie within [cursor_from, cursor_to]"),
        ({"events": [event(0), event(10)]}, 422, "event seq range must lie within [cursor_from, cursor_to]"),
        ({"events": []}, 422, "events"),
        ({"events": [event(i) for i in range(501)], "cursor_to": 600}, 422, "events"),
        ({"events": [event(0, content="x" * 8001)]}, 422, "content"),
        ({"events": [event(0, tool="t" * 201)]}, 422, "tool"),
        ({"events": [event(0, outcome="o" * 201)]}, 422, "outcome"),
        ({"events": [{k: v for k, v in event(0).items() if k != "ts"}]}, 422, "ts"),
        ({"events": [event(0, role="")]}, 422, "role"),
        ({"node_id": ""}, 422, "node_id"),
        ({"node_id": "n" * 201}, 422, "node_id"),
        ({"cursor_from": -1}, 422, "cursor_from"),
        # Issue 28 item 4: 2**53 - 1 is the largest seq or cursor (every JSON client keeps it).
        ({"cursor_from": 2**53 - 2, "cursor_to": 2**53 - 1,
          "events": [event(2**53 - 2), event(2**53 - 1)]}, None, None),
        ({"cursor_to": 2**53}, 422, "cursor_to: Input should be less than or equal to 9007199254740991"),
        ({"cursor_to": 2**63 - 1, "events": [event(0), event(2**63 - 1)]}, 422, "events.1.seq"),
        # Item 5: no control character in any id field, each named.
        ({"node_id": "n\x00"}, 422, "node_id: control character U+0000 at position 1"),
        ({"agent_id": "\x1fa"}, 422, "agent_id: control character U+001F at position 0"),
        ({"tenant_id": "t\x7f"}, 422, "tenant_id: control character U+007F"),
        ({"fleet_id": "f\r\n"}, 422, "fleet_id: control character U+000D"),
        ({"command_id": "c\u2028"}, 422, "command_id: control character U+2028"),
        ({"events": [event(0, session_id="s\x85")]}, 422, "events.0.session_id: control character"),
        ({"node_id": "cc:ünïcode ok:1", "events": [event(0, session_id="s é")]}, None, None),
    ],
)
def test_submit_rules(changes, code, detail):
    if code is None:
        window = validate_submit(body(**changes))
        assert window.tenant_id == "t"
        return
    with pytest.raises(SubmitRejected) as caught:
        validate_submit(body(**changes))
    assert caught.value.status_code == code
    assert detail in caught.value.detail


def test_exactly_8000_chars_and_500_events_are_accepted():
    validate_submit(body(events=[event(i, content="x" * 8000) for i in range(500)], cursor_to=500))


def test_naive_timestamp_is_read_as_utc_and_tenant_falls_back():
    window = validate_submit(body(tenant_id=None, events=[event(0, ts="2026-01-01T10:00:00")]),
                             default_tenant="local")
    assert window.tenant_id == "local"
    assert window.events[0].ts == "2026-01-01T10:00:00.000Z"


def test_disabled_tenant_is_refused():
    with pytest.raises(SubmitRejected) as caught:
        validate_submit(body(), enabled_tenants={"other"})
    assert (caught.value.status_code, caught.value.detail) == (403, "interviewer is not enabled for this tenant")


@given(seqs=st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=8),
       cursor_from=st.integers(min_value=0, max_value=30), cursor_to=st.integers(min_value=0, max_value=30))
def test_validation_accepts_exactly_the_legal_windows(seqs, cursor_from, cursor_to):
    legal = (cursor_from <= cursor_to and all(a < b for a, b in zip(seqs, seqs[1:]))
             and cursor_from <= seqs[0] and seqs[-1] <= cursor_to)
    payload = body(cursor_from=cursor_from, cursor_to=cursor_to, events=[event(s) for s in seqs])
    try:
        validate_submit(payload)
        accepted = True
    except SubmitRejected as rejected:
        assert rejected.status_code == 422
        accepted = False
    assert accepted == legal


def test_short_events_validate_and_a_pushed_window_keeps_them_as_sent():
    """Contract §1.1 has no floor: a reference client's window (60-char floor), an OpenClaw
    plugin's (no floor, acknowledgements included) and ours (short replies) all validate, and
    the server never drops what a client sent."""
    sent = [event(0, content="C)"), event(1, content="ok"), event(2, content=""),
            event(3, role="assistant", kind="reply", content="Done.")]
    window = validate_submit(body(events=sent))
    assert [e.content for e in window.events] == ["C)", "ok", "", "Done."]
