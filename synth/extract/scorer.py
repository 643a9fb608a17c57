"""The statement scorer: a small learned head over the embedder's vectors and the structural
features (`features.py`), trained on strong readers' labels of real sessions
(`bench/real/train.py`). It says, per candidate statement, how likely it is worth keeping and as
which memory type; the policy that uses it (threshold, cap per window) was chosen on the dev split
and ships in the same file.

Runtime is numpy only; the weights file is small and carries the sha256 of the data it was
trained on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ingest.errors import ModelMissing

HEAD_FILE = Path(__file__).with_name("statement_head.npz")
JUNK = "junk"
CLASSES = (JUNK, "decision", "preference", "outcome:success", "outcome:failure",
           "outcome:partial", "fact", "task", "episode")


@dataclass(frozen=True)
class Linear:
    """A softmax layer over standardised features: ((x - mean) / scale) @ weights + bias."""

    weights: np.ndarray  # [features, outputs]
    bias: np.ndarray  # [outputs]
    mean: np.ndarray  # [features]
    scale: np.ndarray  # [features]

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        logits = ((features - self.mean) / self.scale) @ self.weights + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class StatementHead:
    """Two layers: `keep` says junk or worth keeping, `kind` which memory class a kept statement
    is (trained on the kept statements only, so the rare types are not drowned by junk)."""

    keep: Linear  # outputs: junk, keep
    kind_layer: Linear  # outputs: CLASSES[1:]
    keep_threshold: float  # P(keep) a statement needs
    per_window: int  # at most this many memories a window
    same_subject: float  # cosine above which two statements say the same thing
    data_sha256: str
    classes: tuple[str, ...] = CLASSES

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """[statements, CLASSES]: P(junk), then P(keep) * P(class | keep)."""
        keep = self.keep.probabilities(features)
        kinds = self.kind_layer.probabilities(features)
        return np.hstack([keep[:, :1], keep[:, 1:2] * kinds])

    def memory_probability(self, probabilities: np.ndarray) -> np.ndarray:
        """P(worth keeping AND of its most likely type): the chance the memory it would make is
        right, which is what precision counts (a kept statement of the wrong type is wrong)."""
        return probabilities[:, 1:].max(axis=1)

    def kind(self, row: np.ndarray) -> str:
        """The most likely memory class of one statement, junk aside."""
        return self.classes[1 + int(np.argmax(row[1:]))]

    def save(self, path: Path) -> None:
        arrays = {f"{name}_{part}": getattr(layer, part).astype(np.float32)
                  for name, layer in (("keep", self.keep), ("kind", self.kind_layer))
                  for part in ("weights", "bias", "mean", "scale")}
        np.savez_compressed(
            path, classes=np.array(self.classes), **arrays,
            policy=np.array([self.keep_threshold, self.per_window, self.same_subject]),
            data_sha256=np.array(self.data_sha256))


def read_head(path: Path) -> StatementHead:
    if not path.is_file():
        raise ModelMissing(f"the statement head {path} is missing: run "
                           "`python -m bench.real.train` to train it from bench/real/data")
    with np.load(path, allow_pickle=False) as saved:
        threshold, per_window, same_subject = (float(v) for v in saved["policy"])
        layers = [Linear(*(saved[f"{name}_{part}"] for part in ("weights", "bias", "mean", "scale")))
                  for name in ("keep", "kind")]
        return StatementHead(layers[0], layers[1], threshold, int(per_window), same_subject,
                             str(saved["data_sha256"]), tuple(str(c) for c in saved["classes"]))


@lru_cache(maxsize=4)
def shipped_head(path: Path = HEAD_FILE) -> StatementHead:
    """The head the package ships, read once per process."""
    return read_head(path)
