"""What a memory states, as plain features: its core text (without the section's label), its
content-word stems, its figures and its key terms; and whether two texts state the same thing.

Pure, shared by the one-statement-one-memory rule inside a window (`sinks.items`) and by
consolidation across windows (`synth.consolidate`). Lexical on purpose: deterministic and cheap
(microseconds a text), the embedder adds meaning on top where it is there.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

# The most specific type wins when one statement is reported under several sections: a choice
# made (decision, preference) says more than a blocker, a blocker more than a result, a result
# more than an open question, and all of them more than "worked on".
TYPE_PRECEDENCE = ("decision", "preference", "task", "outcome", "fact", "episode")

# Same statement inside one window: the same content-word stems (Jaccard) and the same figures.
NEAR_SAME = 0.8

_RESULT = re.compile(r"^\s*\[(?:success|failure|partial)\]\s*", re.I)
_LABEL = re.compile(r"^\s*(?:worked on|decided|decision|outcome|result|blocker|task|question|"
                    r"open question|fact|preference|learned)\s*:\s*", re.I)
_RATIONALE = re.compile(r"\s+—\s+rationale:.*$", re.S)
_WORD = re.compile(r"[a-z][a-z0-9_'-]*[a-z0-9]|[a-z]")
_TOKEN = re.compile(r"[a-z0-9]+(?:[._'-][a-z0-9]+)*%?")
_FIGURE = re.compile(r"(?<![\w.])v?\d+(?:[.,:/]\d+)*(?:%|[a-z]{1,3}\b)?", re.I)
_MASK = re.compile(r"«[A-Z_]+»")
_IDENT = re.compile(r"`[^`\s]{2,80}`|\b[\w.-]+/[\w./-]+|\b[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+\b|"
                    r"\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*\b")
_STOP = frozenset("""
a about above after again against all also an and any are as at be because been before being
below between both but by can could did do does doing done down during each few for from further
had has have having he her here hers him his how i if in into is it its itself just let like made
make many may me more most must my now of off on once only or other our out over own same she
should so some such than that the their them then there these they this those through to too
under until up very was way we were what when where which while who whom why will with would yet
you your going go goes went get got keep kept still again instead also now from then team agreed
decided decide decision use uses used using choose chose chosen pick picked settle settled
""".split())
_SUFFIXES = ("ations", "ation", "ings", "ing", "ied", "ies", "ed", "es", "er", "ly", "s", "e")


def core_text(content: str) -> str:
    """The statement itself: no outcome marker (`[success] `), no section label (`Decided: `),
    no decision rationale (`— rationale: ...`)."""
    text = _RESULT.sub("", content)
    text = _LABEL.sub("", text)
    return _RATIONALE.sub("", text).strip()


def normalized(content: str, core: str | None = None) -> str:
    """The core text, case-folded, with punctuation and spacing collapsed."""
    return " ".join(_TOKEN.findall((core_text(content) if core is None else core).casefold()))


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A crude stem: `caching` and `cache`, `moved` and `move` meet."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[:-len(suffix)]
            break
    return word[:6]


@functools.lru_cache(maxsize=1 << 14)
def stems(text: str, core: str | None = None) -> frozenset[str]:
    """Stems of the content words (no stop words, no masks, no words of two letters)."""
    words = _WORD.findall(_MASK.sub(" ", core_text(text) if core is None else core).casefold())
    return frozenset(stem(w) for w in words if len(w) > 2 and w not in _STOP)


def figures(text: str, core: str | None = None) -> frozenset[str]:
    """Numbers, versions and measures as written (`120ms`, `v1.2`, `0.87`, `33%`), case-folded."""
    core = core_text(text) if core is None else core
    return frozenset(m.group(0).casefold().rstrip(".,:/") for m in
                     _FIGURE.finditer(_MASK.sub(" ", core)))


_NAME = re.compile(r"(?<=[\w,;:(] )[A-Z][a-z0-9]+\b")  # a capital inside a sentence: a name


def key_terms(text: str, core: str | None = None) -> frozenset[str]:
    """Identifiers, paths, names in capitals or camelCase, capitalized names inside a sentence,
    as written (case-folded)."""
    core = core_text(text) if core is None else core
    found = {m.group(0).strip("`").casefold() for m in _IDENT.finditer(core)}
    found |= {m.group(0).casefold() for m in _NAME.finditer(core)}
    return frozenset(term for term in found if term not in _STOP)


def jaccard(a: frozenset, b: frozenset) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


@dataclass(frozen=True)
class Statement:
    """The features of one text, computed once."""

    text: str
    norm: str
    stems: frozenset[str]
    figures: frozenset[str]
    terms: frozenset[str]

    @classmethod
    def of(cls, content: str) -> Statement:
        core = core_text(content)
        return cls(content, normalized(content, core), stems(content, core),
                   figures(content, core), key_terms(content, core))


def near_same(a: Statement, b: Statement, threshold: float = NEAR_SAME) -> bool:
    """The same statement, or nearly: the same normalized text, or the same figures and at least
    `threshold` of their content-word stems in common."""
    if a.norm and a.norm == b.norm:
        return True
    return a.figures == b.figures and bool(a.stems) and jaccard(a.stems, b.stems) >= threshold


def most_specific(types: list[str]) -> str:
    """The type that wins among `types` (TYPE_PRECEDENCE; an unknown type loses)."""
    rank = {name: i for i, name in enumerate(TYPE_PRECEDENCE)}
    return min(types, key=lambda name: rank.get(name, len(rank)))
