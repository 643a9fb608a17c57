"""Sample secrets from the gitleaks rules themselves, seeded, in the forms secrets take in trails.

`sample(pattern, rng)` walks the parsed expression (Python's own `re` parser) and writes one
string it can match: a literal as it is, a class's member, a repeat a random count within its
bounds (unbounded ones at most 12 past the minimum), a branch at random; lookarounds and anchors
are left to the check after. `rule_samples(rule, rng)` keeps a sample only when the rule itself
finds a secret in it (its expression, entropy, digit and allowlist gates), then puts that whole
match in each trail form (`KEY=…`, `"key": "…"`, `export …`, a header, a URL, prose, a variable
named after the vendor) where the rule still finds the same secret with one of its keywords
present: what gitleaks would report. Used by
tests/synth/test_gitleaks_coverage.py and bench/masking.py.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

try:
    from re import _constants as C, _parser as P  # Python 3.11+
except ImportError:  # pragma: no cover
    import sre_constants as C  # type: ignore[no-redef]
    import sre_parse as P  # type: ignore[no-redef]

from synth.gitleaks import GLOBAL_ALLOW, GitleaksRule

PRINTABLE = [c for c in string.printable if c not in "\t\n\r\x0b\x0c"]
_CATEGORY = {
    C.CATEGORY_DIGIT: string.digits, C.CATEGORY_WORD: string.ascii_letters + string.digits + "_",
    C.CATEGORY_SPACE: " ", C.CATEGORY_NOT_DIGIT: string.ascii_letters,
    C.CATEGORY_NOT_WORD: " -.", C.CATEGORY_NOT_SPACE: string.ascii_letters + string.digits,
}
# The forms a secret takes in a trail: `{m}` is the rule's whole match.
FORMS = (
    "{m}",
    "KEY={m}",
    'config = {{"key": "{m}"}}',
    "export {m}",
    "Authorization: {m}",
    "curl https://api.example.com/v1?k={m}",
    "the value is {m} for staging",
    # A variable named after the vendor: the keyword gitleaks needs, where the token lacks it.
    "{K}_TOKEN={m}",
    "the {k} token is {m}",
)


def _members(items, rng) -> list[str]:
    chars: list[str] = []
    negate = False
    for op, arg in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            chars.append(chr(arg))
        elif op is C.RANGE:
            low, high = arg
            chars.extend(chr(c) for c in range(low, min(high, 126) + 1) if 32 <= c or low < 32)
        elif op is C.CATEGORY:
            chars.extend(_CATEGORY.get(arg, ""))
    if negate:
        banned = set(chars)
        return [c for c in PRINTABLE if c not in banned] or ["~"]
    return [c for c in chars if c not in "\n\r"] or chars or ["x"]


def _write(parsed, rng, groups: dict[int, str]) -> str:
    out: list[str] = []
    for op, arg in parsed:
        if op is C.LITERAL:
            out.append(chr(arg))
        elif op is C.NOT_LITERAL:
            out.append(rng.choice([c for c in PRINTABLE if ord(c) != arg]))
        elif op is C.ANY:
            out.append(rng.choice(string.ascii_letters + string.digits + "  "))
        elif op is C.IN:
            out.append(rng.choice(_members(arg, rng)))
        elif op is C.BRANCH:
            out.append(_write(rng.choice(arg[1]), rng, groups))
        elif op is C.SUBPATTERN:
            group, _, _, inner = arg
            text = _write(inner, rng, groups)
            if group:
                groups[group] = text
            out.append(text)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", None)):
            low, high, inner = arg
            top = low + 12 if high is C.MAXREPEAT else high
            out.extend(_write(inner, rng, groups) for _ in range(rng.randint(low, max(low, top))))
        elif op is C.GROUPREF:
            out.append(groups.get(arg, ""))
        elif op is C.ATOMIC_GROUP if hasattr(C, "ATOMIC_GROUP") else False:
            out.append(_write(arg, rng, groups))
        # AT (anchors, \b), ASSERT, ASSERT_NOT: the check after decides.
    return "".join(out)


def sample(pattern: re.Pattern[str], rng: random.Random) -> str:
    return _write(P.parse(pattern.pattern, pattern.flags), rng, {})


@dataclass(frozen=True)
class Sample:
    rule: str
    line: str  # a trail line holding the secret
    secret: str  # what must not survive masking
    form: str


def _secret_in(rule: GitleaksRule, text: str) -> str | None:
    """The secret gitleaks would report in `text`: a keyword must occur, as there."""
    if rule.keywords and not any(keyword in text.lower() for keyword in rule.keywords):
        return None
    spans = rule.secrets(text, GLOBAL_ALLOW)
    return text[spans[0][0]:spans[0][1]] if spans else None


def rule_samples(rule: GitleaksRule, rng: random.Random, tries: int = 400) -> list[Sample]:
    """Trail lines (one per form where the rule still holds) with a secret the rule reports;
    [] when no sample in `tries` passes the rule's own gates."""
    for _ in range(tries):
        text = sample(rule.pattern, rng)
        match = rule.pattern.search(text)
        if match is None:
            continue
        whole = match.group(0).strip()
        spans = rule.secrets(whole, GLOBAL_ALLOW)
        if not spans or spans[0][1] - spans[0][0] < 4:
            continue
        secret = whole[spans[0][0]:spans[0][1]]
        found = []
        keyword = rule.keywords[0] if rule.keywords else "api"
        named = not any(word in whole.lower() for word in rule.keywords)
        for form in FORMS:
            if ("{k}" in form or "{K}" in form) and not named:
                continue  # the match names its vendor already: no variable around it
            line = form.format(m=whole, k=keyword, K=keyword.upper())
            if _secret_in(rule, line) == secret:
                found.append(Sample(rule.id, line, secret, form))
        if found:
            return found
    return []
