"""Choosing a window's memories with the statement head: the policy, pure given the head's
probabilities and the statements' vectors.

A statement is kept when the memory it would make is likely right: its probability of being
worth keeping AND of its most likely type reaches the threshold chosen on dev (ranking by P(keep)
alone took confident keeps of an unsure type: CV precision 0.40 against 0.49 at two a window).
Of several kept statements on the same subject (cosine at least `same_subject`) the LAST one
stands, since what holds at the end of the window is what a reader needs next week; then at most
`per_window` of them, the most likely first, in trail order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ingest.events import Event
from synth.extract.candidates import Candidate, window_candidates
from synth.extract.features import embed_candidates, window_features
from synth.extract.scorer import StatementHead, shipped_head
from synth.extract.select import Pick, steered_paragraphs
from synth.report import SECTION_OF


HEAD_NAME = "statement-head (all-MiniLM-L6-v2 + learned head)"


@dataclass(frozen=True, slots=True)
class Choice:
    """One chosen statement: its row among the window's candidates, memory class, P(keep)."""

    position: int
    kind: str  # a head class: decision, preference, outcome:<result>, fact, task, episode
    probability: float  # P(keep and this kind)


def choose(probabilities: np.ndarray, vectors: np.ndarray, head: StatementHead) -> list[Choice]:
    """The window's memories among its candidates (rows of `probabilities` and `vectors`)."""
    if not len(probabilities):
        return []
    keep = head.memory_probability(probabilities)
    standing: list[int] = []
    for row in sorted(np.flatnonzero(keep >= head.keep_threshold), reverse=True):
        if any(float(vectors[row] @ vectors[later]) >= head.same_subject for later in standing):
            continue  # a later statement on the same subject replaces it
        standing.append(int(row))
    best = sorted(standing, key=lambda row: -keep[row])[:head.per_window]
    return [Choice(row, head.kind(probabilities[row]), float(keep[row])) for row in sorted(best)]


def head_picks(events: list[Event], head: StatementHead | None = None,
               embedder=None) -> list[Pick]:
    """The window's memories as picks (`select.Pick`): the trail's own sentences the head keeps,
    each under the section of the memory type it gave (`synth.report.SECTION_OF`)."""
    candidates = window_candidates(events)
    if not candidates:
        return []
    head = head or shipped_head()
    if embedder is None:
        from synth.embeddings import shared_embedder  # the ONNX runtime loads on first use

        embedder = shared_embedder()
    vectors = embed_candidates(candidates, embedder)
    event_chars = {position: len(event.content) for position, event in enumerate(events)}
    probabilities = head.probabilities(window_features(candidates, vectors, event_chars, events))
    steered = steered_paragraphs(candidates)
    picks = []
    for choice in choose(probabilities, vectors, head):
        candidate = candidates[choice.position]
        if (candidate.event_position, candidate.paragraph) in steered:
            continue  # a pasted injection is data: none of its sentences becomes a memory
        kind, _, result = choice.kind.partition(":")
        picks.append(Pick(candidate, SECTION_OF[kind], choice.probability, result or None))
    return picks
