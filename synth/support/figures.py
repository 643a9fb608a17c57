"""Figures keep their subjects and their direction.

A figure stands with the words next to it in its clause ("render 27.39 s, launch 1.84 s": 27.39
with render, 1.84 with launch): an item that puts a figure with a word the event gives only to
another figure, and none of the figure's own, swapped them ("launch takes 27.39 s").

A change keeps its order: "from A to B", "A → B", "B instead of A", "B, down from A",
"B vs A before" make (old A, new B); an item with (B, A) inverted it, and an item whose
direction word (rose, fell, grew, shrank) contradicts the event's (or the sign of "-33%") too.

A figure the item computes is held when it is the difference of two figures of one cited
sentence and the item says it is one ("down from 2.8 s to 1.5 s" holds "improved by 1.3 s").
"""

from __future__ import annotations

import re

from synth.support.polarity import DIRECTION
from synth.support.units import (
    FIG_PATTERN,
    FIGURE,
    STOP,
    UNITS,
    change_directions,
    change_pairs,
    clauses,
    figure_key,
    is_figure,
    key_tokens,
    sentences,
    split_clauses,
    tokens,
)

REACH = {-1: 2, 1: 1}  # content words a figure takes before and after it, within its clause
NEAREST = {-1: 1, 1: 1}
# Words that link a figure to its subject without being one: "takes 2.1 s", "instead of 19".
_LINKS = frozenset("""instead versus vs previously baseline compared take takes took taking get gets
got make makes made went goes gone become became reach reached reaches hit hits sits stands stood
gives gave now against""".split())
_STRONG = re.compile(r"^(?=.*\d)(?=.*[a-z])[a-z0-9@=._-]+$")  # p95, arm64, recall@10: a subject
_TO = re.compile(rf"\b(?:rose|risen|grew|went|increased|decreased|dropped|fell|shrank|reduced|cut|"
                 rf"raised|lowered|jumped|climbed|up|down)\s+to\s+{FIG_PATTERN}")


def _contexts(clause: str, reach: dict[int, int] = REACH) -> dict[str, set[str]]:
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
            while 0 <= j < len(toks) and taken < reach[step] and not is_figure(toks[j]):
                word = toks[j]
                if len(word) > 2 and word not in STOP and word not in UNITS and word not in _LINKS:
                    near.update(key_tokens(word))
                    taken += 1
                j += step
        out.setdefault(figure_key(tok), set()).update(near | strong)
    for old, new in change_pairs(clause):  # the two ends of a change share their subject
        if old in out and new in out:
            out[old] = out[new] = out[old] | out[new]
    return out


def figure_contexts(text: str, reach: dict[int, int] = REACH) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for clause in clauses(text):
        for key, near in _contexts(clause, reach).items():
            found.setdefault(key, set()).update(near)
    return found


def role_conflict(text: str, cited: str) -> str | None:
    """A figure of the item put with a word the events give to another figure, and none of its
    own. Where the sentence the item restates holds the figure, that sentence decides ("render
    27.39 s, launch 1.84 s" → "launch takes 27.39 s"); a figure it lacks (from another event)
    is compared with every figure of the cited events. Series named apart (p95, p99) are
    compared by name across all of them."""
    everywhere = figure_contexts(cited)
    theirs = [(_words(s), figure_contexts(s)) for s in sentences(cited)]
    for sentence in sentences(text):
        stems = _words(sentence)  # by words: a borrowed figure must not pick its own sentence
        scored = [(len(stems & held), contexts) for held, contexts in theirs]
        top = max((count for count, _ in scored), default=0)
        restated = [contexts for count, contexts in scored if top >= 2 and count == top]
        nearest = figure_contexts(sentence, NEAREST)
        for key, mine in figure_contexts(sentence).items():
            if key not in everywhere or not mine:
                continue
            if _named_apart(key, mine, everywhere):
                return key
            local = [contexts for contexts in restated if key in contexts] or [everywhere]
            if all(any(other != key and _swapped(mine, contexts[key], near, nearest.get(key, set()))
                       for other, near in contexts.items())
                   for contexts in local):  # every sentence it may restate says otherwise
                return key
    units = _unit_kinds(cited)
    for key, kinds in _unit_kinds(text).items():  # "212 GB" is no "212 minutes"
        if units.get(key) and not kinds & units[key]:
            return key
    mine_pairs = change_pairs(text)
    theirs_pairs = change_pairs(cited)
    for old, new in mine_pairs - theirs_pairs:  # a change whose ends come from two changes
        if any(o == old and n != new for o, n in theirs_pairs) and any(
                n == new and o != old for o, n in theirs_pairs):
            return f"{old} → {new}"
    return None


