"""The pieces an item is matched against: sentences and clauses of events, each with the word
stems and figures it holds, and the best match of an item's clause among them.

A sentence ends at `. ! ? ;` followed by space, or at a line break (never inside "0.87" or
"parser.py"); a clause ends at a comma or colon, or before a conjunction that starts one (but,
while, because, so, although, "and" + a subject). An item's clause "restates" the unit that
holds most of its words."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from synth.support.lexical import STOP, WORD, stem
from synth.support.measures import unit_of

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_CLAUSE_END = re.compile(r"[,:]\s+|\s+and\s+(?=(?:we|i|it|they|this|that|there|you|he|she)\b)|"
                         r"\s+and\s+(?=(?:the\s+|an?\s+|its\s+|our\s+|their\s+)?[\w#.-]+(?:\s+[\w#.-]+)?\s+"
                         r"(?:is|are|was|were|has|have|had|now)\b)|"
                         r"\s+(?=(?:but|while|whereas|although|though|because|so|since|"
                         r"which)\b)|(?<!\bhas)(?<!\bhave)(?<!\bhad)(?<!\bnot)(?<!n't)(?<!\bis)"
                         r"(?<!\bare)\s+(?=yet\b(?!\s*[,.;:!?]|\s*$))|\s+-{1,2}\s+|\s+—\s+|\s+\(|\)(?=[\s,.;:]|$)")
# "N+1" (queries) is a name, no figure
# a time of day ("15:21") is one figure
FIGURE = re.compile(r"(?<![\w.])(?:\d{1,2}:\d{2}(?![\d:])|[-+−]?(?<![a-z]\+)\d[\d,]*(?:\.\d+)*(?:e-?\d+)?%?)")
_TOKEN = re.compile(r"[a-z]\+1\b|(?<![\d:])\d{1,2}:\d{2}(?![\d:])|[-+−]?(?<![a-z]\+)\d[\d,]*(?:\.\d+)*(?:e-?\d+)?%?|"
                    r"[a-z][a-z0-9_@'-]*[a-z0-9]|[a-z]")
UNITS = frozenset("""
ms s sec secs second seconds min mins minute minutes h hr hrs hour hours day days week weeks
kb mb gb tb kib mib gib b px x
""".split())


# Function words the stop list lacks, for matching pieces (not for the word share).
LIGHT = frozenset("per via vs etc onto upon within across around beyond whenever wherever however "
                  "whatever ever".split())


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
    after: str = ""  # the next sentence of the event ("Tried X. It made no difference.")

    @classmethod
    def of(cls, text: str, seq: int = -1, role: str = "", sentence: str = "",
           after: str = "") -> Unit:
        return cls(text, seq, frozenset(key_tokens(text)), role, sentence or text, after.casefold())


_POSSESSIVE = re.compile(r"(?<=[a-z])[’']s\b")


@functools.lru_cache(maxsize=1 << 16)
def plain_words(text: str) -> str:
    """The text's words, case-folded, one space apart: what "word for word" compares."""
    return " ".join(_PLAIN_WORD.findall(text.casefold()))


_PLAIN_WORD = re.compile(r"\w+")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(_POSSESSIVE.sub("", text.casefold()))  # "the worker's" as "worker"


# Short forms developers write for the same word.
_SHORT = {"prod": "production", "repo": "repository", "repos": "repository", "env": "environment",
          "envs": "environment", "perf": "performance", "deps": "dependency", "dep": "dependency",
          "docs": "documentation", "auth": "authentication", "msgs": "messages", "msg": "message",
          "prs": "pr", "impl": "implementation", "db": "database", "dbs": "database"}


def is_figure(token: str) -> bool:
    return FIGURE.fullmatch(token) is not None


@functools.lru_cache(maxsize=1 << 16)
def key_tokens(text: str) -> tuple[str, ...]:
    """The tokens that carry what a piece says: content stems and figures (by key); cached, as
    a window's sentences are matched against many items."""
    out = []
    for token in tokens(text):
        if is_figure(token):
            out.append(figure_key(token))
        else:
            for part in re.split(r"[-_]", token) if "@" not in token else [token]:
                part = _SHORT.get(part, part)
                if (len(part) > 2 or (len(part) == 2 and part[1].isdigit())) and \
                        part not in STOP and part not in UNITS and part not in LIGHT:
                    out.append(stem(part) if WORD.fullmatch(part) else part)
    return tuple(out)


