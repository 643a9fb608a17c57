"""Comparisons: "X is slower than Y" must agree with the figures the events give X and Y, and
"all 12" with "3 of 12"; two figures an item tells with each other's words are swapped.

Events compare two things with figures side by side: "the drift check runs in 38 s vs 2 min 10 s
for the old audit script", "p99 is 212 ms on Envoy vs 240 ms on nginx". Each figure belongs to
the words next to it (after it, "on Envoy", else the subject before it). An item that compares
the same two things with a word ("slower", "cheaper", "fewer") is matched to those sides by its
words, and the figures must go the way its word says: "the drift check is slower than the
audit script" against 38 s vs 130 s is inverted.
"""

from __future__ import annotations

import re

from synth.support.figures import figure_contexts
from synth.support.measures import quantity_of
from synth.support.units import figure_key, is_figure, key_tokens, sentences, split_clauses, tokens

_UP = r"slower|longer|bigger|larger|higher|heavier|costlier|more expensive|more"
_DOWN = r"faster|shorter|smaller|lower|lighter|cheaper|fewer|less"
_COMPARE = re.compile(rf"\b(?P<word>{_UP}|{_DOWN})\b(?P<what>(?:\s+[\w-]+){{0,3}}?)\s+than\s+"
                      r"(?P<other>[^,;:.()]+)")
# Words that compare with the past: the change rules judge those ("slower than before").
_PAST = re.compile(r"^(?:before|previously|earlier|it used to|it was|the old one|last time|"
                   r"yesterday|usual)\b")
_AMOUNT = re.compile(r"^(?:[\d~≈$€£]|(?:one|two|three|four|five|six|seven|eight|nine|ten|a|an|half|"
                     r"twice|double|a few|several|a dozen)\b)")
_SPEED = re.compile(r"^(?:slower|faster)$")
_RATE = re.compile(r"/s\b|/sec\b|per (?:second|minute|hour)\b|\b(?:throughput|rps|qps|ops)\b")
_QUANTITY = r"(?:\d[\d,]*(?:\.\d+)?(?:\s?(?:h|hr|hrs|hours?|m|min|mins|minutes?)\s?\d[\d,]*(?:\.\d+)?)?" \
            r"(?:\s?[a-zµ%]{1,8})?)"
_SIDE_BY_SIDE = re.compile(
    rf"(?P<a>{_QUANTITY})(?P<a_tail>(?:\s+(?!vs\b|versus\b|against\b)[\w'@.-]+){{0,3}}?)\s+"
    rf"(?:vs\.?|versus|against|compared (?:to|with))\s+(?P<b>{_QUANTITY})"
    r"(?P<b_tail>(?:\s+[\w'@./-]+){0,6})")
_FILLER = frozenset(key_tokens("for on in with the of at by a an old new our their its"))


def _words(text: str) -> set[str]:
    return {word for word in key_tokens(text) if not re.match(r"^[\d.,]+$", word)} - _FILLER


def _sides(sentence: str) -> list[tuple[set[str], tuple[str, float], set[str], tuple[str, float]]]:
    """Each "A vs B" of a sentence: (A's words, A's quantity, B's words, B's quantity)."""
    lowered = sentence.casefold()
    found = []
    for match in _SIDE_BY_SIDE.finditer(lowered):
        a, b = quantity_of(match.group("a")), quantity_of(match.group("b"))
        if a is None or b is None or a[0] != b[0] or _RATE.search(lowered):
            continue
        before = re.split(r"[,;:(]|\band\b", lowered[:match.start()])[-1]
        a_words = _words(match.group("a_tail")) or _words(before)
        b_words = _words(match.group("b_tail"))
        if a_words and b_words:
            found.append((a_words, a, b_words, b))
    return found


def comparison_conflict(text: str, cited: str) -> str | None:
    """The item's comparison ("X is slower than Y") that the figures of the two sides say the
    other way round."""
    sides = [side for sentence in sentences(cited) for side in _sides(sentence)]
    if not sides:
        return None
    for sentence in sentences(text):
        lowered = sentence.casefold()
        for match in _COMPARE.finditer(lowered):
            other = match.group("other").strip()
            if _PAST.match(other) or _AMOUNT.match(other):
                continue  # "slower than before" (the change rules), "more than two minutes" (a bound)
            mine = _words(lowered[:match.start()] + " " + match.group("what"))
            theirs = _words(other)
            up = re.fullmatch(_UP, match.group("word")) is not None
            for a_words, a, b_words, b in sides:
                if _SPEED.match(match.group("word")) and a[0] != "time":
                    continue
                forward = len(mine & a_words) + len(theirs & b_words)
                backward = len(mine & b_words) + len(theirs & a_words)
                if max(forward, backward) < 2 or forward == backward:
                    continue
                mine_amount, their_amount = (a[1], b[1]) if forward > backward else (b[1], a[1])
                if mine_amount != their_amount and (mine_amount > their_amount) != up:
                    return match.group(0)
    return None


