"""The readers' labels of the real sessions: loading, checking, agreement, and the settled set.

Files: `data/labels/<reader>/<session>.json` (reader A read every session, reader B the test
split independently, `settled/` holds a third reader's verdict on the statements A and B
disagreed on). A label string is `keep:TYPE[:RESULT][=S<j>]` or `junk:CLASS[>S<j>]`.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from bench.real.sessions import DATA, Session, load_session, statement_key

LABELS = DATA / "labels"
TYPES = ("decision", "preference", "outcome", "fact", "task", "episode")
RESULTS = ("success", "failure", "partial")
JUNK = ("question", "fragment", "narration", "plan", "superseded", "wrong", "error", "routine")
SHAPE_JUNK = ("question", "fragment", "narration", "error")  # junk a reader sees by its shape
_LABEL = re.compile(r"^(?:keep:(?P<type>\w+)(?::(?P<result>\w+))?(?:=S(?P<same>\d+))?"
                    r"|junk:(?P<junk>\w+)(?:>S(?P<later>\d+))?)$")


class LabelError(ValueError):
    pass


@dataclass(frozen=True)
class Label:
    keep: bool
    kind: str  # memory type when kept, junk class otherwise
    result: str | None = None
    same_as: int | None = None
    replaced_by: int | None = None

    @property
    def head_class(self) -> str:
        """The statement head's class for this label."""
        if not self.keep:
            return "junk"
        return f"outcome:{self.result or 'partial'}" if self.kind == "outcome" else self.kind


def parse_label(text: str, where: str) -> Label:
    match = _LABEL.match(text.strip())
    if match is None:
        raise LabelError(f"{where}: {text!r} is not keep:TYPE[:RESULT][=Sj] or junk:CLASS[>Sj]")
    if match["junk"]:
        if match["junk"] not in JUNK:
            raise LabelError(f"{where}: junk class {match['junk']!r} not in {JUNK}")
        later = match["later"]
        return Label(False, match["junk"], replaced_by=int(later) if later else None)
    kind, result = match["type"], match["result"]
    if kind not in TYPES:
        raise LabelError(f"{where}: type {kind!r} not in {TYPES}")
    if kind == "outcome" and result not in RESULTS:
        result = "partial"  # an outcome without a result is unverified
    same = match["same"]
    return Label(True, kind, result if kind == "outcome" else None, int(same) if same else None)


@dataclass(frozen=True)
class SessionLabels:
    session: Session
    reader: str
    summary: str
    gold: tuple[dict, ...]
    labels: dict[int, Label]  # statement index → label

    def by_key(self) -> dict[str, Label]:
        return {statement_key(self.session.statements[i][1]): label
                for i, label in self.labels.items()}


def read_labels(path: Path) -> SessionLabels:
    raw = json.loads(path.read_text())
    session = load_session(raw["session"])
    count = len(session.statements)
    labels = {}
    for key, value in raw["labels"].items():
        index = int(key.lstrip("S"))
        if not 0 <= index < count:
            raise LabelError(f"{path}: {key} is not a statement of {session.name} (S0..S{count - 1})")
        labels[index] = parse_label(value, f"{path}: {key}")
    gold = []
    for number, item in enumerate(raw.get("gold", [])):
        if item.get("type") not in TYPES:
            raise LabelError(f"{path}: gold[{number}] type {item.get('type')!r} not in {TYPES}")
        gold.append({**item, "statements": [int(str(s).lstrip("S")) for s in
                                            item.get("statements", [])]})
    return SessionLabels(session, raw.get("reader", path.parent.name), raw.get("summary", ""),
                         tuple(gold), labels)


def reader_labels(reader: str) -> dict[str, SessionLabels]:
    folder = LABELS / reader
    return {path.stem: read_labels(path) for path in sorted(folder.glob("*.json"))}


def settled_labels() -> dict[str, SessionLabels]:
    """The labels the benchmark scores by: reader A's, with the test split's disagreements between
    A and B replaced by the third read (`settled/`)."""
    first = reader_labels("A")
    settled = {path.stem: json.loads(path.read_text())
               for path in sorted((LABELS / "settled").glob("*.json"))}
    out = {}
    for name, labels in first.items():
        verdicts = settled.get(name, {}).get("labels", {})
        merged = dict(labels.labels)
        for key, value in verdicts.items():
            merged[int(key.lstrip("S"))] = parse_label(value, f"settled/{name}.json: {key}")
        out[name] = SessionLabels(labels.session, "settled" if verdicts else labels.reader,
                                  labels.summary, labels.gold, merged)
    return out


def cohen_kappa(left: list[str], right: list[str]) -> float:
    """Agreement beyond chance of two readers over the same items."""
    if not left:
        return float("nan")
    kinds = sorted(set(left) | set(right))
    total = len(left)
    observed = sum(a == b for a, b in zip(left, right)) / total
    expected = sum((left.count(k) / total) * (right.count(k) / total) for k in kinds)
    return (observed - expected) / (1 - expected) if expected < 1 else 1.0


def data_sha256() -> str:
    """One hash over the sessions and every label file: what a trained head was trained on."""
    digest = hashlib.sha256()
    for path in sorted([DATA / "manifest.json", *LABELS.rglob("*.json")]):
        digest.update(path.relative_to(DATA).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()
