"""Which of gitleaks' rules to run on a text, and their findings as the masker's.

gitleaks runs a rule only where one of its keywords occurs (case-folded); so does the masker,
finding every keyword in the same Hyperscan pass as its own rules (`FILTER_PATTERNS` follow
them in `synth.masking`'s automaton). A rule with a keyword that ordinary text is full of also
needs its expression to pass the automaton (prefilter mode: a superset of its matches) before
Python runs it: generic-api-key's keywords (`key`, `token`, `password`...) and keywords of
three characters or fewer (`s.`, `sk`, `ey`); so does a rule Python cannot start at its
keywords (a lazy lead before a name that is not its keyword, `curl ... .*?`): on a 3 KB line
with `cohere` in it, Python spent 20 ms on one such expression. Without Hyperscan, keywords are found by
substring tests: same findings, slower.
"""

from __future__ import annotations

import re
import string

from synth.gitleaks import GLOBAL_ALLOW, RULES

# Each keyword (lower case) with the indexes of the rules it lets run.
KEYWORDS: dict[str, tuple[int, ...]] = {}
for _index, _rule in enumerate(RULES):
    for _keyword in _rule.keywords:
        KEYWORDS[_keyword] = (*KEYWORDS.get(_keyword, ()), _index)
KEYWORD_LIST = tuple(KEYWORDS)
_EVERYDAY = frozenset(next(rule for rule in RULES if rule.id == "generic-api-key").keywords)
GATED = tuple(index for index, rule in enumerate(RULES)
              if any(len(keyword) <= 3 or keyword in _EVERYDAY for keyword in rule.keywords)
              or (not rule.headed and rule.search is None))
# The automaton's patterns, in order: every keyword as a caseless literal, then the gated
# rules' expressions. A hit's id is its position here.
FILTER_PATTERNS = tuple(["(?i)" + re.escape(keyword) for keyword in KEYWORD_LIST]
                        + [(RULES[index].search or RULES[index].pattern).pattern
                           for index in GATED])
_GATE_OF = {index: len(KEYWORD_LIST) + position for position, index in enumerate(GATED)}


def prepare() -> None:
    """Compile every allowlist's automata now (they are built at first use), so that the first
    texts masked do not pay for it."""
    for allow in (GLOBAL_ALLOW, *(allow for rule in RULES for allow in rule.allowlists)):
        if allow.regex is not None:
            allow._regex  # noqa: B018 - the cached property compiles
        if allow.stopwords:
            allow._words  # noqa: B018


def category(rule_id: str) -> str:
    """The masker's token for a rule's secret: «SECRET» for passwords, private keys and
    secrets, «API_KEY» for the rest."""
    if any(word in rule_id for word in ("password", "private-key", "secret")):
        return "secret"
    return "api_key"


CATEGORY = tuple(category(rule.id) for rule in RULES)


def selected(text: str, hits: frozenset[int] | None, offset: int = 0) -> list[int]:
    """Indexes of the rules to run on `text`: from the automaton's hits (FILTER_PATTERNS'
    positions plus `offset`, where they follow other patterns), or, with None, by substring
    tests for the keywords (no gate)."""
    if hits is None:
        lowered = text.lower()
        return sorted({index for keyword in KEYWORD_LIST if keyword in lowered
                       for index in KEYWORDS[keyword]})
    found = [index for hit in hits if offset <= hit < offset + len(KEYWORD_LIST)
             for index in KEYWORDS[KEYWORD_LIST[hit - offset]]]
    if not found:
        return found
    return sorted({index for index in found
                   if index not in _GATE_OF or _GATE_OF[index] + offset in hits})


def findings(text: str, hits: frozenset[int] | None, offset: int = 0,
             masked: list[tuple[int, int]] = ()) -> list[tuple[str, int, int]]:
    """(category, start, end) of every secret the selected rules find in `text`, less those
    inside a span of `masked` (found by another rule already: the overlap would drop them)."""
    found = []
    selected_rules = selected(text, hits, offset)
    if not selected_rules:
        return found
    lowered = text.lower()

    def covered(start: int, end: int) -> bool:
        end = glued_end(text, end)
        return any(low <= start and end <= high for low, high in masked)

    for index in selected_rules:
        rule = RULES[index]
        if masked and rule.headed and rule.longest and _inside(text, lowered, rule, masked):
            continue
        for start, end in rule.secrets(text, GLOBAL_ALLOW, lowered, covered if masked else None):
            found.append((CATEGORY[index], start, glued_end(text, end)))
    return found


def _inside(text: str, lowered: str, rule, masked: list[tuple[int, int]]) -> bool:
    """Whether every occurrence of the rule's keywords lies inside a span of `masked` with room
    for the rule's longest match (and its glued tail) before that span's end."""
    for keyword in rule.keywords:
        at = lowered.find(keyword)
        while at >= 0:
            if not any(low <= at and at + rule.longest <= high and glued_end(text, high) == high
                       for low, high in masked):
                return False
            at = lowered.find(keyword, at + 1)
    return True


_ALNUM = frozenset(string.ascii_letters + string.digits)


def glued_end(text: str, end: int) -> int:
    """A secret's end past the letters and digits glued to it: an expression of fixed length
    (`dp\\.pt\\.[a-z0-9]{43}`) stops inside a longer token, whose tail is the secret too."""
    while end < len(text) and text[end] in _ALNUM and text[end - 1] in _ALNUM:
        end += 1
    return end


