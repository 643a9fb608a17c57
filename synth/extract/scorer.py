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
class StatementHead:
    classes: tuple[str, ...]
    weights: np.ndarray  # [features, classes]
    bias: np.ndarray  # [classes]
    mean: np.ndarray  # [features]
    scale: np.ndarray  # [features]
    keep_threshold: float  # P(not junk) a statement needs
    per_window: int  # at most this many memories a window
    same_subject: float  # cosine above which two statements say the same thing
    data_sha256: str

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        logits = ((features - self.mean) / self.scale) @ self.weights + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(axis=1, keepdims=True)

    def keep_probability(self, probabilities: np.ndarray) -> np.ndarray:
        return 1.0 - probabilities[:, self.classes.index(JUNK)]

    def kind(self, row: np.ndarray) -> str:
        """The most likely memory class of one statement, junk aside."""
        junk = self.classes.index(JUNK)
        order = [i for i in np.argsort(-row) if i != junk]
        return self.classes[order[0]]

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path, classes=np.array(self.classes), weights=self.weights.astype(np.float32),
            bias=self.bias.astype(np.float32), mean=self.mean.astype(np.float32),
            scale=self.scale.astype(np.float32),
            policy=np.array([self.keep_threshold, self.per_window, self.same_subject]),
            data_sha256=np.array(self.data_sha256))


def read_head(path: Path) -> StatementHead:
    if not path.is_file():
        raise ModelMissing(f"the statement head {path} is missing: run "
                           "`python -m bench.real.train` to train it from bench/real/data")
    with np.load(path, allow_pickle=False) as saved:
        threshold, per_window, same_subject = (float(v) for v in saved["policy"])
        return StatementHead(
            classes=tuple(str(c) for c in saved["classes"]), weights=saved["weights"],
            bias=saved["bias"], mean=saved["mean"], scale=saved["scale"],
            keep_threshold=threshold, per_window=int(per_window), same_subject=same_subject,
            data_sha256=str(saved["data_sha256"]))


@lru_cache(maxsize=4)
def shipped_head(path: Path = HEAD_FILE) -> StatementHead:
    """The head the package ships, read once per process."""
    return read_head(path)
