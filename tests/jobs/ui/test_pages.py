"""The pages as pure functions: every value escaped wherever it lands, the chart's bars, the URLs,
and the access rules' small parts (loopback, Host, CSRF). No lake, no server."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from types import SimpleNamespace

import pytest

from jobs.http.auth import AuthFailed, KeyRing, hash_key
from jobs.settings import ApiKey
from jobs.ui import forget_page, ops_page, pages
from jobs.ui.auth import Access, host_name, is_loopback
from jobs.ui.chart import buckets, chart
from jobs.ui.html import esc, layout, url
from jobs.ui.memory_page import memory_page
from jobs.ui.sign_in import error_page, sign_in_page

EVIL = '"><script>alert(1)</script><img src=x onerror=alert(2)>'
T = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


def memory(**over) -> dict:
    row = {"memory_id": EVIL, "memory_type": EVIL, "content": EVIL, "ts_valid_start": T,
           "ts_valid_end": T, "created_at": T, "node_id": EVIL, "session_id": EVIL,
           "agent_id": EVIL, "path": EVIL, "source": EVIL, "project": EVIL, "window_from": 0,
           "window_to": 9, "evidence_note": EVIL,
           "evidence": [{"seq": 0, "ts": "2026-03-01T09:30:00Z", "role": EVIL, "kind": "prompt",
                         "content": EVIL, "where": EVIL + ":1"}],
           "chain": [{"memory_id": EVIL, "memory_type": EVIL, "content": EVIL,
                      "ts_valid_start": T, "state": EVIL, "other_id": EVIL, "since": T},
                     {"memory_id": EVIL, "memory_type": None, "content": None,
                      "ts_valid_start": None, "state": "forgotten", "other_id": None,
                      "since": None}]}
    return {**row, **over}


def rendered() -> dict[str, str]:
    hit = SimpleNamespace(memory_id=EVIL, memory_type="decision", content=EVIL,
                          ts_valid_start=T, score=0.03, bm25_rank=1, vector_rank=None)
    result = SimpleNamespace(memories=2, windows=1, preview=[memory()], forget_id=EVIL)
    run = {"run_id": EVIL, "kind": EVIL, "status": EVIL, "started_at": T, "finished_at": None,
           "backend": EVIL, "model": None, "counts": {EVIL: EVIL, "windows": EVIL}}
    node = {"node_id": EVIL, "source": EVIL, "project": EVIL, "lines": 3, "last_seq": 1,
            "pending": 1, "last_interview_at": T, "noise": 0, "memories": 2}
    values = {"id": [EVIL], "node": EVIL, "session": EVIL, "before": EVIL, "match": EVIL}
    return {
        "projects": pages.projects_page([{"project": EVIL, "nodes": 1, "memories": 2,
                                          "types": {EVIL: 1}, "first_at": T, "last_at": None}]),
        "project": pages.project_page(EVIL, {"rows": [memory()], "total": 3, "per_day": [
            (date(2026, 3, 1), EVIL, 2)]}, types=(), since=None, until=None, limit=1, offset=1),
        "search": pages.search_page(EVIL, [hit], types=(), since=None, until=None, k=5),
        "search error": pages.search_page(EVIL, [], types=(), since=None, until=None, k=5,
                                          error=EVIL),
        "memory": memory_page(memory(), [memory(memory_id="other")], can_forget=True),
        "ops": ops_page.ops_page({"nodes": [node], "inbox": {EVIL: 1}, "runs": [run],
                                  "parked": [{"node_id": EVIL, "cursor_from": 0, "cursor_to": 1,
                                              "status": EVIL, "attempts": 3, "reason": EVIL}]}),
        "preview": forget_page.forget_preview(result, values, EVIL),
        "done": forget_page.forget_done(result),
        "error": error_page(403, EVIL),
        "sign in": sign_in_page(EVIL, EVIL),
        "layout": layout(EVIL, esc(EVIL), tenant=EVIL, signed_in=EVIL, csrf=EVIL, forget=True),
    }


@pytest.mark.parametrize("name", sorted(rendered()))
def test_untrusted_values_are_text_on_every_page(name):
    html = rendered()[name]
    assert "<script>alert" not in html and "<img" not in html
    assert EVIL not in html  # nowhere raw: not in an element, not out of an attribute
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_the_layout_loads_only_its_own_assets_and_offers_forget_only_when_on():
    page = layout("t", esc("body"), tenant="local")
    assert 'src="/static/ui.js"' in page and 'href="/static/ui.css"' in page
    assert "http://" not in page and "https://" not in page and "//" not in page.replace(
        "<!doctype", "")
    assert 'href="/forget"' not in page
    assert 'href="/forget"' in layout("t", esc("b"), tenant="local", forget=True)


def test_urls_repeat_lists_and_leave_out_empty_values():
    assert url("/project", name="a b&c", type=["task", "fact"], since=None, until="") == \
        "/project?name=a+b%26c&type=task&type=fact"
    assert url("/") == "/"


@pytest.mark.parametrize("days, unit, bars", [
    (1, "day", 1), (10, "day", 10), (120, "day", 120), (121, "week", 18), (840, "week", 120),
    (841, "month", 28), (2000, "month", 66)])
def test_the_chart_picks_days_weeks_or_months(days, unit, bars):
    first = date(2026, 1, 5)  # a Monday
    counts = [(first, "decision", 2), (first + timedelta(days=days - 1), "task", 1)]
    found_unit, found = buckets(counts)
    assert (found_unit, len(found)) == (unit, bars)
    assert sum(sum(cell.values()) for _, cell in found) == 3  # empty buckets in between


def test_the_chart_stacks_types_and_links_each_bar_to_its_memories():
    svg = chart([(date(2026, 3, 1), "decision", 2), (date(2026, 3, 1), "task", 1),
                 (date(2026, 3, 3), "fact", 4)], project="api")
    assert svg.count("<rect") == 3 and svg.count("<a href") == 3
    assert "/project?name=api&amp;since=2026-03-01&amp;until=2026-03-02" in svg
    assert "<title>2026-03-03: 4 fact</title>" in svg and ">4</text>" in svg  # the peak
    assert "No memory with a time" in chart([], project="api")


@pytest.mark.parametrize("host, loopback", [
    ("127.0.0.1", True), ("127.0.0.2", True), ("localhost", True), ("::1", True),
    ("[::1]", True), ("0.0.0.0", False), ("10.1.2.3", False), ("::", False),
    ("example.org", False), ("", False)])
def test_loopback_addresses(host, loopback):
    assert is_loopback(host) is loopback


@pytest.mark.parametrize("header, host", [
    ("127.0.0.1:8765", "127.0.0.1"), ("localhost", "localhost"), ("[::1]:80", "::1"),
    ("attacker.example:8765", "attacker.example"), ("[::1", "[::1")])
def test_host_header_names(header, host):
    assert host_name(header) == host


def keyed(**options) -> Access:
    keys = KeyRing([ApiKey(sha256=hash_key("r"), tenant="acme", capabilities=["read"], name="r"),
                    ApiKey(sha256=hash_key("w"), tenant="acme", capabilities=["write", "read"]),
                    ApiKey(sha256=hash_key("a"), tenant="ops", capabilities=["read", "admin"])])
    return Access(keys, "local", **options)


def test_keys_sessions_and_tenants():
    access = keyed(tenant_flag="acme", allow_forget=True)
    assert access.caller({}, {}) is None  # nobody signed in
    with pytest.raises(AuthFailed, match="Invalid API key"):
        access.caller({"x-api-key": "nope"}, {})
    reader = access.caller({"x-api-key": "r"}, {})
    assert access.tenant(reader) == "acme"
    assert access.tenant(access.caller({"x-api-key": "a"}, {})) == "acme"  # admin: any tenant
    with pytest.raises(AuthFailed, match="read-only"):
        access.may_forget(reader, "acme")
    access.may_forget(access.caller({"x-api-key": "w"}, {}), "acme")
    token, caller = access.sign_in(" w ")
    assert access.caller({}, {"interview_ui": token}) == caller
    assert access.csrf({"interview_ui": token}) != access.csrf({})
    access.sign_out({"interview_ui": token})
    assert access.caller({}, {"interview_ui": token}) is None
    with pytest.raises(AuthFailed, match="forgetting is off"):
        keyed().may_forget(caller, "acme")
    assert keyed().tenant(reader) == "acme"  # no --tenant: the key's own


def test_forms_need_their_token_and_this_origin():
    access = Access(None, "local")
    token = access.csrf({})
    access.check_post({}, {"host": "127.0.0.1:9", "origin": "http://127.0.0.1:9"}, token)
    access.check_post({}, {"host": "127.0.0.1:9"}, token)  # no Origin sent
    for headers, given in [({"host": "127.0.0.1:9"}, None), ({"host": "127.0.0.1:9"}, "0" * 64),
                           ({"host": "127.0.0.1:9", "origin": "http://evil.example"}, token),
                           ({"host": "127.0.0.1:9", "origin": "null"}, token)]:
        with pytest.raises(AuthFailed):
            access.check_post({}, headers, given)
    assert Access(None, "local").csrf({}) != token  # a secret per start
