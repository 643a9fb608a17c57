"""The real-session benchmark: the baselines score as they must, and training is reproducible."""

from __future__ import annotations

import json

import numpy as np

from bench.real import bench, train
from bench.real.labels import LabelError, cohen_kappa, parse_label, reader_labels
from bench.real.sessions import sessions


def test_the_carried_sessions_are_split_by_session_and_every_labelled_one_parses():
    names = {s.name: s.split for s in sessions()}
    assert len(names) == 100 and set(names.values()) == {"dev", "test"}
    for labelled in reader_labels("A").values():
        assert set(labelled.labels) <= set(range(len(labelled.session.statements)))


def test_a_label_outside_the_syntax_is_refused_with_where_it_is():
    assert parse_label("keep:outcome:failure", "x").result == "failure"
    assert parse_label("junk:superseded>S9", "x").replaced_by == 9
    try:
        parse_label("keep:opinion", "f.json: S3")
    except LabelError as error:
        assert "f.json: S3" in str(error) and "opinion" in str(error)
    else:
        raise AssertionError("an unknown type was accepted")


def test_kappa_is_one_for_agreement_and_zero_for_chance():
    assert cohen_kappa(["a", "b", "a"], ["a", "b", "a"]) == 1.0
    assert abs(cohen_kappa(["a", "a", "b", "b"], ["a", "b", "a", "b"])) < 1e-9


def test_the_oracle_is_exact_none_finds_nothing_and_the_default_is_judged_by_labels(tmp_path):
    out = tmp_path / "bench.json"
    assert bench.main(["--split", "test", "--labels", "A", "--sessions", "3", "--backends",
                       "embedded,oracle,none,copy-prompts", "--json", str(out)]) == 0
    rows = {row["backend"]: row for row in json.loads(out.read_text())["rows"]}
    assert rows["oracle"]["precision"] == 1.0 and rows["oracle"]["recall"] > 0
    assert rows["none"]["recall"] == 0 and rows["none"]["judged"] == 0
    embedded = rows["embedded"]
    assert embedded["by"].get("unjudged", 0) == 0  # every memory is one of the labelled statements
    assert embedded["size_ratio"] <= 1.5


def test_training_is_reproducible_and_a_projection_folds_back_into_the_full_layer():
    rng = np.random.default_rng(0)
    features = np.hstack([rng.normal(size=(200, 384)), np.ones((200, 1)),
                          rng.normal(size=(200, 6))]).astype(np.float32)
    targets = rng.integers(0, 3, 200)
    first = train.fit_linear(features, targets, 3, 0.1, dims=8, steps=40)
    again = train.fit_linear(features, targets, 3, 0.1, dims=8, steps=40)
    assert np.array_equal(first.weights, again.weights)
    vectors = features[:, :384]
    centre = vectors.mean(axis=0)
    basis = np.linalg.svd(vectors - centre, full_matrices=False)[2][:8].T
    small_features = np.hstack([(vectors - centre) @ basis, features[:, 384:]])
    small = train._fit_dense(small_features, targets, 3, 0.1, False, 40)
    assert np.allclose(first.probabilities(features), small.probabilities(small_features), atol=1e-5)
