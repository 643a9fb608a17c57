"""Closeness in meaning: a correct restatement may share few words with its events ("the pin cut
the flaky rate" for "the flaky rate went from 7% to 0.5%"). The item is compared with each
sentence and clause of its cited events, and each whole event, by the cosine of their sentence
embeddings (all-MiniLM-L6-v2, `synth.embeddings`); the best one counts.

The embedder is injected (`embed(texts) -> unit vectors`), loaded once where the reduce runs
(the driver), and vectors are cached per text, so a window embeds each sentence once."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

Embed = Callable[[Sequence[str]], np.ndarray]
MAX_CACHED = 20_000


class Closeness:
    """`closeness(item, candidates)`: the best cosine between the item and any candidate."""

    def __init__(self, embed: Embed) -> None:
        self._embed = embed
        self._vectors: dict[str, np.ndarray] = {}
        self.calls = 0

    def prime(self, texts: Sequence[str]) -> None:
        """Embed the texts not seen yet, in one call."""
        missing = list(dict.fromkeys(t for t in texts if t and t not in self._vectors))
        if not missing:
            return
        if len(self._vectors) + len(missing) > MAX_CACHED:
            self._vectors.clear()
        self.calls += 1
        for text, vector in zip(missing, self._embed(missing), strict=True):
            self._vectors[text] = np.asarray(vector, dtype=np.float32)

    def __call__(self, text: str, candidates: Sequence[str]) -> float:
        return self.closest(text, candidates)[0]

    def closest(self, text: str, candidates: Sequence[str]) -> tuple[float, str]:
        """(cosine, candidate) of the candidate closest in meaning to the text."""
        candidates = [c for c in candidates if c]
        if not text or not candidates:
            return 0.0, ""
        self.prime([text, *candidates])
        mine = self._vectors[text]
        return max((float(mine @ self._vectors[c]), c) for c in candidates)