_KINDS = {**dict.fromkeys("ms s sec secs second seconds min mins minute minutes h hr hrs hour "
                          "hours day days week weeks".split(), "time"),
          **dict.fromkeys("b kb mb gb tb kib mib gib".split(), "size")}


def _unit_kinds(text: str) -> dict[str, set[str]]:
    """Each figure with the kinds of unit it is given (time, size, a share: "81%" is no "81
    minutes"); a bare figure has none."""
    found: dict[str, set[str]] = {}
    toks = tokens(text)
    for i, tok in enumerate(toks):
        if not is_figure(tok):
            continue
        if tok.endswith("%"):
            found.setdefault(figure_key(tok).rstrip("%"), set()).add("share")
        elif i + 1 < len(toks) and toks[i + 1] in _KINDS:
            found.setdefault(figure_key(tok), set()).add(_KINDS[toks[i + 1]])
    return found


def _words(text: str) -> set[str]:
    return {token for token in key_tokens(text) if not is_figure(token)}


def _strong(words: set[str]) -> set[str]:
    return {word for word in words if _STRONG.match(word)}


def _named_apart(key: str, mine: set[str], contexts: dict[str, set[str]]) -> bool:
    """The item names the figure's series by another figure's name (p99 for p95's value)."""
    own = _strong(contexts[key])
    named = _strong(mine)
    return bool(own) and bool(named) and not named & own and any(
        named & (_strong(near) - own) for other, near in contexts.items() if other != key)


def _swapped(mine: set[str], own: set[str], near: set[str], closest: set[str]) -> bool:
    """The word right next to the item's figure belongs to another figure's place (`near`),
    and none of the item's words to the figure's own."""
    if _strong(own) and _strong(near) and _strong(own) != _strong(near):
        return False  # series named apart: `_named_apart` decides
    return bool(closest & (near - own)) and not mine & (own - near)


def _directions(text: str) -> set[str]:
    found = set()
    for name, pattern in DIRECTION.items():
        if re.search(pattern, text.casefold()):
            found.add(name)
    return found


def _signs(text: str) -> dict[str, str]:
    """Figures written with a sign ("-33%"), by key."""
    return {figure_key(m.group(0)): m.group(0)[0]
            for m in re.finditer(FIG_PATTERN, text.casefold()) if m.group(0)[0] in "-+−"}


def _to_figures(text: str) -> set[str]:
    return {figure_key(m.group(1)) for m in _TO.finditer(text.casefold())}


def direction_conflict(text: str, cited: str) -> str | None:
    """An item that turns a change around: its pairs, its `to F`, its direction words."""
    theirs = change_pairs(cited, names=True)
    olds = {old for old, _ in theirs}
    news = {new for _, new in theirs}
    for old, new in change_pairs(text, names=True):
        if (new, old) in theirs and (old, new) not in theirs:
            return f"{old} → {new}"
    for sentence in sentences(text.casefold()):
        for match in _TO.finditer(sentence):
            key = figure_key(match.group(1))
            if key in olds and key not in news | _to_figures(cited):
                return f"→ {key}"
    signs = _signs(cited)
    for key in _signs(text):  # a figure the item signs itself: its sign says the direction
        signs.pop(key, None)
    for clause in clauses(text):
        mine = _directions(clause) - {"flat"}
        if len(mine) != 1:
            continue
        for token in tokens(clause):
            key = figure_key(token) if is_figure(token) else None
            sign = signs.get(key) if key else None
            if sign and ({"up"} if sign == "+" else {"down"}) != mine:
                return f"{sign}{key}"
        if (change_pairs(clause) & theirs) and change_directions(clause) - mine:
            return clause
        if not change_pairs(clause) and (_against(clause, mine, cited)
                                         or _against_rate(clause, cited)):
            return clause
    return None


_SPEED = {"faster": "up", "quicker": "up", "slower": "down"}
# the speed word told of a rate: "faster in tokens per second", "slower throughput"
_RATE_SPEED = re.compile(r"\b(faster|quicker|slower)\b(?:\s+[\w-]+){0,2}?\s+(?:in\s+)?(?:throughput|"
                         r"tokens? per|requests? per|messages? per|msg/s|rps|qps|ops|[\w.]+/s\b)")


