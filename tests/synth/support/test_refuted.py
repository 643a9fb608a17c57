"""A hypothesis that later events of the window reject is never stated as true."""

import pytest

from ingest.events import Event
from synth.grounding import check_item, evidence_for
from synth.support.refuted import rejected_hypotheses, states_guess
from tests.synth.support.test_polarity import units


def window(*texts):
    return [Event(seq, f"2026-01-01T00:00:{seq:02d}.000Z", "s", "assistant", "reply", text)
            for seq, text in enumerate(texts)]


RECALL = window(
    "Recall dropped after last week's reindex.",
    "My first guess: maybe the new tokenizer is the cause of the recall drop.",
    "Checked the tokenizer output against the old one.",
    "The tokenizer is fine, that hypothesis is ruled out. The real cause: 12% of documents kept "
    "stale embeddings.",
)
# Abandoned without "ruled out", several turns later.
GATEWAY = window(
    "The upstream timeout is 30s; maybe slow requests hit it. Raised proxy_read_timeout to 60s.",
    "Waiting for an hour of peak traffic.",
    "Still watching the gateway dashboards.",
    "Raising the timeout did not reduce the 502s.",
)


def test_a_rejected_hypothesis_stated_as_fact_is_dropped():
    assert check_item("The new tokenizer caused the recall drop",
                      evidence_for(RECALL, [1])) == "refuted"
    assert check_item("Slow requests hitting the 30s upstream timeout caused the errors",
                      evidence_for(GATEWAY, [0])) == "refuted"


def test_an_item_may_say_it_was_ruled_out_or_keep_it_a_hypothesis():
    assert check_item("The new tokenizer was ruled out as the cause of the recall drop",
                      evidence_for(RECALL, [1, 3])) is None
    assert check_item("Maybe the new tokenizer caused the recall drop",
                      evidence_for(RECALL, [1])) is None


def test_a_hypothesis_nothing_rejects_stays_a_restatement():
    confirmed = window("Maybe the new tokenizer is the cause of the recall drop.",
                       "Confirmed: the new tokenizer splits product codes.")
    assert check_item("The new tokenizer is the cause of the recall drop",
                      evidence_for(confirmed, [0])) is None


def test_a_hypothesis_its_own_sentence_drops_is_refuted():
    export = window("The CSV export times out for accounts with more than 1 million rows.",
                    "I wondered whether the database query was slow too, but it returns the first "
                    "rows in 0.3 s, so the query is fine.")
    assert check_item("The slow database query is why the export times out",
                      evidence_for(export, [1])) == "refuted"


def test_a_hypothesis_dropped_in_other_words_is_refuted():
    for rejection in ("Hmm, the flamegraph doesn't back that up: hashing is only 9% of samples.",
                      "Scratch that: hashing is only 9% of samples.",
                      "Checked: hashing isn't it, it is 9% of samples."):
        trail = window("My guess is the SHA-256 hashing is the bottleneck.", rejection)
        assert check_item("The SHA-256 hashing is the bottleneck",
                          evidence_for(trail, [0])) == "refuted", rejection


def test_a_negative_guess_restated_is_refuted_and_its_plan_is_no_part_of_it():
    redis = window("Possibly the ioredis client caches the slot map and never refreshes it after MOVED.",
                   "ioredis does refresh on MOVED after all, so a stale slot cache isn't what "
                   "happened.")
    assert check_item("The ioredis client cached the slot map and never refreshed it after MOVED",
                      evidence_for(redis, [0])) == "refuted"
    vacuum = window("One thing that could be holding it back is a long-running transaction pinning "
                    "the xmin horizon, so I'll look at pg_stat_activity next.",
                    "No long transactions, so it's not a horizon problem.")
    assert check_item("A long-running transaction was holding back the xmin horizon",
                      evidence_for(vacuum, [0])) == "refuted"


@pytest.mark.parametrize(("item", "told", "conflict"), [
    # the only sentence it restates guesses: a guess is no fact
    ("The exports were slow because the S3 client retried every part three times",
     ["My hunch is the S3 client retries every part three times."], True),
    ("The queue backed up because the consumer pool was too small",
     ["Queue depth peaked at 40k. I suspect the consumer pool is too small, checking."], True),
    ("The signature check failed because our config held the old key fingerprint",
     ["We reject the webhook with `invalid signature`. Our config holds the old key "
      "fingerprint, I suspect that mismatch."], True),
    # told as a guess, or denied, or told plainly by another sentence: kept
    ("Suspected the consumer pool was too small",
     ["Queue depth peaked at 40k. I suspect the consumer pool is too small, checking."], False),
    ("The backlog did not come from the consumer pool",
     ["Could be the consumer pool size;", "The consumer pool is fine: the broker throttles."],
     False),
    ("The queue backed up because the consumer pool was too small",
     ["I suspect the consumer pool is too small.",
      "Confirmed: the consumer pool was too small, 4 workers for 40k messages."], False),
    ("The duplicates came from task retries appending a second copy",
     ["My first thought is task retries: the task does INSERT INTO, so a retried task would "
      "append a second copy."], True),
    # a proposal, and an aside, guess nothing
    ("Move the nightly job to the larger warehouse",
     ["I think we should move the nightly job to the larger warehouse."], False),
    ("A full rewrite locks the table for hours, so pg_repack was picked",
     ["A full rewrite locks the table for the whole run (hours, probably), so pg_repack was "
      "picked."], False),
    # what "could cause" it is the guess, not that it happened
    ("Replica-2 fell behind during the nightly vacuum",
     ["A few things could cause one replica to fall behind while the other keeps up:"], False),
    # a bullet under a hedged lead-in is a guess
    ("Replica-2 fell behind because a long-running query was holding back WAL replay",
     ["A few things could cause one replica to fall behind:\n- a long-running query on "
      "replica-2 holding back WAL replay\n- disk I/O saturation"],
     True),
])
def test_a_guess_is_no_fact(item, told, conflict):
    assert (states_guess(item, units(*told)) is not None) is conflict


def test_a_bet_or_a_suspect_that_later_events_disprove_is_refuted():
    bet = window("My bet is the vendored charting library: it ships every locale twice.",
                 "Ran the analyzer: the charting library is fine, only 12 KB of it ships.")
    assert check_item("The charting library ships every locale twice",
                      evidence_for(bet, [0])) == "refuted"
    tested = window("The shared volume is my main suspect. To test it I'll copy the data to local "
                    "disk.", "Copied everything to local disk and reran. It still hangs at epoch 3.")
    assert rejected_hypotheses(tested, tested)
    cleared = window("The shared volume is my main suspect. To test it I'll copy the data to local "
                     "disk.", "Copied everything to local disk and reran: no hang in 10 epochs.")
    assert not rejected_hypotheses(cleared, cleared)
