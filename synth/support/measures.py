"""Quantities in other units: an item may write "15 minutes" where its event wrote `900s`,
"1.5 GB" for "1,536 MB" or "400 s" for "6 min 40 s". A figure of the item that its events do not
hold as written is held when the quantity it measures (a figure with a unit of time or size) is one
a cited event names in another unit, equal within the rounding the item's figure shows.
"""

from __future__ import annotations

import re

_TIME = {"ms": 0.001, "msec": 0.001, "millisecond": 0.001, "milliseconds": 0.001,
         "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
         "min": 60, "mins": 60, "minute": 60, "minutes": 60,
         "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
         "day": 86400, "days": 86400, "week": 604800, "weeks": 604800}
_SIZE = {"b": 1, "byte": 1, "bytes": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
         "kib": 2 ** 10, "mib": 2 ** 20, "gib": 2 ** 30, "tib": 2 ** 40,
         "ki": 2 ** 10, "mi": 2 ** 20, "gi": 2 ** 30, "ti": 2 ** 40}  # Kubernetes writes 2Gi
_COUNT = {"k": 1e3, "thousand": 1e3, "million": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9}
_DIMENSIONS = (("time", _TIME), ("size", _SIZE), ("count", _COUNT))
_UNIT = "|".join(sorted({*_TIME, *_SIZE, *_COUNT}, key=len, reverse=True))
_MILLIONS = re.compile(r"(\d)\s?M\b")  # "25.4M rows": a capital M counts millions
_NUMBER = r"\d[\d,]*(?:\.\d+)?"
# "6 min 40 s", "2m13s", "1h 5m": a quantity told in two units
_COMPOUND = re.compile(rf"(?<![\w.])({_NUMBER})\s?(h|hr|hrs|hours?|m|min|mins|minutes?)\s?"
                       rf"({_NUMBER})\s?(m|min|mins|minutes?|s|sec|secs|seconds?)(?![\w])")
_SIMPLE = re.compile(rf"(?<![\w.])({_NUMBER})(?:\s?|-)({_UNIT})(?![\w])")
RELATIVE_SLACK = 0.025  # sizes: a KB is no KiB, writers mix them up


def unit_of(word: str) -> tuple[str, float] | None:
    word = word.casefold()
    if word == "m":  # minutes only inside a compound ("2m13s"); alone it may be metres or millions
        return "time", 60
    for dimension, table in _DIMENSIONS:
        if word in table:
            return dimension, table[word]
    return None


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def quantities(text: str, rounding: bool = False) -> list[tuple]:
    """Every (dimension, amount in base units) the text names, compound ones once as a sum;
    with `rounding`, each with the half-step its last digit stands for ("18.4k": 50)."""
    text = text.casefold()
    found = []
    covered: list[tuple[int, int]] = []
    for match in _COMPOUND.finditer(text):
        big, small = unit_of(match.group(2)), unit_of(match.group(4))
        if big and small and big[0] == small[0] == "time" and big[1] > small[1]:
            found.append(("time", _number(match.group(1)) * big[1]
                          + _number(match.group(3)) * small[1], _half_step(match.group(3)) * small[1]))
            covered.append(match.span())
    for match in _SIMPLE.finditer(text):
        if any(start <= match.start() < end for start, end in covered):
            continue
        unit = unit_of(match.group(2))
        if unit:
            found.append((unit[0], _number(match.group(1)) * unit[1],
                          _half_step(match.group(1)) * unit[1]))
    return found if rounding else [(dimension, amount) for dimension, amount, _ in found]


def _half_step(number: str) -> float:
    """Half the step of the number's last digit: 0.05 for "18.4", 0.5 for "18"."""
    return 0.5 * 10 ** -(len(number.split(".")[1]) if "." in number else 0)


def held_in_other_units(value: str, text: str, cited: str) -> bool:
    """The item's figure `value`, with the unit it stands with in `text`, names a quantity
    `cited` holds in another unit (15 minutes for 900s)."""
    text, cited = (_MILLIONS.sub(r"\1 million", part).casefold() for part in (text, cited))
    wanted = [(dimension, amount, factor)
              for match in _SIMPLE.finditer(text) if match.group(1) == value
              for dimension, factor in [unit_of(match.group(2)) or ("", 0.0)] if dimension
              for amount in [_number(value) * factor]]
    joined = re.fullmatch(rf"({_NUMBER})({_UNIT})", value.casefold())  # "9k", "31.5k", "2gi"
    if not wanted and joined and unit_of(joined.group(2)):
        dimension, factor = unit_of(joined.group(2))
        value = joined.group(1)
        wanted = [(dimension, _number(value) * factor, factor)]
    if not wanted and re.fullmatch(r"\d[\d,]*(?:\.\d+)?", value):
        wanted = [("count", _number(value), 1.0)]  # "18,400" for "18.4k"
    if not wanted:
        return False
    decimals = len(value.split(".")[1]) if "." in value else 0
    held = quantities(cited, rounding=True)
    if any(dimension == "count" for dimension, _, _ in wanted):  # "9k" for a bare "9,200"
        held += [("count", _number(m.group(0)), _half_step(m.group(0)))
                 for m in re.finditer(rf"(?<![\w.,]){_NUMBER}(?!\w|[.,]\d)", cited)]
    for dimension, amount, factor in wanted:
        rounding = 0.5 * 10 ** -decimals * factor  # "1.5 GB" stands for 1.45-1.55 GB
        for their_dimension, theirs, their_rounding in held:
            slack = RELATIVE_SLACK * amount if dimension == "size" else 0.0
            if their_dimension == dimension and abs(theirs - amount) <= max(
                    rounding, their_rounding, slack):
                return True
    return False


def quantity_of(text: str) -> tuple[str, float] | None:
    """The one quantity a short text names ("2 min 10 s", "38 s", "81%", "1,204"): (its
    dimension, "%" for a share, "" for a bare count; its amount in base units)."""
    text = text.casefold().strip()
    found = quantities(text)
    if len(found) == 1:
        return found[0]
    bare = re.fullmatch(rf"({_NUMBER})\s?(%?)", text)
    if bare:
        return ("%" if bare.group(2) else ""), _number(bare.group(1))
    return None


_DECADE = re.compile(r"\b(low|mid|high|early|late|upper|lower)[- ](\d0)s\b")
_PART = {"low": (0, 4), "early": (0, 4), "lower": (0, 4), "mid": (3, 7), "high": (6, 9),
         "late": (6, 9), "upper": (6, 9)}


def held_as_range(value: str, text: str, cited: str) -> bool:
    """"down to the mid-30s" names a figure between 33 and 37: held when `cited` holds one
    (bare, not a time: "30s" here is no 30 seconds)."""
    for match in _DECADE.finditer(text.casefold()):
        if f"{match.group(2)}s" != value:
            continue
        low, high = _PART[match.group(1)]
        base = int(match.group(2))
        for found in re.finditer(r"(?<![\w.,])\d+(?![\w.,]\d|\s?%)", cited):
            if base + low <= int(found.group(0)) <= base + high:
                return True
    return False
