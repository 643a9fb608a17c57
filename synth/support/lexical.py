"""What cited events hold, in words: their text, words and crude stems, and the figures, versions,
paths and identifiers an item names. Pure; microseconds per item."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ingest.events import Event

WORD = re.compile(r"[a-z][a-z0-9_'-]*[a-z0-9]|[a-z]")
_FIGURE = re.compile(r"(?<![\w.])(?:v?\d[\w]*(?:[.,:/-]\d[\w]*)*%?)")
_PATH = re.compile(r"(?:[\w.@-]+/)+[\w.@-]+|\b[\w-]+\.(?:py|js|ts|tsx|jsx|json|toml|ya?ml|md|"
                   r"sql|rs|go|java|rb|exs?|sh|css|html|lock|txt|cfg|ini|csv|parquet)\b")
_IDENT = re.compile(r"`([^`\s]{2,80})`|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|"
                    r"\b[a-z]+[A-Z][A-Za-z0-9]*\b")
_MASK = re.compile(r"«[A-Z_]+»")
# A rate is no path: "req/min", "40/s", "messages/s".
_RATE = re.compile(r"(?i)/(?:s|sec|secs|second|ms|min|mins|minute|h|hr|hour|day|week|month|year|"
                   r"req|request|run|user|node|core|gpu)$")
# An inline citation of the trail's own `[seq]` prefixes ("as in [8]") names no figure.
_WORD_PAIR = re.compile(r"[a-z]+(?:/[a-z]+){1,2}")  # "before/after", "read/write": words, no path
_CITATION = re.compile(r"\[\d{1,9}\]:?")
STOP = frozenset("""
a about above after again against all also an and any are as at be because been before being
below between both but by can could did do does doing done down during each few for from further
had has have having he her here hers him his how i if in into is it its itself just let like made
make many may me more most must my no nor not now of off on once only or other our out over own
same she should so some such than that the their them then there these they this those through
to too under until up use used using very was way we were what when where which while who whom
why will with would yet you your
""".split())


def words(text: str) -> list[str]:
    return WORD.findall(text.casefold())


def content_words(text: str) -> list[str]:
    return [w for w in words(_MASK.sub(" ", text)) if len(w) > 2 and w not in STOP]


def uncited(text: str) -> str:
    """The item's text without inline `[seq]` citations (the model copies the trail's prefixes)."""
    return _CITATION.sub(" ", text)


def specifics(text: str) -> set[str]:
    """The figures, versions, paths and identifiers an item names (case-folded)."""
    return {value for value, _ in named(text)}


def named(text: str) -> set[tuple[str, bool]]:
    """Each specific with whether it was found as a figure, whose bounds are stricter."""
    text = _MASK.sub(" ", text)
    found = {(m.rstrip(".,:;-/"), True) for m in _FIGURE.findall(text)}
    found |= {(m.group(0).rstrip(".,:;-/"), False) for m in _PATH.finditer(text)
              if not _RATE.search(m.group(0)) and not (
                  _WORD_PAIR.fullmatch(m.group(0)) and text[m.start() - 1:m.start()] not in "/~`")}
    for match in _IDENT.finditer(text):
        found.add((match.group(1) or match.group(0), False))
    return {(value.casefold(), figure) for value, figure in found if value}


@dataclass(frozen=True)
class Support:
    """What a set of cited events holds: their text (case-folded), words and word stems."""

    text: str
    words: frozenset[str]
    stems: frozenset[str]

    @classmethod
    def of(cls, events: Iterable[Event]) -> Support:
        text = "\n".join(" ".join(filter(None, (e.role, e.content, e.tool, e.outcome)))
                         for e in events).casefold()
        found = frozenset(words(text))
        return cls(text, found, frozenset(stem(w) for w in found))

    def holds_word(self, word: str) -> bool:
        return word in self.words or stem(word) in self.stems

    def holds_specific(self, value: str, figure: bool = True) -> bool:
        """The value as a token of its own, bounded as `specifics` found it: a figure with no
        dot around it ("2" is not held by "1.2.5", "5%" not by "0.5%"), any other value with no
        letter ("cfg.maxRetries" holds `maxRetries`); a value ending in a sign ends there ("5%0"
        holds "5%"). `_` and `-` are one character in identifiers (`hoge_py` is `hoge-py`)."""
        start = r"(?<![\w.])" if figure else r"(?<!\w)" if _is_word(value[:1]) else ""
        end = "" if not _is_word(value[-1:]) else r"(?![\w]|\.\d)" if figure else r"(?!\w)"
        body = re.escape(value)
        if not figure:
            body = re.sub(r"\\?[-_]", "[-_]", body)
            if re.fullmatch(r"\w{3,}[-_]\w+s", value):  # "event_ids" is "`event_id`s"
                body = body[:-1] + "`?s"
        elif re.fullmatch(r"[\d.,]+s", value):  # "60s" is "60 s", "502s" the plural of "502"
            body = re.escape(value[:-1]) + (r"(?:\s?s\b|\s?secs?\b|\s?seconds?\b|"
                                            r"s?(?=\s|$|[^\w.]|\.(?!\d)))")
        elif re.fullmatch(r"[\d.,]+", value):
            # "502s" holds "502"; "15.0 s" holds "15"; `v0.25` holds "0.25"
            start = r"(?<![\w.])v?" if "." in value else start
            end = r"(?:\.0+)?(?:(?![\w]|\.\d)|(?=s\b)|(?=[x×](?!\w)))"  # "3.4x": a factor
        elif re.fullmatch(r"v\d[\d.]*", value):
            body = r"v?" + re.escape(value[1:])  # "v0.25" is the 0.25 release
        elif re.fullmatch(r"\d+th", value):
            # the 95th percentile is p95; the 17th is day 17
            body = rf"(?:{re.escape(value)}|p{value[:-2]}|{value[:-2]}(?![\w]|\.\d))"
        return re.search(rf"{start}{body}{end}", self.text) is not None


def _is_word(char: str) -> bool:
    return re.fullmatch(r"\w", char) is not None


_SUFFIXES = ("ions", "ion", "ings", "ing", "ied", "ies", "ed", "es", "er", "ly", "s", "e")


def stem(word: str) -> str:
    """A crude stem, enough to match `caching` with `cache`, `moved` with `move` and
    `rotation` with `rotated`."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith("ss"):
                break  # pass, process: as passes, processed
            if suffix == "ly" and (len(word) < 6 or word.endswith(("ply", "bly"))):
                break  # apply, reply, supply, assembly: no adverbs
            word = word[:-len(suffix)]
            if suffix == "ied":
                word += "y"  # applied as apply, copied as copy
            if suffix == "ly":
                return stem(word)  # eagerly as eager, quickly as quick
            if suffix in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2] not in "aeiouls":
                word = word[:-1]  # hitting, stopped, planned
            break
    return word[:5]


def word_support(text: str, support: Support) -> float:
    """The share of the item's content words the events hold (1.0 when it has none)."""
    wanted = content_words(text)
    return sum(support.holds_word(w) for w in wanted) / len(wanted) if wanted else 1.0