_INLINE_CODE = re.compile(r"`[^`\n]{1,200}`")
_SENTENCE_HIDE = str.maketrans({".": "\x05", "!": "\x06", "?": "\x07", ";": "\x08"})
_SENTENCE_SHOW = str.maketrans({"\x05": ".", "\x06": "!", "\x07": "?", "\x08": ";"})
# a list marker alone ("1.", "b)", "**A.**") is no sentence: it opens the next one
# ("A." alone is a reply that picks option A)
_LIST_MARKER = re.compile(r"^(?:[-*•]\s+)?(?:(?:\*\*)?\(?\d{1,2}[.)](?:\*\*)?|\(?[a-z]\)|"
                          r"(?:[-*•]\s+)?\*\*\(?[a-z][.)]\*\*)$", re.I)


def sentences(text: str) -> list[str]:
    """The sentences of a text; a code span (`INSERT ... ON CONFLICT`) is never cut, and a list
    marker stays with its item."""
    hidden = _INLINE_CODE.sub(lambda m: m.group(0).translate(_SENTENCE_HIDE), text)
    out: list[str] = []
    marker = ""
    for part in _SENTENCE_END.split(hidden):
        part = part.strip() if part else ""
        if not part.strip(" ."):
            continue
        if _LIST_MARKER.match(part):
            marker = f"{marker}{part} "
            continue
        out.append((marker + part).translate(_SENTENCE_SHOW))
        marker = ""
    return out


_CODE = re.compile(r"`[^`]{1,80}`|\w\([^()]{0,60}\)")  # `x, y`, init(), bounds(256, 4)
_HIDE = str.maketrans({",": "\x00", "(": "\x01", ")": "\x02", ":": "\x03", " ": "\x04"})
_SHOW = str.maketrans({"\x00": ",", "\x01": "(", "\x02": ")", "\x03": ":", "\x04": " "})


def split_clauses(sentence: str) -> list[str]:
    """The clauses of a sentence; code spans (backticks, calls) are never cut."""
    hidden = _CODE.sub(lambda m: m.group(0).translate(_HIDE), sentence)
    return [part.strip().translate(_SHOW) for part in _CLAUSE_END.split(hidden)
            if part and part.strip(" .,")]


def clauses(text: str) -> list[str]:
    """The clauses of a text, sentence by sentence."""
    return [part for sentence in sentences(text) for part in split_clauses(sentence)]


def units_of(text: str, seq: int = -1, role: str = "") -> list[Unit]:
    """Every sentence of the text and, where a sentence has several, each of its clauses."""
    out = []
    found = sentences(text)
    for i, sentence in enumerate(found):
        after = found[i + 1] if i + 1 < len(found) else ""
        out.append(Unit.of(sentence, seq, role, sentence, after))
        parts = split_clauses(sentence)
        if len(parts) > 1:
            out.extend(Unit.of(part, seq, role, sentence, after) for part in parts)
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


FIG_PATTERN = r"([-+−]?\d[\d,]*(?:\.\d+)*(?:e-?\d+)?%?)"
_UNIT = r"(?:\s*[a-z%]{1,8}\.?)?"
_ABOUT = r"(?:(?:like|about|around|roughly|approximately|approx\.|nearly|almost)\s+|~\s?)?"
_MEASURE = r"(?:ms|s|sec|min|mins|minutes|h|hours|kb|mb|gb|tb|kib|mib|gib|%)"
PAIRS = (  # (pattern, index of the old figure, index of the new one)
    (re.compile(rf"\bfrom\s+{_ABOUT}{FIG_PATTERN}{_UNIT}"
                rf"(?:\s+(?:before|previously)(?:\s+[\w-]+){{0,3}}?)?\s+(?:(?:down|up)\s+)?to\s+{_ABOUT}{FIG_PATTERN}"), 1, 2),
    (re.compile(rf"{FIG_PATTERN}{_UNIT}\s*(?:→|->|=>)\s*{FIG_PATTERN}"), 1, 2),
    (re.compile(rf"{FIG_PATTERN}{_UNIT}\s+instead of\s+(?:[a-z]+\s+){{0,3}}{FIG_PATTERN}"), 2, 1),
    (re.compile(rf"{FIG_PATTERN}{_UNIT},?\s+(?:down|up)\s+from\s+{_ABOUT}{FIG_PATTERN}"), 2, 1),
    (re.compile(rf"{FIG_PATTERN}{_UNIT}(?:\s+[a-z]+){{0,3}},?\s+(?:vs\.?|versus|against|"
                rf"compared (?:to|with))\s+{FIG_PATTERN}{_UNIT}\s+(?:before|previously|earlier|"
                rf"baseline|at baseline)"), 2, 1),
    # "went down to 71 on mobile ..., from 98", "was 71 on mobile ...; now 98"
    (re.compile(rf"\b(?:down|up)\s+to\s+{FIG_PATTERN}[^.;]{{0,40}}?,?\s+from\s+{FIG_PATTERN}"),
     2, 1),

    (re.compile(rf"{FIG_PATTERN}{_UNIT}(?:(?!\s\d)[^.;]){{0,40}}?\(?"
                rf"\b(?:previously|was|baseline|before:?)\s*"
                rf"(?:up to\s+|at\s+)?{FIG_PATTERN}"), 2, 1),
    (re.compile(rf"\bto\s+{FIG_PATTERN}[^.;]{{0,30}}?\bfrom\s+{FIG_PATTERN}{_UNIT}\s+(?:before|previously|earlier)"),
     2, 1),
    # "41 before, 12 now", "was 27 min, 24 min now"
    (re.compile(rf"{FIG_PATTERN}{_UNIT}\s+(?:before|previously|earlier),?\s+(?:and\s+)?"
                rf"{FIG_PATTERN}{_UNIT}\s+(?:now|after)\b"), 1, 2),
    (re.compile(rf"\bwas\s+{FIG_PATTERN}{_UNIT},\s+(?:and\s+)?(?:is\s+)?{FIG_PATTERN}{_UNIT}\s+now\b"),
     1, 2),
    # "38 min to 4 min", "1.4 TB to 61 GB": both ends with a unit (a range "3 to 5 min" has one)
    (re.compile(rf"(?<!from )(?<!between ){FIG_PATTERN}\s?{_MEASURE}\s+to\s+{FIG_PATTERN}\s?"
                rf"{_MEASURE}\b"), 1, 2),
)


