"""Quantities in other units: "15 minutes" is held by `900s`, "400 s" by "6 min 40 s"."""

import pytest

from ingest.events import Event
from synth.grounding import check_item
from synth.support.lexical import Support
from synth.support.measures import held_as_range, held_in_other_units, quantities


@pytest.mark.parametrize(("value", "item", "cited", "held"), [
    ("15", "the route timeout is capped at 15 minutes", "replaced it with `timeout: 900s`", True),
    ("400", "the slowest upload took 400 s", "the slowest took 6 min 40 s", True),
    ("133", "the job ran 133 seconds", "ran in 2m13s", True),
    ("1.5", "the image shrank to 1.5 GB", "the image is now 1,536 MB", True),
    ("1.2", "freed 1.2 TB", "freed 1,200 GB", True),
    ("2", "p99 is 2 s", "p99 is 2,000 ms", True),
    ("16", "the route timeout is capped at 16 minutes", "replaced it with `timeout: 900s`", False),
    ("15", "the timeout is 15 GB", "replaced it with `timeout: 900s`", False),  # no such size
    ("15", "15 retries", "timeout: 900s", False),  # no unit: nothing to convert
    ("5", "took 5m", "took 300 s", False),  # "5m" alone may be metres or millions
    ("2", "a 2 GiB memory limit", "limits: memory: 2Gi", True),  # Kubernetes units
    ("1.1", "gains about 1.1 million entries an hour", "+1.1M entries per hour", True),
    ("18,400", "went NaN near step 18,400", "went NaN at step 18.4k again", True),
    ("18,600", "went NaN near step 18,600", "went NaN at step 18.4k again", False),
    ("9", "the 9-million-row table", "the 9M-row `deployments` table", True),
])
def test_held_in_other_units(value, item, cited, held):
    assert held_in_other_units(value, item, cited) is held


def test_a_compound_quantity_counts_once():
    assert quantities("6 min 40 s, then 3 s") == [("time", 400.0), ("time", 3.0)]


@pytest.mark.parametrize(("value", "cited", "held"), [
    ("15", "every failure lands at exactly 15.0 s", True),
    ("15", "every failure lands at 15.5 s", False),
    ("0.25", "x/net stays pinned until security signs off on v0.25", True),
    ("v0.25", "x/net stays pinned until security signs off on 0.25", True),
    ("v0.26", "x/net stays pinned until security signs off on 0.25", False),
    ("95th", "the dashboard query's p95 is 140 ms", True),
    ("99th", "the dashboard query's p95 is 140 ms", False),
    ("3.4", "throughput is now 3.4x", True),  # "3.4-fold"
    ("17th", "days 10-17 have both files", True),
    ("event_ids", "0 duplicate `event_id`s", True),
    ("404s", "which is why you get the default backend 404.", True),  # the plural of a code
])
def test_a_figure_in_another_spelling(value, cited, held):
    support = Support(cited.casefold(), frozenset(), frozenset())
    assert support.holds_specific(value, figure=not value.isidentifier()) is held


def test_the_check_keeps_a_converted_figure_and_drops_a_wrong_one():
    cited = Support.of([Event(5, "2026-02-12T20:21:10.000Z", "edge:S", "assistant", "reply",
                              "Replaced `timeout: 0s` with `timeout: 900s` on the upload route.")])
    assert check_item("The upload route timeout is now capped at 15 minutes", cited) is None
    assert check_item("The upload route timeout is now capped at 20 minutes",
                      cited) == "unsupported_figure"


@pytest.mark.parametrize(("value", "held"), [("9k", True), ("31.5k", True), ("10k", False)])
def test_thousands_written_short_are_held_by_the_count(value, held):
    item = "Retained Timeout objects more than tripled, from about 9k to about 31.5k."
    item = item.replace("9k", value) if value == "10k" else item
    cited = "Comparing the snapshots, `Timeout` objects went up from 9,200 to 31,500."
    assert held_in_other_units(value, item, cited) is held


@pytest.mark.parametrize(("value", "item", "cited", "held"), [
    ("30s", "the partition was down to the mid-30s in active parts", "291 -> 34 parts", True),
    ("30s", "the partition was down to the mid-30s in active parts", "291 -> 39 parts", False),
    ("40s", "p99 sat in the low 40s", "p99: 41 ms", True),
    ("30s", "the partition was down to the mid-30s", "took 35% longer", False),  # a share
])
def test_a_figure_told_as_a_range_in_words(value, item, cited, held):
    assert held_as_range(value, item, cited) is held
