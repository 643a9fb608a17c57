"""Closeness in meaning with the real MiniLM embedder: a restatement in other words is kept, and
still has to pass the rules of meaning."""

import pytest

from ingest.events import Event
from synth.grounding import SupportCheck, check_item, evidence_for
from synth.support.paraphrase import Closeness

EVENTS = [
    Event(0, "2026-01-01T00:00:00.000Z", "s", "user", "prompt",
          "Don't touch the gateway config on Fridays, we freeze it."),
    Event(1, "2026-01-01T00:00:01.000Z", "s", "assistant", "reply",
          "Sent 50 test pushes to iOS devices: 50 delivered."),
]


@pytest.fixture(scope="module")
def closeness():
    from synth.embeddings import shared_embedder

    return Closeness(shared_embedder().embed)


def test_a_restatement_in_other_words_is_kept_only_with_closeness(closeness):
    item = "Verified the fix: every one of the 50 trial notifications reached the phones"
    assert check_item(item, evidence_for(EVENTS, [1])) == "unsupported_words"
    check = SupportCheck(closeness=closeness)
    assert check_item(item, evidence_for(EVENTS, [1]), check=check) is None
    assert check.paraphrased == 1


def test_closeness_does_not_keep_what_the_events_are_not_about(closeness):
    check = SupportCheck(closeness=closeness)
    assert check_item("Migrated the billing database to a new Postgres cluster",
                      evidence_for(EVENTS, [1]), check=check) == "unsupported_words"


def test_vectors_are_embedded_once_per_text(closeness):
    texts = ("no gateway changes on a Friday", ["Don't touch the gateway config on Fridays."])
    first = closeness(*texts)
    calls = closeness.calls
    assert closeness(*texts) == first and closeness.calls == calls  # cached: no model call
    assert 0.5 < first <= 1.0
