"""Train the statement head (`synth/extract/scorer.py`) on reader A's labels of the DEV sessions,
and choose its policy (keep threshold, cap per window, same-subject cosine) by cross-validation
over dev sessions. Reproducible: fixed seed, full-batch Adam, the data's sha256 in the weights.

    python -m bench.real.train            # rewrites synth/extract/statement_head.npz
    python -m bench.real.train --check    # trains, reports, writes nothing

The test split is never read here. Training rows: reader A's labels of the real dev sessions
and the written stories' dev trails (`stories.py`).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import logging
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from bench.real.labels import reader_labels, data_sha256
from bench.real.stories import StoryTrail, story_trails
from synth.extract.candidates import window_candidates
from synth.embeddings import shared_embedder
from synth.extract.choose import choose
from synth.extract.features import window_features
from synth.extract.scorer import CLASSES, HEAD_FILE, Linear, StatementHead

log = logging.getLogger(__name__)
CACHE = Path(__file__).parents[1] / "out" / "real-embeddings.npz"
SEED = 20261206
# (l2, dims): the full grid (l2 3e-3..3e-1, dims 0..384) chose keep (3e-2, 0) and kind (3e-2, 8)
# twice (21 and 52 dev sessions); the grid keeps their neighbours
KEEP_GRID = ((3e-3, 0), (3e-2, 0), (3e-2, 32))
KIND_GRID = ((3e-2, 8), (3e-2, 32))
THRESHOLDS = tuple(np.round(np.arange(0.05, 0.86, 0.05), 2))
CAPS = (3, 4, 5, 6, 8, 10)
SAME_SUBJECT = (0.75, 0.85, 0.95)
EMBEDDING = 384
FOLDS = 5
BETA = 0.5  # precision first
STORY_RECALL_FLOOR = 0.9  # the written stories keep their recall (issue 37: lose at most 0.1); a CV
# floor of 0.7 gave 0.56 on the stories' test split (bench/quality.py), 0.25 below the old default


@dataclass
class Rows:
    """One session's statements as the head sees them."""

    name: str
    kind: str  # real: a labelled real session; story: a written story's trail
    features: np.ndarray
    vectors: np.ndarray
    targets: np.ndarray  # class index; -1: left out (true, but of no labelled type)
    windows: list[list[int]]  # statement indexes per window
    distinct_keeps: int  # keep labels that are not `=Sj` repeats


def _embed_all(texts: list[str]) -> dict[str, np.ndarray]:
    """Embeddings by text, cached under bench/out (gitignored) by the texts' hash."""
    key = hashlib.sha256("\n".join(sorted(set(texts))).encode()).hexdigest()
    if CACHE.is_file():
        with np.load(CACHE, allow_pickle=False) as saved:
            if str(saved["key"]) == key:
                return dict(zip((str(t) for t in saved["texts"]), saved["vectors"]))
    unique = sorted(set(texts))
    vectors = shared_embedder().embed(unique)
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    np.savez(CACHE, key=np.array(key), texts=np.array(unique), vectors=vectors)
    return dict(zip(unique, vectors))


def _rows(name: str, kind: str, windows: list, label_of, distinct: int,
          by_text: dict[str, np.ndarray], cues: bool) -> Rows:
    """A trail's statements, window by window; `label_of(window, candidate, statement)` gives
    the head class, or None for a statement left out of training and scoring."""
    feats, vecs, spans, targets = [], [], [], []
    start = 0
    for number, window in enumerate(windows):
        candidates = window_candidates(list(window.events))
        vectors = np.array([by_text[c.text] for c in candidates], dtype=np.float32).reshape(
            len(candidates), -1)
        chars = {i: len(e.content) for i, e in enumerate(window.events)}
        feats.append(window_features(candidates, vectors, chars,
                                     list(window.events) if cues else None))
        vecs.append(vectors)
        spans.append(list(range(start, start + len(candidates))))
        for index in range(len(candidates)):
            label = label_of(number, index, start + index)
            targets.append(-1 if label is None else CLASSES.index(label))
        start += len(candidates)
    return Rows(name, kind, np.vstack(feats), np.vstack(vecs), np.array(targets), spans, distinct)


def training_rows(sessions: dict, stories: list[StoryTrail], cues: bool = True) -> list[Rows]:
    """Real dev sessions (reader A's labels) and the written stories' dev trails; `cues`
    False: the ablation without the hand cues' features."""
    texts = [c.text for labelled in sessions.values() for _, c in labelled.session.statements]
    texts += [c.text for trail in stories for window in trail.windows
              for c in window_candidates(list(window.events))]
    by_text = _embed_all(texts)
    out = []
    for name, labelled in sessions.items():
        labels = labelled.labels
        distinct = sum(1 for label in labels.values() if label.keep and label.same_as is None)
        out.append(_rows(name, "real", list(labelled.session.windows),
                         lambda w, c, i, labels=labels: labels[i].head_class if i in labels else None,
                         distinct, by_text, cues))
    for trail in stories:
        out.append(_rows(trail.name, "story", list(trail.windows),
                         lambda w, c, i, marks=trail.labels: marks.get((w, c)),
                         trail.distinct_keeps, by_text, cues))
    return out


