"""Figures keep their subjects and their direction.

A figure stands with the words next to it in its clause ("render 27.39 s, launch 1.84 s": 27.39
with render, 1.84 with launch): an item that puts a figure with a word the event gives only to
another figure, and none of the figure's own, swapped them ("launch takes 27.39 s").

A change keeps its order: "from A to B", "A → B", "B instead of A", "B, down from A",
"B vs A before" make (old A, new B); an item with (B, A) inverted it, and an item whose
direction word (rose, fell, grew, shrank) contradicts the event's (or the sign of "-33%") too.
"""

from __future__ import annotations

import re

from synth.support.polarity import _FAMILIES
from synth.support.units import (
    STOP,
    UNITS,
    clauses,
    figure_key,
    is_figure,
    key_tokens,
    sentences,
    tokens,
)

REACH = {-1: 2, 1: 1}  # content words a figure takes before and after it, within its clause
_LINKS = frozenset({"instead", "versus", "vs", "previously", "baseline", "compared"})
_STRONG = re.compile(r"^(?=.*\d)(?=.*[a-z])[a-z0-9@=._-]+$")  # p95, arm64, recall@10: a subject
_FIG = r"([-+−]?\d[\d,]*(?:\.\d+)*(?:e-?\d+)?%?)"
_UNIT = r"(?:\s*[a-z%]{1,8}\.?)?"
_PAIRS = (  # (pattern, index of the old figure, index of the new one)
    (re.compile(rf"\bfrom\s+{_FIG}{_UNIT}\s+(?:(?:down|up)\s+)?to\s+{_FIG}"), 1, 2),
    (re.compile(rf"{_FIG}{_UNIT}\s*(?:→|->|=>)\s*{_FIG}"), 1, 2),
    (re.compile(rf"{_FIG}{_UNIT}\s+instead of\s+(?:[a-z]+\s+){{0,3}}{_FIG}"), 2, 1),
    (re.compile(rf"{_FIG}{_UNIT},?\s+(?:down|up)\s+from\s+{_FIG}"), 2, 1),
    (re.compile(rf"{_FIG}{_UNIT}\s+(?:vs\.?|versus|against|compared (?:to|with))\s+{_FIG}{_UNIT}\s+"
                rf"(?:before|previously|earlier|baseline|at baseline)"), 2, 1),
    (re.compile(rf"{_FIG}{_UNIT}[^.;]{{0,40}}?\(?\b(?:previously|was|baseline|before:?)\s*"
                rf"(?:up to\s+|at\s+)?{_FIG}"), 2, 1),
    (re.compile(rf"\bto\s+{_FIG}[^.;]{{0,30}}?\bfrom\s+{_FIG}{_UNIT}\s+(?:before|previously|earlier)"),
     2, 1),
)
_TO = re.compile(rf"\b(?:rose|risen|grew|went|increased|decreased|dropped|fell|shrank|reduced|cut|"
                 rf"raised|lowered|jumped|climbed|up|down)\s+to\s+{_FIG}")


def _contexts(clause: str) -> dict[str, set[str]]:
    """Each figure of a clause (by key) with the content stems it stands with."""
    toks = tokens(clause)
    strong = {tok for tok in toks if _STRONG.match(tok) and not is_figure(tok)}
    out: dict[str, set[str]] = {}
    for i, tok in enumerate(toks):
        if not is_figure(tok):
            continue
        near: set[str] = set()
        for step in (-1, 1):
            taken, j = 0, i + step
            while 0 <= j < len(toks) and taken < REACH[step] and not is_figure(toks[j]):
                word = toks[j]
                if len(word) > 2 and word not in STOP and word not in UNITS and word not in _LINKS:
                    near.update(key_tokens(word))
                    taken += 1
                j += step
        out.setdefault(figure_key(tok), set()).update(near | strong)
    for old, new in _pairs(clause):  # the two ends of a change share their subject
        if old in out and new in out:
            out[old] = out[new] = out[old] | out[new]
    return out


def figure_contexts(text: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for clause in clauses(text):
        for key, near in _contexts(clause).items():
            found.setdefault(key, set()).update(near)
    return found


def role_conflict(text: str, cited: str) -> str | None:
    """A figure of the item put with a word the events give only to another figure."""
    theirs = figure_contexts(cited)
    for key, mine in figure_contexts(text).items():
        if key not in theirs or not mine:
            continue
        own = theirs[key]
        for other, near in theirs.items():
            if other == key:
                continue
            if mine & (near - own) and not mine & (own - near):
                return key
            strong = {s for s in mine if _STRONG.match(s)}  # p99 where the event says p95
            if strong & (near - own) and not strong & own:
                return key
    mine_pairs = _pairs(text)
    theirs_pairs = _pairs(cited)
    for old, new in mine_pairs - theirs_pairs:  # a change whose ends come from two changes
        if any(o == old and n != new for o, n in theirs_pairs) and any(
                n == new and o != old for o, n in theirs_pairs):
            return f"{old} → {new}"
    return None


def _pairs(text: str) -> set[tuple[str, str]]:
    found = set()
    for sentence in sentences(text.casefold()):
        for pattern, old, new in _PAIRS:
            for match in pattern.finditer(sentence):
                found.add((figure_key(match.group(old)), figure_key(match.group(new))))
    return found


def _value(key: str) -> float | None:
    try:
        return float(key.rstrip("%"))
    except ValueError:
        return None


def _directions(text: str) -> set[str]:
    found = set()
    for name, pattern in _FAMILIES[2].items():
        if re.search(pattern, text.casefold()):
            found.add(name)
    return found


def direction_conflict(text: str, cited: str) -> str | None:
    """An item that turns a change around: its pairs, its `to F`, its direction words."""
    theirs = _pairs(cited)
    olds = {old for old, _ in theirs}
    news = {new for _, new in theirs}
    for old, new in _pairs(text):
        if (new, old) in theirs and (old, new) not in theirs:
            return f"{old} → {new}"
    for sentence in sentences(text.casefold()):
        for match in _TO.finditer(sentence):
            key = figure_key(match.group(1))
            if key in olds and key not in news:
                return f"→ {key}"
    signs = {figure_key(m.group(0)): m.group(0)[0] for m in re.finditer(_FIG, cited.casefold())
             if m.group(0)[0] in "-+−"}
    for clause in clauses(text):
        mine = _directions(clause) - {"flat"}
        if len(mine) != 1:
            continue
        for token in tokens(clause):
            key = figure_key(token) if is_figure(token) else None
            sign = signs.get(key) if key else None
            if sign and ({"up"} if sign == "+" else {"down"}) != mine:
                return f"{sign}{key}"
        for old, new in _pairs(clause) & theirs:
            a, b = _value(old), _value(new)
            if a is not None and b is not None and a != b and ({"up"} if b > a else {"down"}) != mine:
                return f"{old} → {new}"
    return None
