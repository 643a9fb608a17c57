"""A window's candidate statements: the sentences (and long sentences' clauses) of its user
prompts and assistant replies, each with the event it came from.

Evidence-first extraction keeps the trail's own words: a memory is one of these candidates,
trimmed, never a sentence a model wrote. Code blocks, tables, command lines and log output are
not statements; markdown bullets and headings are taken apart into their sentences.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.events import Event

MIN_WORDS = 3
MAX_CHARS = 280  # a longer sentence is cut at a clause boundary, or left out

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)]|#{1,6})\s+")
_EMPHASIS = re.compile(r"\*\*|__")
# A sentence ends at . ! ? followed by space and a capital, digit, quote, backtick or bracket.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`\"'(\[«])")
_CLAUSE = re.compile(r";\s+|\s+[—–]\s+")
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|vs|etc|approx|cf)\.$", re.I)
_CODE_LINE = re.compile(r"^\s*(?:\$ |>>> |/[\w:-]+(?:\s|$)|[{}\[\]()<>]|[\w.]+\(.*\)\s*$|\S+\s*=\s*\S+$)|[{};]\s*$")
_LEAD = re.compile(r"^(?:(?:ok(?:ay)?|good|great|nice|perfect|done|noted|right|sure|yes|anyway|so|"
                   r"alright|excellent|thanks|thank you)\b[,.!:]?\s+)+", re.I)
_WORD = re.compile(r"[A-Za-z][\w'-]*")


@dataclass(frozen=True, slots=True)
class Candidate:
    """One statement of the window: `index` orders candidates across the window."""

    index: int
    seq: int
    ts: str
    role: str
    text: str
    first_of_event: bool  # the event's first statement (a prompt's request, a reply's lead)
    event_position: int  # the event's position among the window's events
    listed: bool = False  # an item of a bulleted or numbered list
    paragraph: int = 0  # the paragraph of its event (lines between blank lines)


def _lines(content: str) -> list[tuple[str, bool, int]]:
    """The prose lines of a message, each with whether it was a list item and its paragraph:
    fenced code removed, table rows and code-like lines left out, bullets and emphasis stripped."""
    kept = []
    paragraph = 0
    for line in _FENCE.sub("\n\n", content).splitlines():
        stripped = line.strip()
        if not stripped:
            paragraph += 1
            continue
        if stripped.startswith("|"):
            continue
        if line.startswith(("    ", "\t")) or _CODE_LINE.search(stripped):
            continue
        text = _EMPHASIS.sub("", _BULLET.sub("", stripped)).strip()
        if text:
            kept.append((text, _BULLET.match(stripped) is not None, paragraph))
    return kept


# A short rule ("Don't mock the Redis clock.") whose next sentence says what to do instead.
_SHORT_RULE = re.compile(r"^(?:please\s+)?(?:don'?t|do not|never|avoid|stop)\b", re.I)
SHORT_RULE_WORDS = 7


def _sentences(line: str) -> list[str]:
    parts: list[str] = []
    for piece in _SENTENCE_END.split(line):
        if parts and _ABBREVIATION.search(parts[-1]):
            parts[-1] = f"{parts[-1]} {piece}"
        elif (len(parts) == 1 and _SHORT_RULE.match(parts[0])
              and word_count(parts[0]) <= SHORT_RULE_WORDS
              and len(parts[0]) + len(piece) < MAX_CHARS):
            parts[0] = f"{parts[0]} {piece}"  # the rule and how to keep it: one statement
        else:
            parts.append(piece)
    return parts


def _fit(sentence: str) -> list[str]:
    """A sentence within MAX_CHARS: whole, or its clauses where it is longer."""
    if len(sentence) <= MAX_CHARS:
        return [sentence]
    return [clause for clause in _CLAUSE.split(sentence) if len(clause) <= MAX_CHARS]


def tidy(text: str) -> str:
    """A statement as a memory holds it: the trail's words, without a leading acknowledgement."""
    return _LEAD.sub("", text.strip()).strip(" -:,")


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


def window_candidates(events: list[Event]) -> list[Candidate]:
    """Every statement of the window's prompts and replies, in trail order."""
    found: list[Candidate] = []
    for position, event in enumerate(events):
        if event.role not in ("user", "assistant"):
            continue
        first = True
        for line, listed, paragraph in _lines(event.content):
            for sentence in _sentences(line):
                for piece in _fit(sentence):
                    text = tidy(piece)
                    floor = 2 if event.role == "user" and first else MIN_WORDS
                    if word_count(text) < floor:
                        continue
                    found.append(Candidate(len(found), event.seq, event.ts, event.role, text,
                                           first, position, listed, paragraph))
                    first = False
    return found
