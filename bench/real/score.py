"""Scoring a backend's memories against the readers' labels and gold lists.

A memory that is one of the session's candidate statements is scored by that statement's
label (true and useful at the end of the session, and of the right type); any other memory
(generated text, whole prompts or replies) by a reader's cached verdict (`data/verdicts/`), or
counted unjudged. Recall: a gold item is found when a memory is one of the statements the reader
said stand for it (or a reader's verdict names it); the embedding estimate (cosine to the gold
sentence) is reported beside it for every backend.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field

from bench.real.labels import JUNK, SHAPE_JUNK, SessionLabels
from bench.real.sessions import DATA
from sinks.items import MemoryItem

VERDICTS = DATA / "verdicts"
RECALL_COSINE = 0.6  # a memory this close to a gold sentence counts as finding it (estimate)
_RESULT = re.compile(r"^\[(success|failure|partial)\] ")
_RATIONALE = " — rationale: "


def statement_text(item: MemoryItem) -> tuple[str, str]:
    """(the memory's sentence without its stored decorations, its head class)."""
    text = item.content
    kind = item.memory_type
    match = _RESULT.match(text)
    if match:
        text = text[match.end():]
        kind = f"outcome:{match.group(1)}"
    elif kind == "outcome":
        kind = "outcome:partial"
    return text.split(_RATIONALE)[0], kind


def memory_key(session: str, item: MemoryItem) -> str:
    return hashlib.sha1(f"{session}\n{item.memory_type}\n{item.content}".encode()).hexdigest()[:16]


def read_verdicts(session: str) -> dict:
    path = VERDICTS / f"{session}.json"
    return json.loads(path.read_text()) if path.is_file() else {}


@dataclass
class Judged:
    correct: bool | None  # None: no label and no verdict
    junk: str | None = None  # the junk class when a label says junk
    gold: set[int] = field(default_factory=set)  # the gold items it stands for
    how: str = "label"


def judge(session: SessionLabels, item: MemoryItem, verdicts: dict) -> Judged:
    text, kind = statement_text(item)
    gold_texts = {g["text"]: i for i, g in enumerate(session.gold)}
    if text in gold_texts:  # the oracle's answers are the reader's own list
        return Judged(True, gold={gold_texts[text]}, how="gold")
    evidence = set(item.evidence)
    rows = [i for i, (_, c) in enumerate(session.session.statements) if c.text == text]
    rows.sort(key=lambda i: session.session.statements[i][1].seq not in evidence)
    labelled = [i for i in rows if i in session.labels]
    if labelled:
        row = labelled[0]
        label = session.labels[row]
        stands = {row} | ({label.same_as} if label.same_as is not None else set())
        gold = {g for g, item_ in enumerate(session.gold) if stands & set(item_["statements"])}
        if not label.keep:
            return Judged(False, junk=label.kind)
        return Judged(label.head_class == kind, gold=gold)
    verdict = verdicts.get(memory_key(session.session.name, item))
    if verdict is None:
        return Judged(None, how="unjudged")
    junk = verdict.get("junk")
    return Judged(bool(verdict.get("keep")) and bool(verdict.get("type_right", True)),
                  junk=junk if junk in JUNK else None, gold=set(verdict.get("gold", [])),
                  how="verdict")


def score_run(run, labelled: dict[str, SessionLabels], embedder) -> dict:
    """The table row of one backend run."""
    memories = judged = correct = gold_total = found = estimated = 0
    junk: Counter = Counter()
    how: Counter = Counter()
    for out in run.sessions:
        session = labelled[out.name]
        verdicts = read_verdicts(out.name)
        gold_total += len(session.gold)
        covered: set[int] = set()
        for item in out.memories:
            verdict = judge(session, item, verdicts)
            memories += 1
            how[verdict.how] += 1
            covered |= verdict.gold
            if verdict.correct is None:
                continue
            judged += 1
            correct += verdict.correct
            if verdict.junk:
                junk[verdict.junk] += 1
        found += len(covered)
        estimated += estimated_found(session, out.memories, embedder)
    sessions = len(run.sessions)
    return {
        "backend": run.backend, "model": run.model, "sessions": sessions,
        "memories": memories, "per_session": round(memories / max(1, sessions), 2),
        "gold_per_session": round(gold_total / max(1, sessions), 2),
        "size_ratio": round(memories / max(1, gold_total), 2),
        "judged": judged, "by": dict(how),
        "precision": round(correct / judged, 3) if judged else None,
        "shape_junk": round(sum(junk[c] for c in SHAPE_JUNK) / max(1, memories), 3),
        "junk": {c: round(junk[c] / max(1, memories), 3) for c in JUNK},
        "recall": round(found / max(1, gold_total), 3),
        "recall_estimate": round(estimated / max(1, gold_total), 3),
        "seconds": round(run.seconds, 1),
        "seconds_per_window": round(run.seconds / max(1, sum(
            len(labelled[s.name].session.windows) for s in run.sessions)), 3),
    }


def estimated_found(session: SessionLabels, memories: list[MemoryItem], embedder) -> int:
    """Gold items some memory is close to in meaning (cosine of the MiniLM vectors)."""
    if not session.gold or not memories:
        return 0
    gold = embedder.embed([g["text"] for g in session.gold])
    found = embedder.embed([statement_text(m)[0] for m in memories])
    return int(((gold @ found.T).max(axis=1) >= RECALL_COSINE).sum())
