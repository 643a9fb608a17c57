import pytest

from synth.report import (
    SECTIONS,
    InvalidReport,
    ground_timestamps,
    merge_reports,
    parse_report,
    report_json_schema,
    unsynthesized_report,
)


def test_merge_dedups_case_insensitively_first_wins():
    merged = merge_reports([
        {"decisions": [{"summary": "Use Postgres."}, {"summary": "use postgres."}]},
        {"decisions": [{"summary": "Use Postgres."}, {"summary": "Ship Friday."}]},
    ])
    assert [d["summary"] for d in merged["decisions"]] == ["Use Postgres.", "Ship Friday."]
    assert set(merged) == set(SECTIONS)


def test_merge_caps_each_section_and_skips_junk():
    items = [{"summary": f"item {i}"} for i in range(20)] + [{"summary": "  "}, "junk", {"x": 1}]
    merged = merge_reports([{"blockers": items}, None, "not a dict"])
    assert len(merged["blockers"]) == 15


def test_grounding_keeps_event_times_and_drops_invented_ones():
    events = ["2026-02-12T20:24:52.480Z", "2026-02-12T20:30:00.000Z"]
    report = {name: [] for name in SECTIONS}
    report["decisions"] = [
        {"summary": "a", "ts": "2026-02-12T20:24:52Z"},  # same second, ms dropped by the model
        {"summary": "b", "ts": "2026-02-12T21:00:00Z"},  # invented
        {"summary": "c", "ts": "yesterday"},
        {"summary": "d", "ts": None},
    ]
    grounded, dropped = ground_timestamps(report, events)
    assert [d["ts"] for d in grounded["decisions"]] == ["2026-02-12T20:24:52.480Z", None, None, None]
    assert dropped == 2


def test_an_item_takes_its_times_from_the_events_it_cites():
    ts = {3: "2026-02-12T20:24:52.480Z", 4: "2026-02-12T20:30:00.000Z",
          5: "2026-02-12T20:31:00.000Z"}
    report = {name: [] for name in SECTIONS}
    report["decisions"] = [
        {"summary": "a", "ts": "2026-02-12T20:30:00Z", "evidence": [4]},  # its own event: kept
        {"summary": "b", "ts": "2026-02-12T20:30:00Z", "evidence": [3]},  # another event's time
        {"summary": "c", "ts": "1999-01-01T00:00:00Z", "evidence": [5, 4]},  # invented
        {"summary": "d", "ts": None, "evidence": [5]},  # none given
        {"summary": "e", "ts": "2026-02-12T20:30:00Z"},  # cites nothing: the window's times
    ]
    report["worked_on"] = [{"summary": "w", "ts_start": None, "ts_end": "2026-02-12T20:24:52Z",
                            "evidence": [3, 4, 5]}]
    grounded, dropped = ground_timestamps(report, list(ts.values()), ts)
    assert [d["ts"] for d in grounded["decisions"]] == [ts[4], ts[3], ts[5], ts[5], ts[4]]
    worked_on = grounded["worked_on"][0]
    assert (worked_on["ts_start"], worked_on["ts_end"]) == (ts[3], ts[3])
    assert dropped == 2


@pytest.mark.parametrize(
    "text, error",
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not an object"),
        ('{"outcomes": [{"summary": "x", "result": "maybe"}]}', "outcomes.0.result"),
        ('{"decisions": "none"}', "decisions"),
    ],
)
def test_parse_report_refuses_what_is_not_a_report(text, error):
    with pytest.raises(InvalidReport, match=error):
        parse_report(text)


def test_parse_report_fills_missing_sections_and_strips_a_fence():
    report = parse_report('```json\n{"worked_on": [{"summary": "Fixed the login test"}]}\n```')
    assert report.as_dict()["blockers"] == []
    assert report.worked_on[0].summary == "Fixed the login test"


def test_schema_limits_timestamps_to_the_chunk_events():
    schema = report_json_schema(2, 100, timestamps=["t1", "t2", "t1"], sessions=["s"])
    ts = schema["properties"]["decisions"]["items"]["properties"]["ts"]
    assert ts == {"enum": ["t1", "t2", None]}
    assert schema["properties"]["blockers"]["maxItems"] == 2
    assert schema["required"] == list(SECTIONS)


def test_unsynthesized_report_is_one_episode_with_event_times():
    report = unsynthesized_report(7, "a", "b")
    assert report["worked_on"] == [{
        "summary": "Activity window of 7 events (LLM unavailable; unsynthesized).",
        "ts_start": "a", "ts_end": "b", "session_id": None}]


def test_the_unsynthesized_episode_names_its_window():
    report = unsynthesized_report(7, "2026-01-01T10:00:00Z", "2026-01-01T10:05:00Z",
                                  node_id="cc:m:n", cursor_from=10, cursor_to=29)
    assert report["worked_on"][0]["summary"] == (
        "Activity window of 7 events on cc:m:n (seq 10..29, 2026-01-01T10:00:00Z to "
        "2026-01-01T10:05:00Z) (LLM unavailable; unsynthesized).")
