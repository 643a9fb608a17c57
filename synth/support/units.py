"""The pieces an item is matched against: sentences and clauses of events, each with the word
stems and figures it holds, and the best match of an item's clause among them.

A sentence ends at `. ! ? ;` followed by space, or at a line break (never inside "0.87" or
"parser.py"); a clause ends at a comma or colon, or before a conjunction that starts one (but, while,
because, so, although). An item's clause "restates" the unit that holds most of its words."""

from __future__ import annotations

import re
from dataclasses import dataclass

from synth.support.lexical import STOP, WORD, stem

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_CLAUSE_END = re.compile(r"[,:]\s+|\s+and\s+(?=(?:we|i|it|they|this|that|there|you|he|she)\b)|\s+(?=(?:but|while|whereas|although|though|because|so|since|"
                         r"which|yet)\b)|\s+-{1,2}\s+|\s+—\s+|\s+\(|\)(?=[\s,.;:]|$)")
FIGURE = re.compile(r"(?<![\w.])[-+−]?\d[\d,]*(?:\.\d+)*(?:e-?\d+)?%?")
_TOKEN = re.compile(r"[-+−]?\d[\d,]*(?:\.\d+)*(?:e-?\d+)?%?|[a-z][a-z0-9_@'-]*[a-z0-9]|[a-z]")
UNITS = frozenset("""
ms s sec secs second seconds min mins minute minutes h hr hrs hour hours day days week weeks
kb mb gb tb kib mib gib b px x vcpu vcpus cpu cpus
""".split())


def figure_key(token: str) -> str:
    """A figure as compared: no sign, no thousands separator ("-33%" → "33%", "5,000" → "5000")."""
    return token.lstrip("-+−").replace(",", "")


@dataclass(frozen=True)
class Unit:
    """A sentence or clause of one event: its text, content stems (figures included, by key),
    who said it, and the sentence it belongs to."""

    text: str
    seq: int
    stems: frozenset[str]
    role: str = ""
    sentence: str = ""

    @classmethod
    def of(cls, text: str, seq: int = -1, role: str = "", sentence: str = "") -> Unit:
        return cls(text, seq, frozenset(key_tokens(text)), role, sentence or text)


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.casefold())


def is_figure(token: str) -> bool:
    return FIGURE.fullmatch(token) is not None


def key_tokens(text: str) -> list[str]:
    """The tokens that carry what a piece says: content stems and figures (by key)."""
    out = []
    for token in tokens(text):
        if is_figure(token):
            out.append(figure_key(token))
        else:
            for part in re.split(r"[-_]", token) if "@" not in token else [token]:
                if len(part) > 2 and part not in STOP and part not in UNITS:
                    out.append(stem(part) if WORD.fullmatch(part) else part)
    return out


def sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip(" .")]


def split_clauses(sentence: str) -> list[str]:
    return [part.strip() for part in _CLAUSE_END.split(sentence) if part and part.strip(" .,")]


def clauses(text: str) -> list[str]:
    """The clauses of a text, sentence by sentence."""
    return [part for sentence in sentences(text) for part in split_clauses(sentence)]


def units_of(text: str, seq: int = -1, role: str = "") -> list[Unit]:
    """Every sentence of the text and, where a sentence has several, each of its clauses."""
    out = []
    for sentence in sentences(text):
        out.append(Unit.of(sentence, seq, role))
        parts = split_clauses(sentence)
        if len(parts) > 1:
            out.extend(Unit.of(part, seq, role, sentence) for part in parts)
    return out


def overlap(stems: frozenset[str] | set[str], unit: Unit) -> int:
    return len(stems & unit.stems)


def best_units(stems: set[str], units: list[Unit]) -> tuple[int, list[Unit]]:
    """The units holding most of `stems`, smallest first: (how many they hold, units)."""
    if not units or not stems:
        return 0, []
    top = max(overlap(stems, unit) for unit in units)
    if top == 0:
        return 0, []
    best = [unit for unit in units if overlap(stems, unit) == top]
    return top, sorted(best, key=lambda unit: len(unit.text))
