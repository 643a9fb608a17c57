"""The grounding check: an item of a report is kept only if the events it cites support it.

Pure and the same for every backend. An item is dropped, and counted by reason, when it
- cites no event of its window (`no_evidence`);
- carries text of the prompt's own instructions or examples that its events do not hold
  (`prompt_copy`: a weak model copying "migrate to X after the Y fix ships");
- names a figure, version, path or identifier its events do not hold (`unsupported_figure`:
  an invented date, a metric that was never measured);
- shares too few of its content words with its events (`unsupported_words`: a sentence about
  something else). The threshold comes from the labelled set of `bench/quality.py`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ingest.events import Event
from synth.prompt import VARIANTS
from synth.report import SECTIONS, item_text

REASONS = ("no_evidence", "prompt_copy", "unsupported_figure", "unsupported_words")
# The share of an item's content words its events must hold: the best label precision and recall
# of the sweep in bench/quality.py.
MIN_WORD_SUPPORT = 0.4
NEIGHBOURS = 1  # an event next to a cited one supports too: a model's off-by-one citation

_WORD = re.compile(r"[a-z][a-z0-9_'-]*[a-z0-9]|[a-z]")
_FIGURE = re.compile(r"(?<![\w.])(?:v?\d[\w]*(?:[.,:/-]\d[\w]*)*%?)")
_PATH = re.compile(r"(?:[\w.@-]+/)+[\w.@-]+|\b[\w-]+\.(?:py|js|ts|tsx|jsx|json|toml|ya?ml|md|sql|rs|go|"
                   r"java|rb|exs?|sh|css|html|lock|txt|cfg|ini|csv|parquet)\b")
_IDENT = re.compile(r"`([^`\s]{2,80})`|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b")
_MASK = re.compile(r"«[A-Z_]+»")
_STOP = frozenset("""
a about above after again against all also an and any are as at be because been before being
below between both but by can could did do does doing done down during each few for from further
had has have having he her here hers him his how i if in into is it its itself just let like made
make many may me more most must my no nor not now of off on once only or other our out over own
same she should so some such than that the their them then there these they this those through
to too under until up use used using very was way we were what when where which while who whom
why will with would yet you your
""".split())


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def content_words(text: str) -> list[str]:
    return [w for w in _words(_MASK.sub(" ", text)) if len(w) > 2 and w not in _STOP]


def _ngrams(words: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


_PROMPT_NGRAMS = set().union(*(_ngrams(_words(text), 4) for text in VARIANTS.values()))


def specifics(text: str) -> set[str]:
    """The figures, versions, paths and identifiers an item names (case-folded)."""
    return {value for value, _ in _named(text)}


def _named(text: str) -> set[tuple[str, bool]]:
    """Each specific with whether it was found as a figure, whose bounds are stricter."""
    text = _MASK.sub(" ", text)
    found = {(m.rstrip(".,:;-/"), True) for m in _FIGURE.findall(text)}
    found |= {(m.rstrip(".,:;-/"), False) for m in _PATH.findall(text)}
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
        words = frozenset(_words(text))
        return cls(text, words, frozenset(_stem(w) for w in words))

    def holds_word(self, word: str) -> bool:
        return word in self.words or _stem(word) in self.stems

    def holds_specific(self, value: str, figure: bool = True) -> bool:
        """The value as a token of its own, bounded as `specifics` found it: a figure with no
        dot around it ("2" is not held by "1.2.5", "5%" not by "0.5%"), any other value with no
        letter ("cfg.maxRetries" holds `maxRetries`); a value ending in a sign ends there ("5%0"
        holds "5%")."""
        start = r"(?<![\w.])" if figure else r"(?<!\w)" if _is_word(value[:1]) else ""
        end = "" if not _is_word(value[-1:]) else r"(?![\w]|\.\d)" if figure else r"(?!\w)"
        return re.search(rf"{start}{re.escape(value)}{end}", self.text) is not None


def _is_word(char: str) -> bool:
    return re.fullmatch(r"\w", char) is not None


_SUFFIXES = ("ations", "ation", "ings", "ing", "ied", "ies", "ed", "es", "er", "ly", "s", "e")


def _stem(word: str) -> str:
    """A crude stem, enough to match `caching` with `cache` and `moved` with `move`."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[:-len(suffix)]
            break
    return word[:5]


def word_support(text: str, support: Support) -> float:
    """The share of the item's content words the events hold (1.0 when it has none)."""
    wanted = content_words(text)
    return sum(support.holds_word(w) for w in wanted) / len(wanted) if wanted else 1.0


def check_item(text: str, support: Support, min_word_support: float | None = None) -> str | None:
    """Why the events in `support` do not support `text`; None when they do."""
    if min_word_support is None:
        min_word_support = MIN_WORD_SUPPORT
    words = _words(text)
    copied = _ngrams(words, 4) & _PROMPT_NGRAMS
    if copied and not any(" ".join(gram) in support.text for gram in copied):
        return "prompt_copy"
    named = _named(text)
    if any(not support.holds_specific(value, figure) for value, figure in named):
        return "unsupported_figure"
    if not named and not content_words(text):
        return "unsupported_words"  # says nothing: `[x] [y], x, y`
    if word_support(text, support) < min_word_support:
        return "unsupported_words"
    return None


def cited_support(events: list[Event], cited: list[int]) -> Support:
    """What the cited events and their neighbours in the window hold."""
    order = [event.seq for event in events]
    position = {seq: i for i, seq in enumerate(order)}
    near = {j for seq in cited if seq in position
            for j in range(max(0, position[seq] - NEIGHBOURS),
                           min(len(order), position[seq] + NEIGHBOURS + 1))}
    return Support.of(events[j] for j in sorted(near))


def ground_items(report: dict, events: list[Event], *,
                 min_word_support: float | None = None) -> tuple[dict, dict[str, int]]:
    """Keep the items their cited events (and those next to them) support; evidence is kept to
    the window's own seqs, in order. Returns (report, dropped items by reason)."""
    by_seq = {event.seq: event for event in events}
    dropped = dict.fromkeys(REASONS, 0)
    kept: dict[str, list[dict]] = {}
    for name in SECTIONS:
        kept[name] = []
        for item in report.get(name, []):
            cited = [seq for seq in item.get("evidence") or [] if seq in by_seq]
            if not cited:
                dropped["no_evidence"] += 1
                continue
            why = check_item(item_text(item), cited_support(events, cited), min_word_support)
            if why is not None:
                dropped[why] += 1
                continue
            kept[name].append({**item, "evidence": sorted(cited)})
    return kept, dropped
