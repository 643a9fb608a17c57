"""The consolidation pass on values: duplicates, supersession, resolution, near-misses, order."""

import random
from datetime import UTC, datetime, timedelta

import pytest

from synth.consolidate import Judge, Memory, consolidate
from synth.embeddings import shared_embedder

DAY0 = datetime(2026, 1, 1, 10, tzinfo=UTC)


def memories(*rows, vectors=True):
    """(id, type, content, day[, failed]) → Memory values with real embeddings."""
    vecs = shared_embedder().embed([row[2] for row in rows]) if vectors else [None] * len(rows)
    return [Memory(row[0], row[1], row[2], DAY0 + timedelta(days=row[3]), vec,
                   failed=len(row) > 4 and row[4]) for row, vec in zip(rows, vecs)]


def relations(links):
    return sorted((link.memory_id, link.relation, link.target_id) for link in links)


STORY = (
    ("q1", "decision", "Decided: use Redis Streams for the job queue — rationale: we run it", 0),
    ("b1", "task", "The flaky login test blocks the release", 0),
    ("q2", "decision", "Decided: keep the job queue on Redis Streams", 1),
    ("b2", "outcome", "[success] Fixed the flaky login test; the release is unblocked", 1),
    ("e1", "decision", "Decided: use Redis Streams for the event bus", 1),
    ("q3", "decision", "Decided: move the job queue to Postgres SKIP LOCKED instead of Redis", 2),
    ("p1", "preference", "Prefers tabs over spaces in Go files", 0),
    ("p2", "preference", "Prefers spaces over tabs in Go files", 2),
)
EXPECTED = [("b1", "distinct", None), ("b2", "resolves", "b1"), ("e1", "distinct", None),
            ("p1", "distinct", None), ("p2", "supersedes", "p1"), ("q1", "distinct", None),
            ("q2", "duplicate", "q1"), ("q3", "supersedes", "q1")]


def test_restated_reversed_resolved_and_near_misses():
    assert relations(consolidate(memories(*STORY), [], set())) == EXPECTED


def test_the_pass_is_deterministic_whatever_the_input_order():
    base = memories(*STORY)
    for seed in range(3):
        shuffled = base[:]
        random.Random(seed).shuffle(shuffled)
        assert relations(consolidate(shuffled, [], set())) == EXPECTED


def test_memories_looked_at_before_are_never_linked_again_and_new_ones_join_them():
    all_of_them = memories(*STORY)
    first, later = all_of_them[:2], all_of_them[2:]
    links = consolidate(first, [], set())
    assert relations(links) == [("b1", "distinct", None), ("q1", "distinct", None)]
    more = consolidate(later, first, {"q1", "b1"})
    assert relations(links + more) == EXPECTED
    assert consolidate([], all_of_them, {"q3", "b2", "e1", "p2"}) == []


def test_a_backfilled_earlier_statement_is_superseded_by_the_later_one_already_there():
    later, backfilled = memories(
        ("later", "decision", "Decided: switch the job queue to RabbitMQ", 5),
        ("backfilled", "decision", "Decided: use Redis Streams for the job queue", 1))
    links = consolidate([backfilled], [later], {"later"})
    assert relations(links) == [("later", "supersedes", "backfilled")]


@pytest.mark.parametrize(("first", "second"), [
    ("p99 latency of the search API is 120 ms", "p99 latency of the ingest API is 120 ms"),
    ("Use Postgres for the ledger", "Use Postgres for the search index"),
    ("[success] Fixed the flaky login test", "[success] Fixed the flaky checkout test"),
])
def test_two_different_facts_with_similar_words_are_never_merged(first, second):
    rows = memories(("a", "fact", first, 0), ("b", "fact", second, 1))
    assert relations(consolidate(rows, [], set())) == [("a", "distinct", None),
                                                       ("b", "distinct", None)]


def test_a_failed_outcome_closes_nothing_and_a_remeasured_figure_replaces_the_old_one():
    rows = memories(("t", "task", "The nightly backup job times out", 0),
                    ("f", "outcome", "[failure] Tried to fix the nightly backup job timeout", 1,
                     True),
                    ("m1", "outcome", "[success] p99 latency of the search API is 120 ms", 0),
                    ("m2", "outcome", "[success] p99 latency of the search API is now 95 ms", 3))
    assert relations(consolidate(rows, [], set())) == [
        ("f", "distinct", None), ("m1", "distinct", None), ("m2", "supersedes", "m1"),
        ("t", "distinct", None)]


def test_without_embeddings_the_words_decide():
    rows = memories(("a", "decision", "Use Redis Streams for the job queue", 0),
                    ("b", "decision", "Use Redis Streams for the job queue.", 1), vectors=False)
    assert relations(consolidate(rows, [], set(), Judge())) == [("a", "distinct", None),
                                                                ("b", "duplicate", "a")]
