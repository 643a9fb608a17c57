"""The real embedding model (int8 all-MiniLM-L6-v2 on onnxruntime), on the CPU."""

import numpy as np
import pytest

from synth.embeddings import DIMENSIONS, EMBEDDING_MODEL, shared_embedder


@pytest.fixture(scope="module")
def embedder():
    return shared_embedder()


def test_vectors_are_unit_length_and_sized(embedder):
    vectors = embedder.embed(["We picked DuckLake.", "", "x" * 5000])
    assert vectors.shape == (3, DIMENSIONS) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors[[0, 2]], axis=1), 1.0, atol=1e-5)
    assert embedder.model == EMBEDDING_MODEL


def test_meaning_outranks_shared_words(embedder):
    query, near, far = embedder.embed([
        "which database did we choose for storing memories",
        "Decided on DuckLake with a SQLite catalog as the memory store",
        "Lunch options near the office: pizza or ramen",
    ])
    assert float(query @ near) > float(query @ far) + 0.2


def test_a_text_embeds_the_same_alone_or_in_a_padded_batch(embedder):
    texts = ["short", "a much longer sentence about windows, chunks and watermarks " * 3, "mid length text"]
    batch = embedder.embed(texts)
    alone = np.stack([embedder.embed([t])[0] for t in texts])
    assert np.allclose(batch, alone, atol=1e-4)