def fit_linear(features: np.ndarray, targets: np.ndarray, outputs: int, l2: float,
               dims: int = EMBEDDING, balanced: bool = False, steps: int = 400) -> Linear:
    """Softmax regression, full batch, Adam, fixed seed. `balanced`: classes weighted by the
    square root of their rarity, so rare memory types are learned at all.

    `dims` < 384: the embedding enters through its first `dims` principal directions (few
    labels do not carry 384 weights a class); the projection is linear, so it folds back into
    384 weights and the runtime reads one kind of layer whatever `dims` was chosen."""
    if dims >= EMBEDDING:
        return _fit_dense(features, targets, outputs, l2, balanced, steps)
    vectors, structural = features[:, :EMBEDDING], features[:, EMBEDDING:]
    centre = vectors.mean(axis=0)
    basis = np.linalg.svd(vectors - centre, full_matrices=False)[2][:dims].T  # [384, dims]
    small = _fit_dense(np.hstack([(vectors - centre) @ basis, structural]), targets, outputs, l2,
                       balanced, steps)
    weights_z = small.weights[:dims] / small.scale[:dims, None]
    bias = small.bias - (small.mean[:dims] / small.scale[:dims]) @ small.weights[:dims]
    return Linear(np.vstack([basis @ weights_z, small.weights[dims:]]).astype(np.float32),
                  bias.astype(np.float32),
                  np.concatenate([centre, small.mean[dims:]]).astype(np.float32),
                  np.concatenate([np.ones(EMBEDDING), small.scale[dims:]]).astype(np.float32))


def _fit_dense(features: np.ndarray, targets: np.ndarray, outputs: int, l2: float,
               balanced: bool, steps: int) -> Linear:
    rng = np.random.default_rng(SEED)
    mean = features.mean(axis=0)
    scale = features.std(axis=0)
    constant = scale < 1e-6
    scale[constant] = 1.0
    mean[constant] = 0.0  # the bias column stays 1
    x = (features - mean) / scale
    y = np.eye(outputs)[targets]
    counts = np.bincount(targets, minlength=outputs).astype(float)
    weight = np.ones(outputs)
    if balanced:
        weight = np.where(counts > 0, np.sqrt(counts.sum() / np.maximum(counts, 1) / outputs), 0.0)
    sample = weight[targets][:, None]
    w = rng.normal(0, 0.01, (x.shape[1], outputs))
    b = np.zeros(outputs)
    m_w, v_w, m_b, v_b = (np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b))
    rate, beta1, beta2 = 0.05, 0.9, 0.999
    for step in range(1, steps + 1):
        logits = x @ w + b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        error = (p - y) * sample / len(x)
        grad_w = x.T @ error + l2 * w
        grad_b = error.sum(axis=0)
        for grad, m, v, param in ((grad_w, m_w, v_w, w), (grad_b, m_b, v_b, b)):
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            param -= rate * (m / (1 - beta1 ** step)) / (np.sqrt(v / (1 - beta2 ** step)) + 1e-8)
    return Linear(w.astype(np.float32), b.astype(np.float32), mean.astype(np.float32),
                  scale.astype(np.float32))


def fit_head(features: np.ndarray, targets: np.ndarray, keep: tuple[float, int],
             kind: tuple[float, int]) -> StatementHead:
    """The two layers: keep-or-junk on every statement, the memory class on the kept ones."""
    labelled = targets >= 0
    features, targets = features[labelled], targets[labelled]
    keep_layer = fit_linear(features, (targets > 0).astype(int), 2, *keep)
    kept = targets > 0
    kind_layer = fit_linear(features[kept], targets[kept] - 1, len(CLASSES) - 1, *kind,
                            balanced=True)
    return StatementHead(keep_layer, kind_layer, 0.5, 6, 0.85, "")


def score_choice(rows: list[Rows], head: StatementHead,
                 probabilities: list[np.ndarray] | None = None) -> tuple[int, int, int, int]:
    """(chosen, chosen and right type, distinct keeps covered, distinct keeps) over sessions;
    `probabilities`: the head's, row by row, when the caller already has them."""
    chosen = right = covered = keeps = 0
    for number, row in enumerate(rows):
        row_probabilities = (head.probabilities(row.features) if probabilities is None
                             else probabilities[number])
        for window in row.windows:
            picks = choose(row_probabilities[window], row.vectors[window], head)
            chosen += len(picks)
            for pick in picks:
                index = row.targets[window[pick.position]]
                if index < 0:
                    chosen -= 1  # left out of the labels: neither right nor wrong
                    continue
                target = CLASSES[index]
                right += target == pick.kind
                covered += target != "junk"
        keeps += row.distinct_keeps
    return chosen, right, min(covered, keeps), keeps


