"""The checks that gate the masker's rules: checksums, entropy and shape.

Luhn for cards, ISO 13616 mod-97 for IBANs, the DNI control letter, Shannon entropy for generic
secret assignments (so `password=changeme` stays), and the card span inside a greedy match.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable


def luhn_ok(digits: str) -> bool:
    if len(digits) < 13:
        return False
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def iban_ok(text: str) -> bool:
    compact = text.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    rearranged = compact[4:] + compact[:4]
    numeric = "".join(str(int(char, 36)) for char in rearranged)
    return int(numeric) % 97 == 1


_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def dni_ok(text: str) -> bool:
    return _DNI_LETTERS[int(text[:8]) % 23] == text[8].upper()


def entropy(text: str) -> float:
    counts = Counter(text)
    size = len(text)
    return -sum(n / size * math.log2(n / size) for n in counts.values())


def _high_entropy(value: str) -> bool:
    return len(value) >= 16 and entropy(value) >= 3.0


def _mixed_classes(value: str) -> bool:
    """A password-like token: at least 8 characters of at least three classes (lower, upper,
    digit, other), so `password is required` and `${DB_PASSWORD}` stay."""
    classes = (any(c.islower() for c in value) + any(c.isupper() for c in value)
               + any(c.isdigit() for c in value) + any(not c.isalnum() for c in value))
    return len(value) >= 8 and classes >= 3


def card_span(text: str) -> tuple[int, int] | None:
    """The longest prefix of a card-shaped match that is 13-19 digits and passes Luhn: the
    greedy pattern may have swallowed a neighbouring number ("4111 1111 1111 1111 0")."""
    ends = [i + 1 for i, char in enumerate(text) if char.isdigit()]
    for count in range(min(19, len(ends)), 12, -1):
        end = ends[count - 1]
        if end < len(text) and text[end] not in " -":
            continue  # only whole digit groups: a prefix of one number is no card
        if luhn_ok("".join(char for char in text[:end] if char.isdigit())):
            return 0, end
    return None


def _digits_at_least(count: int) -> Callable[[str], bool]:
    return lambda text: sum(char.isdigit() for char in text) >= count
