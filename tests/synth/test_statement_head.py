"""The learned statement head and the policy that chooses a window's memories with it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from bench.real.labels import data_sha256
from ingest.events import Event
from synth.extract.choose import choose, head_picks
from synth.extract.features import CUES, STRUCTURAL
from synth.extract.scorer import CLASSES, HEAD_FILE, Linear, StatementHead, read_head, shipped_head

FEATURES = 384 + len(STRUCTURAL) + len(CUES)


def _head(threshold: float = 0.5, cap: int = 3, same: float = 0.9) -> StatementHead:
    zeros = np.zeros((FEATURES, 2), np.float32)
    layer = Linear(zeros, np.zeros(2, np.float32), np.zeros(FEATURES, np.float32),
                   np.ones(FEATURES, np.float32))
    kinds = Linear(np.zeros((FEATURES, len(CLASSES) - 1), np.float32),
                   np.zeros(len(CLASSES) - 1, np.float32), layer.mean, layer.scale)
    return StatementHead(layer, kinds, threshold, cap, same, "test")


def _rows(keep: np.ndarray) -> np.ndarray:
    """Probabilities whose P(keep) is `keep`, all of it on one memory type."""
    kinds = np.zeros((len(keep), len(CLASSES) - 1))
    kinds[:, 0] = 1.0
    return np.hstack([(1 - keep)[:, None], keep[:, None] * kinds])


def _unit(rows: int, seed: int) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(rows, 8))
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.integers(0, 30), elements=st.floats(0, 1)), st.integers(0, 9),
       st.integers(1, 6))
def test_the_choice_keeps_likely_statements_at_most_cap_in_trail_order_and_no_two_alike(
        keep, seed, cap):
    head = _head(cap=cap)
    vectors = _unit(len(keep), seed)
    chosen = choose(_rows(keep), vectors, head)
    positions = [c.position for c in chosen]
    assert positions == sorted(positions) and len(chosen) <= cap
    assert all(keep[p] >= head.keep_threshold for p in positions)
    assert all(float(vectors[a] @ vectors[b]) < head.same_subject
               for a in positions for b in positions if a < b)


def test_of_two_statements_on_one_subject_the_later_stands():
    vectors = _unit(3, 1)
    vectors[2] = vectors[0]  # the third says again what the first said
    chosen = choose(_rows(np.array([0.9, 0.8, 0.6])), vectors, _head())
    assert [c.position for c in chosen] == [1, 2]


def test_the_cap_takes_the_most_likely():
    chosen = choose(_rows(np.array([0.6, 0.95, 0.7, 0.99])), _unit(4, 2), _head(cap=2))
    assert [c.position for c in chosen] == [1, 3]


def test_a_sure_type_beats_a_likelier_keep_of_unsure_type():
    unsure = np.hstack([[0.1], np.full(len(CLASSES) - 1, 0.9 / (len(CLASSES) - 1))])
    sure = np.hstack([[0.3], [0.7], np.zeros(len(CLASSES) - 2)])
    chosen = choose(np.vstack([unsure, sure]), _unit(2, 3), _head(threshold=0.1, cap=1))
    assert [(c.position, c.kind) for c in chosen] == [(1, CLASSES[1])]
    assert chosen[0].probability == 0.7


def test_a_saved_head_reads_back_the_same(tmp_path):
    head = shipped_head()
    head.save(tmp_path / "head.npz")
    again = read_head(tmp_path / "head.npz")
    features = np.random.default_rng(0).normal(size=(5, FEATURES)).astype(np.float32)
    assert np.allclose(head.probabilities(features), again.probabilities(features))
    assert (again.keep_threshold, again.per_window, again.same_subject) == (
        head.keep_threshold, head.per_window, head.same_subject)


def test_the_shipped_head_was_trained_on_the_labels_the_repository_carries():
    assert read_head(HEAD_FILE).data_sha256 == data_sha256(), (
        "bench/real/data changed since the head was trained: run python -m bench.real.train")


def test_the_head_picks_the_windows_own_sentences():
    events = [Event(1, "2026-11-02T10:01:00Z", "s1", "user", "prompt",
                    "Please switch the job queue to Postgres SKIP LOCKED."),
              Event(2, "2026-11-02T10:02:00Z", "s1", "assistant", "reply",
                    "I switched the job queue from Redis to Postgres SKIP LOCKED; all 58 tests "
                    "pass and Redis is no longer used for jobs.")]
    for pick in head_picks(events):
        assert pick.candidate.text in events[pick.candidate.seq - 1].content
        assert 0 <= pick.score <= 1
