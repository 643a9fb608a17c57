"""A figure keeps its subject, its unit and the direction of its change."""

import pytest

from synth.support.figures import (
    derived_difference,
    direction_conflict,
    role_conflict,
)

PROFILE = "Profiled cold start on the Pixel 6: render 27.39 s, launch 1.84 s."
LATENCY = "p95 latency dropped from 420 ms to 180 ms on the load test; p99 from 1.9 s to 410 ms."


@pytest.mark.parametrize(("item", "cited", "conflict"), [
    ("Cold start on the Pixel 6: launch takes 27.39 s", PROFILE, True),
    ("The first render takes 27.39 s while launch is only 1.84 s", PROFILE, False),
    ("The token bucket allows 20 requests per minute with a burst of 100",
     "The token bucket: 100 requests per minute per tenant with a burst of 20.", True),
    ("p99 latency dropped from 420 ms to 180 ms", LATENCY, True),  # another series' values
    ("Tail latency fell from 1.9 s to 410 ms", LATENCY, False),
    ("p95 went from 420 ms to 410 ms", LATENCY, True),  # ends of two different changes
    ("Ran the backup by hand: 41 GB uploaded in 212 minutes",
     "Ran the backup by hand: 212 GB uploaded in 41 minutes.", True),  # units swapped
])
def test_role_conflict(item, cited, conflict):
    assert (role_conflict(item, cited) is not None) is conflict


@pytest.mark.parametrize(("item", "cited", "conflict"), [
    ("recall@10 fell from 0.87 to 0.83", "Evaluation: recall@10 0.87 vs 0.83 before.", True),
    ("recall@10 rose from 0.83 to 0.87", "Evaluation: recall@10 0.87 vs 0.83 before.", False),
    ("The index grew by 33%", "Index size -33%.", True),
    ("The index is 33% smaller", "Index size -33%.", False),
    ("RSS grew from 380 MB to 2.1 GB", "RSS now stays at 380 MB instead of growing past 2.1 GB.",
     True),
    ("p95 rose to 420 ms", LATENCY, True),
    ("Renamed the subnet group from db-private-v2 to db-private",
     "Someone renamed the subnet group from db-private to db-private-v2.", True),
    ("The pin cut the flaky rate from 7% to 0.5%", "The flaky rate went from 7% to 0.5%.", False),
    # "A, against B previously"; "went down to A ..., from B"; "was A ...; now B"
    ("A deploy now takes 14 min of downtime, against 40 s previously",
     "Blue-green cut the deploy downtime from 14 min to 40 s.", True),
    ("Deploy downtime is 40 s now, against 14 min previously",
     "Blue-green cut the deploy downtime from 14 min to 40 s.", False),
    ("The Lighthouse score went down to 61 on mobile and 70 on desktop, from 95 and 99",
     "Lighthouse was 61 on mobile and 70 on desktop; now 95 and 99.", True),
    ("The Lighthouse score went up to 95 on mobile and 99 on desktop, from 61 and 70",
     "Lighthouse was 61 on mobile and 70 on desktop; now 95 and 99.", False),
])
def test_direction_conflict(item, cited, conflict):
    assert (direction_conflict(item, cited) is not None) is conflict


def test_a_share_is_no_duration():
    from synth.support.figures import role_conflict

    cited = ("Profile: JSON parsing is 4% of the time; 81% is spent waiting on the pricing "
             "service. The full index now takes 1 h 35 min.")
    assert role_conflict("Batching took the nightly index to 81 minutes", cited) == "81"
    assert role_conflict("81% of the indexing time is spent waiting on pricing", cited) is None


def test_a_difference_the_item_computes_is_held_when_it_says_so():
    cited = "median cold start on the 6a is down from 2.8 s to 1.5 s. the build took 4 s."
    assert derived_difference("1.3", "Median cold start improved by 1.3 s", cited)
    assert not derived_difference("1.3", "Median cold start is 1.3 s", cited)  # no difference word
    assert not derived_difference("2.5", "The build got faster by 2.5 s", cited)  # not one sentence