def f_beta(precision: float, recall: float, beta: float = BETA) -> float:
    if precision + recall == 0:
        return 0.0
    return (1 + beta * beta) * precision * recall / (beta * beta * precision + recall)


def cross_validate(rows: list[Rows]) -> tuple[dict, list[dict]]:
    """Every (keep layer, kind layer, threshold, cap, same) over FOLDS folds of whole trails;
    the best by F0.5 on real sessions among the policies whose story recall stays at least
    STORY_RECALL_FLOOR (the mean of both F0.5 traded the stories' recall away: 0.32 at 52
    sessions), so the policy serves long sparse sessions and short dense ones alike."""
    order = sorted(range(len(rows)), key=lambda i: hashlib.sha1(rows[i].name.encode()).hexdigest())
    folds = [order[k::FOLDS] for k in range(FOLDS)]
    kinds = sorted({r.kind for r in rows})
    totals: dict[tuple, dict[str, np.ndarray]] = {}
    for keep, kind in itertools.product(KEEP_GRID, KIND_GRID):
        for held in folds:
            train = [rows[i] for i in range(len(rows)) if i not in held]
            head = fit_head(np.vstack([r.features for r in train]),
                            np.concatenate([r.targets for r in train]), keep, kind)
            by_kind = {k: [rows[i] for i in held if rows[i].kind == k] for k in kinds}
            probabilities = {k: [head.probabilities(r.features) for r in held_rows]
                             for k, held_rows in by_kind.items()}
            for threshold, cap, same in itertools.product(THRESHOLDS, CAPS, SAME_SUBJECT):
                policy = replace(head, keep_threshold=float(threshold), per_window=cap,
                                 same_subject=same)
                key = (keep, kind, float(threshold), cap, same)
                per = totals.setdefault(key, {k: np.zeros(4) for k in kinds})
                for trail_kind in kinds:
                    per[trail_kind] += score_choice(by_kind[trail_kind], policy,
                                                    probabilities[trail_kind])
    table = []
    for (keep, kind, threshold, cap, same), per in totals.items():
        row = {"keep": list(keep), "kind": list(kind), "keep_threshold": threshold,
               "per_window": cap, "same_subject": same}
        scores = []
        for trail_kind, (chosen, right, covered, keeps) in per.items():
            precision = right / chosen if chosen else 0.0
            recall = covered / keeps if keeps else 0.0
            count = sum(1 for r in rows if r.kind == trail_kind)
            row[trail_kind] = {"precision": round(precision, 4), "recall": round(recall, 4),
                               "f05": round(f_beta(precision, recall), 4),
                               "memories_per_trail": round(chosen / max(1, count), 2)}
            scores.append(f_beta(precision, recall))
        row["score"] = round(float(np.mean(scores)), 4)
        table.append(row)
    table.sort(key=lambda r: (r.get("story", {}).get("recall", 1.0) < STORY_RECALL_FLOOR,
                              -r.get("real", {}).get("f05", r["score"])))
    return table[0], table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="train and report, write nothing")
    parser.add_argument("--out", type=Path, default=HEAD_FILE, help="where the weights go")
    parser.add_argument("--json", type=Path, help="also write the CV table here")
    parser.add_argument("--no-cues", action="store_true",
                        help="the ablation: train without the hand cues' features")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    labelled = {name: s for name, s in reader_labels("A").items() if s.session.split == "dev"}
    if not labelled:
        print("no dev labels under bench/real/data/labels/A", file=sys.stderr)
        return 2
    rows = training_rows(labelled, story_trails("dev"), cues=not args.no_cues)
    best, table = cross_validate(rows)
    head = fit_head(np.vstack([r.features for r in rows]),
                    np.concatenate([r.targets for r in rows]), tuple(best["keep"]),
                    tuple(best["kind"]))
    head = replace(head, keep_threshold=best["keep_threshold"], per_window=best["per_window"],
                   same_subject=best["same_subject"], data_sha256=data_sha256())
    statements = sum(len(r.targets) for r in rows)
    print(f"dev: {len(labelled)} real sessions and {len(rows) - len(labelled)} story trails, "
          f"statements {statements}, keeps {int(sum((r.targets > 0).sum() for r in rows))}")
    print("best (real F0.5, story recall >= floor) over {} folds: {}".format(FOLDS, json.dumps(best)))
    for row in table[:8]:
        print("  ", json.dumps(row))
    if args.json:
        args.json.write_text(json.dumps({"best": best, "table": table[:200]}, indent=1))
    if not args.check:
        head.save(args.out)
        print(f"wrote {args.out} (data sha256 {head.data_sha256[:12]}...)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