# "was 71 on mobile ...; now 98": across the semicolon that ends a sentence here
ACROSS = re.compile(rf"\bwas\s+{FIG_PATTERN}[^.;]{{0,40}}?;\s*(?:and\s+)?now\s+(?:at\s+)?"
                    rf"{FIG_PATTERN}")
_NAME = r"([a-z0-9][\w.@/-]*[-_./@\d][\w.@/-]*|[a-z][\w-]*-[\w-]+)"  # db-private-v2, 1.4.2, api_v1
NAME_PAIRS = (  # renames and moves between names: (pattern, old, new)
    (re.compile(rf"\bfrom\s+{_NAME}\s+to\s+{_NAME}"), 1, 2),
    (re.compile(r"'([^']{1,60})'\s+(?:is now|became|->|→)\s+'([^']{1,60})'"), 1, 2),
    (re.compile(r"\brenamed\s+(?:the\s+)?'([^']{1,60})'(?:\s+\w+)?\s+to\s+'([^']{1,60})'"), 1, 2),
)


@functools.lru_cache(maxsize=1 << 14)
def change_pairs(text: str, names: bool = False) -> frozenset[tuple[str, str]]:
    """The changes a text tells, as (old, new) figure keys: "from A to B", "B instead of A";
    with `names`, renames too ("from db-private to db-private-v2", "'A' is now 'B'")."""
    found = {(figure_key(match.group(1)), figure_key(match.group(2)))
             for match in ACROSS.finditer(text.casefold())}
    for sentence in sentences(text.casefold()):
        for pattern, old, new in PAIRS:
            for match in pattern.finditer(sentence):
                found.add((figure_key(match.group(old)), figure_key(match.group(new))))
        if names:
            for pattern, old, new in NAME_PAIRS:
                for match in pattern.finditer(sentence):
                    found.add((match.group(old).strip(".,"), match.group(new).strip(".,")))
    return frozenset(found)


def _amount(text: str, key: str) -> tuple[float, str] | None:
    """The value of a figure in the text with its unit's scale: ("1.9 s" → 1.9, "time")."""
    match = re.search(rf"(?<![\w.]){re.escape(key)}\s*([a-z%]{{1,8}})?", text.replace(",", ""))
    try:
        value = float(key.rstrip("%"))
    except ValueError:
        return None
    unit = unit_of(match.group(1) or "") if match else None
    if unit is not None and match.group(1) != "m":
        kind, scale = unit
        return value * scale, kind
    return value, "%" if key.endswith("%") else ""


def change_directions(text: str) -> set[str]:
    """Which way the text's changes went ("up", "down"), where both ends are comparable."""
    found = set()
    lowered = text.casefold()
    for old, new in change_pairs(text):
        a, b = _amount(lowered, old), _amount(lowered, new)
        if a and b and a[1] == b[1] and a[0] != b[0]:
            found.add("up" if b[0] > a[0] else "down")
    return found