_ALL = re.compile(r"\ball (?:the |of the |of )?(\d[\d,]*)\b")
_PART_OF = re.compile(r"(?<![\w.])(\d[\d,]*)\s*(?:of|out of|/)\s*(?:the\s+)?(\d[\d,]*)\b")


def whole_conflict(text: str, cited: str) -> str | None:
    """"All 12 pods" where the events tell only a part of them ("3 of 12 pods"; "212/215")."""
    lowered = cited.casefold()
    parts = {(int(a.replace(",", "")), int(b.replace(",", "")))
             for a, b in _PART_OF.findall(lowered)}
    for match in _ALL.finditer(text.casefold()):
        whole = int(match.group(1).replace(",", ""))
        told = {part for part, of in parts if of == whole}
        if told and max(told) < whole and not re.search(
                rf"\ball (?:the |of the |of )?{whole}\b", lowered):
            return match.group(0)
    return None


def _figures_and_words(text: str) -> tuple[set[str], set[str]]:
    found = tokens(text)
    return ({figure_key(tok) for tok in found if is_figure(tok)},
            {word for word in key_tokens(text) if not is_figure(word)})


def pair_swap(text: str, cited: str) -> str | None:
    """Two figures of the item, told in two of its clauses, each with words the events give only
    to the other one ("the test seeded 3,840 notes, and the Pixel 7 held 500" against "on my
    Pixel 7 (3,840 notes) ..." and "500 notes seeded at v7"): each clause's words fit the other
    figure's sentences better than its own. A figure's words in the events are those of the
    sentences holding it; two figures that share a sentence are `role_conflict`'s."""
    held: dict[str, set[str]] = {}
    together: set[frozenset[str]] = set()
    for sentence in sentences(cited):
        keys, words = _figures_and_words(sentence)
        for key in keys:
            held.setdefault(key, set()).update(words)
        together |= {frozenset((a, b)) for a in keys for b in keys if a != b}
    parts = [_figures_and_words(clause) for sentence in sentences(text)
             for clause in split_clauses(sentence)]
    for i, (mine_x, words_x) in enumerate(parts):
        for mine_y, words_y in parts[i + 1:]:
            shared = words_x & words_y
            for x in mine_x - mine_y:
                for y in mine_y - mine_x:
                    if x not in held or y not in held or frozenset((x, y)) in together:
                        continue
                    own_x, own_y = words_x - shared, words_y - shared
                    # each clause's words fit the other figure's sentences better than its own
                    if (len(own_x & held[y]) > len(own_x & held[x])
                            and len(own_y & held[x]) > len(own_y & held[y])):
                        return f"{x} ↔ {y}"
    return None


_LABEL = re.compile(r"(?<=\w):\s+(?=[~≈≥≤<>]?\s?\d)")


def near_swap(text: str, cited: str) -> str | None:
    """Two figures of one item clause, each standing nearer to the words the events give the
    other one than to its own ("22 s per epoch under spawn and 95 s under forkserver" against
    "forkserver: 22 s" and "spawn: 95 s"). Only figures the events tell apart by their words,
    and only when the clause names both sides."""
    theirs = figure_contexts(_LABEL.sub(" ", cited))  # "- forkserver: 22 s": 22 is forkserver's
    for sentence in sentences(text):
        for clause in split_clauses(sentence):
            found = tokens(clause)
            stems = [set(key_tokens(tok)) if not is_figure(tok) else set() for tok in found]
            where = {figure_key(tok): i for i, tok in enumerate(found) if is_figure(tok)}
            # single digits are as often options, steps or parts of "6m 42s" as measures
            keys = [key for key in where if theirs.get(key) and len(key.strip("%")) > 1]
            for n, a in enumerate(keys):
                for b in keys[n + 1:]:
                    own_a, own_b = theirs[a] - theirs[b], theirs[b] - theirs[a]
                    spans = [_distance(where[a], own_a, stems), _distance(where[b], own_b, stems),
                             _distance(where[a], own_b, stems), _distance(where[b], own_a, stems)]
                    if None in spans:
                        continue
                    near_a, near_b, cross_a, cross_b = spans
                    if cross_a + cross_b < near_a + near_b:
                        return f"{a} ↔ {b}"
    return None


def _distance(at: int, words: set[str], stems: list[set[str]]) -> int | None:
    """How far (in tokens) the nearest of `words` stands from position `at`."""
    found = [abs(i - at) for i, held in enumerate(stems) if held & words]
    return min(found) if found else None
