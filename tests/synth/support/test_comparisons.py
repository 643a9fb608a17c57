"""Comparisons: "X is slower than Y" agrees with the figures the events give X and Y."""

import pytest

from synth.support.comparisons import comparison_conflict, near_swap, pair_swap, whole_conflict
from synth.support.measures import quantity_of

BUILD = "The cached build (`make -j8`) runs in 48 s vs 3 min 20 s for the old Jenkins job."
EDGE = "Over 24 h of shadow traffic, p99 is 212 ms on Envoy vs 240 ms on nginx."


@pytest.mark.parametrize(("item", "cited", "conflict"), [
    ("The cached build is slower than the old Jenkins job", BUILD, True),
    ("The cached build is faster than the old Jenkins job", BUILD, False),
    ("The old Jenkins job takes longer than the cached build", BUILD, False),
    ("p99 latency is higher on Envoy than on nginx", EDGE, True),
    ("Envoy's p99 is lower than nginx's", EDGE, False),
    # a bound, or a comparison with the past, is no comparison of the two sides
    ("The cached build takes less than a minute", BUILD, False),
    ("The cached build is slower than before", BUILD, False),
    # nothing side by side: nothing to judge
    ("The cached build is slower than the old Jenkins job", "The cached build runs in 48 s.",
     False),
])
def test_comparison_conflict(item, cited, conflict):
    assert (comparison_conflict(item, cited) is not None) is conflict


@pytest.mark.parametrize(("text", "quantity"), [
    ("2 min 10 s", ("time", 130.0)),
    ("38 s", ("time", 38.0)),
    ("81%", ("%", 81.0)),
    ("1,204", ("", 1204.0)),
    ("fast", None),
])
def test_quantity_of(text, quantity):
    assert quantity_of(text) == quantity


@pytest.mark.parametrize(("item", "cited", "conflict"), [
    ("The fix is live on all 12 pods", "Rolled to 3 of 12 prod pods; the rest wait on ops.", True),
    ("The fix is live on 3 of the 12 pods", "Rolled to 3 of 12 prod pods; the rest wait on ops.",
     False),
    ("All 215 tests pass", "212/215 passed at first; after the fix 215 of 215 pass.", False),
    ("All 215 tests pass", "212/215 passed, 3 failed in test_refresh_token.", True),
])
def test_all_of_a_whole_needs_the_whole(item, cited, conflict):
    assert (whole_conflict(item, cited) is not None) is conflict


ROOM = ("On my Pixel 7 with a v4.11 database (3,840 notes) the upgrade took 410 ms. Test now passes: "
        "500 notes seeded at v7, all 500 present after migrating.")
SHT4X = ("Could be the bus: we're at 400 kHz with 10 kΩ pull-ups, which is borderline. Dropping to "
         "100 kHz to check. Same ~1 in 3 failure rate at 100 kHz, so it isn't signal integrity.")


@pytest.mark.parametrize(("item", "cited", "swapped"), [
    ("The migration test seeded 3,840 notes, and the Pixel 7 used for the manual check held 500",
     ROOM, True),
    ("The migration test seeded 500 notes, and the Pixel 7 used for the manual check held 3,840",
     ROOM, False),
    # words every figure's sentences share ("the bus") tell no swap
    ("Slowing the bus to 100 kHz left the CRC failures unchanged, so marginal signalling at "
     "400 kHz was ruled out", SHT4X, False),
])
def test_two_figures_told_with_each_others_words(item, cited, swapped):
    assert bool(pair_swap(item, cited)) is swapped


WORKERS = ("Worker startup per epoch, measured on one rank:\n"
           "- threads: 14 s. Cheap, but the GIL caps decoding.\n"
           "- processes: 63 s, because each one re-imports the model code.")


@pytest.mark.parametrize(("item", "swapped"), [
    ("Startup took 14 s per epoch with processes and 63 s with threads", True),
    ("Startup took 14 s per epoch with threads and 63 s with processes", False),
    ("With threads startup is 14 s; with processes, 63 s", False),
    ("Processes need 63 s to start, threads 14 s", False),
])
def test_two_figures_each_nearer_the_others_words(item, swapped):
    assert bool(near_swap(item, WORKERS)) is swapped
