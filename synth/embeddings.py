"""Sentence embeddings for recall: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime, on the CPU.

The vectors are what sentence-transformers gives for this model: mean of the last hidden
states over the real tokens, L2-normalised, 384 floats, so cosine similarity is a dot product.
Both files come from PyPI packages (`synth.model_store`); nothing is fetched at run time once
`interview model pull` has run.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ingest.errors import EmbedderUnavailable
from synth.model_store import MINILM_ONNX, MINILM_TOKENIZER, ensure_model

log = logging.getLogger(__name__)

EMBEDDING_MODEL = "all-MiniLM-L6-v2-int8"
DIMENSIONS = 384
MAX_TOKENS = 256  # the model's own max_seq_length; longer text is cut, as sentence-transformers does


class Embedder:
    """One loaded model. Not thread-safe to construct; `embed` may be called from one thread."""

    model = EMBEDDING_MODEL
    dimensions = DIMENSIONS

    def __init__(self, threads: int = 2, batch_size: int = 64,
                 model_path: Path | None = None, tokenizer_path: Path | None = None):
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as error:
            raise EmbedderUnavailable(
                f"recall embeddings need onnxruntime and tokenizers ({error}); "
                "pip install onnxruntime tokenizers, or set embeddings.enabled = false"
            ) from None
        model_path = model_path or ensure_model(MINILM_ONNX)
        tokenizer_path = tokenizer_path or ensure_model(MINILM_TOKENIZER)
        self.tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self.session = onnxruntime.InferenceSession(
            os.fspath(model_path), options, providers=["CPUExecutionProvider"]
        )
        self.batch_size = max(1, batch_size)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """float32 [len(texts), 384], unit length. Texts are batched by length so padding is
        small."""
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            picked = order[start : start + self.batch_size]
            out[picked] = self._embed_batch([texts[i] for i in picked])
        return out

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        encoded = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        hidden = self.session.run(
            None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        )[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


_LOADED: dict[tuple[int, int], Embedder] = {}


def shared_embedder(threads: int = 2, batch_size: int = 64) -> Embedder:
    """One embedder per process and configuration: the model loads once (about 0.3 s)."""
    key = (threads, batch_size)
    if key not in _LOADED:
        _LOADED[key] = Embedder(threads=threads, batch_size=batch_size)
    return _LOADED[key]
