"""The grounding check: what the events an item cites do not support never reaches the lake."""

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ingest.events import Event
from ingest.windows import Window
from synth.grounding import Support, check_item, content_words, ground_items, specifics
from synth.interview import ChunkAnswer, reduce_answers
from synth.report import SECTIONS, merge_reports

# A window like the demo's: the Spotter session (Claude Code) that the issue's junk came from.
EVENTS = (
    Event(40, "2026-02-12T20:20:01.000Z", "spotter:S", "user", "prompt",
          "The transcript panel debug toggle does not work: Ctrl+Shift+D changes nothing."),
    Event(47, "2026-02-12T20:21:10.000Z", "spotter:S", "assistant", "reply",
          "Renamed @show_debug to @transcript_view_show_debug in session_live.ex; the hint now follows "
          "the toggle."),
    Event(52, "2026-02-12T20:21:39.000Z", "spotter:S", "assistant", "reply",
          "Ran the SessionLive tests in the background: 14 tests, 0 failures in 2.3s."),
    Event(60, "2026-02-12T20:22:45.000Z", "spotter:S", "user", "prompt",
          "Great. Keep the debug hint text short, I prefer terse UI labels."),
)
WINDOW = Window("cc:spotter:S", "agent", 40, 60, EVENTS, tenant_id="t")


def reduce(report: dict):
    return reduce_answers(WINDOW, [ChunkAnswer(report={name: report.get(name, []) for name in SECTIONS})])


def test_the_invented_answers_of_the_issue_never_land():
    """The answers `interview run --demo` wrote before the check, replayed through the reduce
    with the citations a model would give them."""
    result = reduce({
        "worked_on": [
            {"summary": "CLAUDE.js is now ready to support a new feature, and it will be available in "
                        "the next version of CLEADER!", "evidence": [47]},
            {"summary": "2018-39 4:56 PM", "evidence": [52]},
            {"summary": "<h1>I am glad I can use this app!</p><ul>", "evidence": [60]},
        ],
        "decisions": [{"summary": "migrate to X after Y fix ships; keep Z as fallback.",
                       "rationale": None, "evidence": [40]}],
    })
    assert all(result.report[name] == [] for name in SECTIONS)
    assert {reason: n for reason, n in result.unsupported.items() if n} == {
        "prompt_copy": 1, "unsupported_figure": 2, "unsupported_words": 1}


def test_supported_items_land_with_their_evidence():
    result = reduce({
        "outcomes": [{"summary": "SessionLive tests pass: 14 tests, 0 failures in 2.3s",
                      "result": "success", "ts": "2026-02-12T20:21:39Z", "evidence": [52, 52]}],
        "decisions": [{"summary": "Renamed @show_debug to @transcript_view_show_debug in session_live.ex",
                       "rationale": "the debug hint did not follow the toggle", "evidence": [47]}],
        "preferences_learned": [{"summary": "The user prefers terse UI labels; keep the debug hint short",
                                 "evidence": [60]}],
    })
    assert [o["evidence"] for o in result.report["outcomes"]] == [[52]]
    assert result.report["outcomes"][0]["ts"] == "2026-02-12T20:21:39.000Z"
    assert len(result.report["decisions"]) == 1 and len(result.report["preferences_learned"]) == 1
    assert sum(result.unsupported.values()) == 0


def test_no_evidence_or_evidence_outside_the_window_is_dropped():
    result = reduce({"blockers": [
        {"summary": "The debug toggle does not work with Ctrl+Shift+D", "evidence": []},
        {"summary": "The debug toggle does not work with Ctrl+Shift+D", "evidence": [999]},
        {"summary": "The debug toggle does not work with Ctrl+Shift+D"}]})
    assert result.report["blockers"] == [] and result.unsupported["no_evidence"] == 1  # deduped


def test_a_figure_must_be_in_the_cited_events_not_elsewhere_in_the_window():
    far = {"summary": "SessionLive tests pass: 14 tests, 0 failures in 2.3s", "evidence": [40]}
    assert reduce({"outcomes": [far]}).unsupported["unsupported_figure"] == 1
    near = {"summary": "Ctrl+Shift+D changes nothing in the transcript panel", "evidence": [47]}
    assert len(reduce({"blockers": [near]}).report["blockers"]) == 1  # the event next to it


def test_the_reduce_keeps_evidence_through_merges():
    merged = merge_reports([
        {"decisions": [{"summary": "Keep terse labels", "evidence": [60]}]},
        {"decisions": [{"summary": "keep terse labels ", "evidence": [47, 60, "x", True]}]},
    ])
    assert merged["decisions"] == [{"summary": "Keep terse labels", "evidence": [60, 47]}]


