"""What the statement scorer reads about each candidate: its sentence embedding (the MiniLM
vectors the project already ships for recall) and a few structural features of where and how
it stands in the window. No word lists: shape, position, who said it, and what comes later.

`window_features` is pure given the vectors; `embed_candidates` is the one call to the model.
"""

from __future__ import annotations

import re

import numpy as np

from synth.extract.candidates import Candidate
from synth.extract.cues import SECTIONS, is_hypothesis, section_scores
from synth.extract.select import shortlist

_FIGURE = re.compile(r"\d")
_CODE = re.compile(r"`[^`]+`")
_PATHLIKE = re.compile(r"[\w-]+/[\w./-]+|\b[\w-]+\.[a-z]{1,5}\b")
_TERMINAL = re.compile(r"[.!)\]`\"']$")

STRUCTURAL = (
    "bias", "user", "first_of_event", "last_of_event", "listed", "event_position",
    "last_event", "in_last_three_events", "log_words", "question", "code", "figure", "pathlike",
    "open_end", "capitalised", "log_event_chars", "log_event_statements", "long_user_prompt",
    "later_same_max", "earlier_same_max", "last_event_same_max", "later_count_close",
)


def embed_candidates(candidates: list[Candidate], embedder) -> np.ndarray:
    if not candidates:
        return np.zeros((0, embedder.dimensions), dtype=np.float32)
    return embedder.embed([candidate.text for candidate in candidates])


def _structural(candidates: list[Candidate], vectors: np.ndarray,
                event_chars: dict[int, int]) -> np.ndarray:
    count = len(candidates)
    out = np.zeros((count, len(STRUCTURAL)), dtype=np.float32)
    if not count:
        return out
    positions = np.array([c.event_position for c in candidates])
    last_position = positions.max()
    per_event: dict[int, list[int]] = {}
    for i, candidate in enumerate(candidates):
        per_event.setdefault(candidate.event_position, []).append(i)
    similar = vectors @ vectors.T
    np.fill_diagonal(similar, -1.0)
    later = positions[None, :] > positions[:, None]
    earlier = positions[None, :] < positions[:, None]
    in_last = positions == last_position
    for i, candidate in enumerate(candidates):
        text = candidate.text
        siblings = per_event[candidate.event_position]
        chars = event_chars.get(candidate.event_position, len(text))
        row_later = similar[i][later[i]]
        row_earlier = similar[i][earlier[i]]
        row_last = similar[i][in_last & (positions != candidate.event_position)]
        out[i] = (
            1.0,
            candidate.role == "user",
            candidate.first_of_event,
            siblings[-1] == i,
            candidate.listed,
            candidate.event_position / max(1, last_position),
            candidate.event_position == last_position,
            candidate.event_position >= last_position - 2,
            np.log1p(len(text.split())),
            "?" in text,
            _CODE.search(text) is not None,
            _FIGURE.search(text) is not None,
            _PATHLIKE.search(text) is not None,
            _TERMINAL.search(text) is None,
            text[:1].isupper(),
            np.log1p(chars) / 10,
            np.log1p(len(siblings)) / 5,
            candidate.role == "user" and chars > 1500,
            row_later.max() if row_later.size else 0.0,
            row_earlier.max() if row_earlier.size else 0.0,
            row_last.max() if row_last.size else 0.0,
            np.log1p((row_later > 0.7).sum()),
        )
    return out


CUES = ("cue_worked_on", "cue_decisions", "cue_outcomes", "cue_blockers", "cue_open_questions",
        "cue_preferences_learned", "cue_hypothesis", "cue_shortlisted")


def _cues(candidates: list[Candidate], events) -> np.ndarray:
    """The hand cues' scores (`cues.py`) as features, where the head learns how much to trust
    them; kept because they add on dev (bench/README.md, "Real sessions")."""
    listed = {pick.candidate.index for pick in shortlist(events)}
    out = np.zeros((len(candidates), len(CUES)), dtype=np.float32)
    for i, candidate in enumerate(candidates):
        scores = section_scores(candidate)
        out[i, :len(SECTIONS)] = [min(scores[name], 3.0) for name in SECTIONS]
        out[i, len(SECTIONS)] = is_hypothesis(candidate)
        out[i, len(SECTIONS) + 1] = candidate.index in listed
    return out


def window_features(candidates: list[Candidate], vectors: np.ndarray,
                    event_chars: dict[int, int], events=None) -> np.ndarray:
    """[len(candidates), 384 + len(STRUCTURAL) + len(CUES)]: the embedding, the structural
    features, then the cues' (zeros without `events`, the window's events the cues read).
    `event_chars`: each event position's content length."""
    cues = _cues(candidates, events) if events is not None else np.zeros(
        (len(candidates), len(CUES)), dtype=np.float32)
    return np.hstack([vectors.astype(np.float32), _structural(candidates, vectors, event_chars),
                      cues])