def _against_rate(clause: str, cited: str) -> bool:
    """"Made training faster in tokens per second" against "throughput dropped, 1.21M -> 1.17M
    tokens/s": for a rate, faster is up; the rate clauses of the same subject (two of its words)
    that tell a change must go the same way."""
    lowered = clause.casefold()
    speed = {_SPEED[match.group(1)] for match in _RATE_SPEED.finditer(lowered)}
    if len(speed) != 1:
        return False
    words = _words(_DIRECTION_WORDS.sub(" ", lowered))
    found = []
    for sentence in sentences(cited):
        went = (change_directions(sentence) | _directions(sentence)) - {"flat"}
        if len(went) == 1 and _RATE.search(sentence.casefold()) and len(words & _words(sentence)) >= 2:
            found.append(went)
    return bool(found) and all(went != speed for went in found)


_DIRECTION_WORDS = re.compile("|".join(DIRECTION.values()))
_SPEED_WORD = re.compile(r"\b(?:faster|slower|quicker|slowed|sped)\b")
_RATE = re.compile(r"/s\b|/sec\b|per (?:second|minute|hour)\b|\b(?:throughput|rps|qps|ops|hit rate|"
                   r"recall|precision|accuracy|score|coverage|occupancy)\b")


def _against(clause: str, mine: set[str], cited: str) -> bool:
    """A direction word with no figure ("streaming raised memory use") against every cited
    clause that tells a change of figures of the same subject (two of its words): "memory stays
    around 120 MB instead of peaking at 900 MB". For rates and scores faster is up, not down as
    for times: against a speed word, clauses with them are left out."""
    words = _words(_DIRECTION_WORDS.sub(" ", clause.casefold()))  # its subject, not "raised"
    speed = _SPEED_WORD.search(clause.casefold())
    found = []
    for part, subject in _subjected_parts(cited):
        went = change_directions(part) - {"flat"}
        if (len(went) == 1 and not (speed and _RATE.search(subject.casefold()))
                and len(words & _words(subject)) >= 2):
            found.append(went)
    return bool(found) and all(went != mine for went in found)


def _subjected_parts(cited: str) -> list[tuple[str, str]]:
    """Each clause (and each side of its "and") with the words that tell its subject: a bare
    change ("`Timeout` objects, up from 9,200 to 31,500") takes the clause before it too."""
    out = []
    for sentence in sentences(cited):
        before = ""
        for whole in split_clauses(sentence):
            for part in re.split(r"\s+and\s+", whole):
                bare = len(_words(_DIRECTION_WORDS.sub(" ", part.casefold())) - {"from", "to"}) < 2
                out.append((part, f"{before} {part}" if bare else part))
                before = part
    return out


_DIFFERENCE = re.compile(r"\b(?:by|more|less|fewer|faster|slower|sav(?:ed|es|ing)|shav(?:ed|es)|drop|"
                         r"cut|improved|beats?|gap|difference|delta|extra|lower|higher|smaller|"
                         r"bigger|larger|another)\b")
_APPROX = r"(?:over|more than|nearly|almost|about|roughly|around|~|some)\s*"


def _value(token: str) -> float | None:
    try:
        return float(figure_key(token).rstrip("%"))
    except ValueError:
        return None


def derived_difference(value: str, text: str, cited: str) -> bool:
    """`value` (a figure of the item) is the difference of two figures one sentence of `cited`
    holds, and the item's clause that holds it says it is a difference."""
    wanted = _value(value)
    if wanted is None or not wanted:
        return False
    said = [c for c in clauses(text.casefold()) if value in c]
    if not any(_DIFFERENCE.search(clause) for clause in said):
        return False
    decimals = len(value.split(".")[1]) if "." in value else 0
    tolerance = 0.5 * 10 ** -decimals + 0.02 * wanted
    share = value.endswith("%")  # "down by over 95%" for "9,200 → 340": a relative change
    if share and any(re.search(rf"{_APPROX}{re.escape(value)}", clause) for clause in said):
        tolerance = max(tolerance, 5.0)
    told = sentences(cited)
    subject = {word for clause in said for word in key_tokens(clause) if not is_figure(word)}
    # two sentences in a row that both name the item's subject: "LOD2 3,010. Before the fix LOD2
    # was 2,400" holds "raised LOD2 by about 600"
    paired = [f"{a} {b}" for a, b in zip(told, told[1:])
              if subject & set(key_tokens(a)) and subject & set(key_tokens(b))]
    for sentence in told + paired:
        found = {v for v in (_value(t) for t in FIGURE.findall(sentence)) if v is not None}
        if any(abs(abs(a - b) - wanted) <= tolerance for a in found for b in found if a > b):
            return True
        if share and any(abs(100 * (a - b) / side - wanted) <= tolerance
                         for a in found for b in found if a > b > 0 for side in (a, b)):
            return True
    return False