def test_specifics_are_figures_versions_paths_and_identifiers():
    found = specifics("Pinned duckdb 1.5.5 in jobs/cli.py; recall@10 0.87 vs 0.83, index -33%, "
                      "the max_window_chars setting, «API_KEY» masked, `uv sync`")
    assert {"1.5.5", "jobs/cli.py", "0.87", "0.83", "33%", "max_window_chars"} <= found
    assert not any("api_key" in value for value in found)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=12, max_size=200))
@example("0000000000%0")  # a figure ending in a sign ends there
@example("000000000.aA")  # an identifier after a dot
@example("word 0%.0")
@example("word .v0_0")  # figure-shaped, found as an identifier
@example("word 0AΣ:A")  # a final sigma, lower-cased alone and in its sentence
@example("00000000A00ß")
def test_an_event_restated_verbatim_is_always_supported(content):
    """...unless it says nothing at all (no word, no figure), which no event makes worth keeping."""
    event = Event(1, "2026-01-01T00:00:00Z", None, "user", "prompt", content)
    says_nothing = not content_words(content) and not specifics(content)
    assert check_item(content, Support.of([event])) == ("unsupported_words" if says_nothing else None)


def test_a_figure_is_held_only_as_a_token_of_its_own_and_an_empty_item_says_nothing():
    support = Support.of(EVENTS)
    assert check_item("SessionLive tests: 14 tests, 0 failures", support) is None
    assert check_item("Upgraded the SessionLive tests to 2", support) == "unsupported_figure"
    assert check_item("SessionLive tests took 3s", support) == "unsupported_figure"  # not 2.3s
    assert check_item("[x] [y], x, y", support) == "unsupported_words"


def test_ground_items_counts_every_reason():
    report, dropped = ground_items({"worked_on": [
        {"summary": "Nothing that is here at all, about Kubernetes operators", "evidence": [40]}]},
        list(EVENTS))
    assert report["worked_on"] == [] and dropped["unsupported_words"] == 1


# Issue 23: the check tests meaning, not word overlap. Both fail on the word-overlap check of
# main before it (checked: `git stash` of synth/, run, unstash).
IOS = Event(3, "2026-03-01T09:00:00.000Z", "m:S", "user", "prompt",
            "Before the 4.2 release: please don't run the iOS build locally, CI does it on the "
            "macOS runners. Just push the branch.")
TIMEOUT = (
    Event(10, "2026-03-01T10:00:00.000Z", "g:S", "assistant", "reply",
          "The upstream timeout is 30s; maybe slow requests hit it. Raised proxy_read_timeout "
          "to 60s."),
    Event(12, "2026-03-01T11:00:00.000Z", "g:S", "assistant", "reply",
          "After an hour of peak traffic, raising the timeout did not reduce the 502s: still 3% of "
          "requests."),
)


def test_an_inverted_preference_is_dropped():
    """The user said not to build iOS locally; the memory that says to build it is never kept."""
    report, dropped = ground_items(
        {"preferences_learned": [{"summary": "Build iOS locally", "evidence": [3]}]}, [IOS])
    assert report["preferences_learned"] == [] and dropped["polarity"] == 1
    kept, _ = ground_items({"preferences_learned": [
        {"summary": "Don't run the iOS build locally; CI builds iOS on the macOS runners",
         "evidence": [3]}]}, [IOS])
    assert len(kept["preferences_learned"]) == 1


def test_a_failed_attempt_stated_as_a_fix_is_dropped():
    report, dropped = ground_items(
        {"outcomes": [{"summary": "Raising the timeout fixed the 502s", "evidence": [12]}]},
        list(TIMEOUT))
    assert report["outcomes"] == [] and dropped["polarity"] == 1
    kept, _ = ground_items({"outcomes": [
        {"summary": "Raising proxy_read_timeout to 60s did not reduce the 502s",
         "evidence": [10, 12]}]},
        list(TIMEOUT))
    assert len(kept["outcomes"]) == 1


def test_the_new_reasons_reach_the_window_report():
    result = reduce({"outcomes": [
        {"summary": "SessionLive tests: 2.3 tests, 14 failures in 0s", "evidence": [52]},
        {"summary": "The transcript panel debug toggle works with Ctrl+Shift+D",
         "evidence": [40]}]})
    assert result.report["outcomes"] == []
    assert result.unsupported["figure_role"] + result.unsupported["polarity"] == 2
