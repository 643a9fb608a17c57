"""Report → items: every memory dated by its events, one memory per statement inside a window."""

from datetime import UTC, datetime

import pytest

from ingest.events import Event
from ingest.windows import Window
from sinks.items import report_to_items
from synth.report import SECTIONS
from synth.statements import TYPE_PRECEDENCE

EVENTS = (Event(3, "2026-01-01T10:00:00.000Z", "p:S", "user", "prompt", "x" * 80),
          Event(5, "2026-01-01T10:05:00.000Z", "p:S", "assistant", "reply", "y" * 80),
          Event(7, "2026-01-01T10:09:00.000Z", "p:S", "user", "prompt", "z" * 80))
WINDOW = Window("cc:m:n", "agent", 0, 9, EVENTS, tenant_id="t")


def at(minute: int) -> datetime:
    return datetime(2026, 1, 1, 10, minute, tzinfo=UTC)


def report(**sections) -> dict:
    return {name: sections.get(name, []) for name in SECTIONS}


def test_an_item_without_a_time_is_dated_by_its_earliest_cited_event():
    items = report_to_items(report(
        decisions=[{"summary": "Use Postgres for the ledger", "ts": None, "evidence": [7, 5]}],
        blockers=[{"summary": "The staging deploy is blocked on DNS", "ts": None, "evidence": []}],
        outcomes=[{"summary": "Login test fixed", "result": "success",
                   "ts": "2026-01-01T10:00:00.000Z", "evidence": [7]}]), WINDOW)
    starts = {item.content.split()[-1]: item.ts_valid_start for item in items}
    assert starts == {"ledger": at(5),  # earliest of the cited events 5 and 7
                      "DNS": at(0),  # no evidence: the window's first event
                      "fixed": at(0)}  # the model's own (grounded) time wins


def test_the_same_statement_under_several_sections_is_one_memory_of_the_most_specific_type():
    said = "moved the job queue to Redis streams"
    items = report_to_items(report(
        worked_on=[{"summary": f"Worked on: {said}", "ts_start": None, "evidence": [3]}],
        outcomes=[{"summary": f"{said.capitalize()}.", "result": "success", "ts": None,
                   "evidence": [5]}],
        decisions=[{"summary": f"Decided: {said}", "rationale": "fewer moving parts", "ts": None,
                    "evidence": [7]}],
        blockers=[{"summary": "Flaky login test on CI", "ts": None, "evidence": [5]}]), WINDOW)
    assert [(item.index, item.memory_type) for item in items] == [(0, "decision"), (1, "task")]
    merged = items[0]
    assert merged.content.startswith("Decided: moved the job queue")
    assert merged.evidence == (3, 5, 7)  # every section's evidence
    assert merged.ts_valid_start == at(0)
    assert merged.metadata["also_reported_as"] == ["episode", "outcome"]


@pytest.mark.parametrize(("first", "second"), [
    ("p99 latency of the search API is 120 ms", "p99 latency of the search API is 95 ms"),
    ("Use Redis for the job queue", "Do not use Redis for the job queue"),
    ("Cache hit rate of the ingest service is 62%", "Cache hit rate of the search service is 62%"),
])
def test_two_different_statements_with_similar_words_stay_two(first, second):
    items = report_to_items(report(
        outcomes=[{"summary": first, "result": "success", "ts": None, "evidence": [3]}],
        blockers=[{"summary": second, "ts": None, "evidence": [5]}]), WINDOW)
    assert [item.content for item in items] == [f"[success] {first}", second]


def test_precedence_is_documented_and_covers_every_type():
    from synth.report import MEMORY_TYPES

    assert sorted(TYPE_PRECEDENCE) == sorted(MEMORY_TYPES.values())
