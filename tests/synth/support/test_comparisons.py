"""Comparisons: "X is slower than Y" agrees with the figures the events give X and Y."""

import pytest

from synth.support.comparisons import comparison_conflict
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