@pytest.mark.parametrize(("item", "cited", "conflict"), [
    ("Streaming raised the worker's memory use during exports",
     "Locally the export now finishes in 19 s, and worker memory stays around 120 MB instead of "
     "peaking at 900 MB.", True),
    ("Streaming cut the worker's memory use during exports",
     "Locally the export now finishes in 19 s, and worker memory stays around 120 MB instead of "
     "peaking at 900 MB.", False),
    ("Batching also made the inventory calls faster at p99",
     "Throughput per pod went from 65 to 910 msg/s and inventory p99 from 180 ms to 240 ms.", True),
    ("Batching raised throughput per pod",  # a rate goes the other way round to a time
     "Throughput per pod went from 65 to 910 msg/s and inventory p99 from 180 ms to 240 ms.",
     False),
    ("Bytes scanned went from 61 GB up to 1.4 TB", "Nightly run: bytes scanned 1.4 TB to 61 GB.",
     True),
    ("Warnings in the Media module went up from 12 to 41", "Warnings in Media: 41 before, 12 now.",
     True),
    ("Build time on the mac mini rose from 24 to 27 minutes",
     "Build time on the mac mini was 27 min, 24 min now.", True),
    ("Build time on the mac mini fell from 27 to 24 minutes",
     "Build time on the mac mini was 27 min, 24 min now.", False),
])
def test_a_direction_word_keeps_the_way_the_figures_went(item, cited, conflict):
    assert (direction_conflict(item, cited) is not None) is conflict


def test_n_plus_one_is_a_name_not_a_figure():
    cited = "Classic N+1: 1,239 queries for 412 projects."
    assert role_conflict("The N+1 resolvers issued 1,239 queries", cited) is None


@pytest.mark.parametrize(("item", "conflict"), [
    ("The new sampler made decoding faster in tokens per second", True),
    ("The new sampler made decoding slightly slower in tokens per second", False),
])
def test_faster_for_a_rate_is_up(item, conflict):
    cited = "Decoding throughput dropped slightly with the new sampler, 880 -> 842 tokens/s."
    assert (direction_conflict(item, cited) is not None) is conflict


@pytest.mark.parametrize(("item", "cited", "conflict"), [
    # a bare change takes its subject from the clause before it
    ("Between the two heap snapshots the number of retained Timeout objects fell sharply.",
     "The biggest delta is `Timeout` objects, up from 9,200 to 31,500, retained by closures.",
     True),
    ("Between the two heap snapshots the number of retained Timeout objects rose sharply.",
     "The biggest delta is `Timeout` objects, up from 9,200 to 31,500, retained by closures.",
     False),
    # a hit rate told with rose/fell goes the way its figures went; "like" is no figure
    ("The CI cache hit rate rose sharply after the move to new runners.",
     "bazel remote cache hit rate on ci dropped from like 92% to 15% since monday", True),
    ("The CI cache hit rate fell sharply after the move to new runners.",
     "bazel remote cache hit rate on ci dropped from like 92% to 15% since monday", False),
    # "from A before the fix to B after" against "B now (was A before"
    ("/oauth/token calls went from 1 before the fix to 20 after.",
     "A new test fires 20 concurrent 401s: exactly 1 `/oauth/token` call now (was 20 before).",
     True),
])
def test_a_change_keeps_its_subject_and_its_order(item, cited, conflict):
    assert (direction_conflict(item, cited) is not None) is conflict



@pytest.mark.parametrize(("value", "item", "held"), [
    ("95%", "retries were down by over 95% after the hotfix", True),  # 9,200 → 340 is -96%
    ("96%", "9,200 → 340 retries/min is a ~96% drop", True),
    ("80%", "retries were down by about 80% after the hotfix", False),
    ("95%", "95% of retries were 429s", False),  # no change told
])
def test_a_relative_change_is_derived_from_its_two_figures(value, item, held):
    assert derived_difference(value, item, "- retries/min: ~9,200 → ~340") is held


def test_a_difference_may_take_its_two_figures_from_sentences_in_a_row():
    cited = "Triangle counts: LOD2 3,010. Before the weld fix LOD2 was 2,400, with the holes."
    assert derived_difference("600", "the fix raised LOD2 by roughly 600 triangles", cited)
    assert not derived_difference("900", "the fix raised LOD2 by roughly 900 triangles", cited)
    apart = "LOD2 3,010. The run took 48 s. The budget is 3,500. Before the fix LOD2 was 2,400."
    assert not derived_difference("600", "the fix raised LOD2 by roughly 600 triangles", apart)
