"""The field's secret rules as data: gitleaks' default rules (`synth/rules/gitleaks.toml`, MIT),
read once at import, each expression translated from RE2 to Python's `re`.

A rule runs only where one of its keywords occurs (case-folded, as gitleaks does: the masker
finds every keyword of every rule in one Hyperscan pass, `synth.prefilter`). A match is a secret
when its secret group (the rule's `secretGroup`, else the first group that matched, else the
whole match) passes the rule's entropy threshold (Shannon entropy above it, as gitleaks), a
generic rule's secret holds a digit, and no allowlist (the rule's, then the global one: regexes
on the secret, the match or the line; stop words in the secret) lets it go. File-path
allowlists have no meaning for a trail's events and are not read.

Translation, RE2 to Python: an inline flag group after the start (`p8e-(?i)[a-z0-9]{32}`)
becomes a scoped group over the rest of its enclosing group, branch by branch; `\\z` becomes
`\\Z`; a POSIX class (`[[:alnum:]]`) its ASCII set. Everything compiles with `re.ASCII`: RE2's
`\\w`, `\\d`, `\\s` and `\\b` are ASCII.
"""

from __future__ import annotations

import functools
import math
import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from importlib import resources

from synth.prefilter import AnyMatch, LiteralSet

RULES_FILE = "gitleaks.toml"
_POSIX = {"alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "digit": "0-9", "lower": "a-z",
          "upper": "A-Z", "space": r"\t\n\v\f\r ", "xdigit": "0-9A-Fa-f", "word": r"\w",
          "punct": r"!-/:-@\[-`{-~"}
_FLAG_GROUP = re.compile(r"\(\?([a-zA-Z]*(?:-[a-zA-Z]+)?)\)")


def _structure(text: str, start: int = 0):
    """(index, char) of every `(`, `)` and `|` of `text` from `start` that is neither escaped
    nor inside a character class."""
    index, in_class = start, False
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            if text[index + 1:index + 2] == "^":
                index += 1
            if text[index + 1:index + 2] == "]":
                index += 1
        elif char in "()|":
            yield index, char
        index += 1


def _group_end(pattern: str, start: int) -> int:
    """The index of the `)` closing the group that holds `start` (len(pattern): none)."""
    depth = 0
    for index, char in _structure(pattern, start):
        if char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                return index
            depth -= 1
    return len(pattern)


def _branches(text: str) -> list[str]:
    """`text` split at its top-level `|`."""
    parts, depth, begin = [], 0, 0
    for index, char in _structure(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif depth == 0:
            parts.append(text[begin:index])
            begin = index + 1
    return parts + [text[begin:]]


def translate(pattern: str) -> str:
    """An RE2 expression as Python `re` reads it with the same meaning (see the module)."""
    pattern = re.sub(r"\[\[:(\w+):\]\]", lambda m: f"[{_POSIX[m.group(1)]}]", pattern)
    pattern = re.sub(r"\[:(\w+):\]", lambda m: _POSIX[m.group(1)], pattern)
    pattern = re.sub(r"(?<!\\)((?:\\\\)*)\\z", r"\1\\Z", pattern)
    while True:
        flags = [m for m in _FLAG_GROUP.finditer(pattern) if m.start() > 0 and not _escaped(pattern, m.start())]
        if not flags:
            return pattern
        found = flags[0]
        end = _group_end(pattern, found.end())
        rest = _branches(pattern[found.end():end])
        scoped = "|".join(f"(?{found.group(1)}:{branch})" for branch in rest)
        pattern = pattern[:found.start()] + scoped + pattern[end:]


def _escaped(pattern: str, index: int) -> bool:
    slashes = len(pattern[:index]) - len(pattern[:index].rstrip("\\"))
    return slashes % 2 == 1


def entropy(text: str) -> float:
    size = len(text)
    return -sum(n / size * math.log2(n / size) for n in Counter(text).values()) if size else 0.0


@dataclass(frozen=True)
class Allowlist:
    regex: re.Pattern[str] | None = None  # the allowlist's regexes as one alternation
    target: str = "secret"  # what the regex tests: "secret", "match" or "line"
    stopwords: tuple[str, ...] = ()
    all_of: bool = False  # condition AND: every criterion given must hold

    @functools.cached_property
    def _words(self) -> LiteralSet:
        return LiteralSet(self.stopwords)

    @functools.cached_property
    def _regex(self) -> AnyMatch:
        return AnyMatch(self.regex)

    def allows(self, secret: str, match: str, line: str) -> bool:
        if self.regex is None and not self.stopwords:
            return False
        if self.regex is not None:
            subject = match if self.target == "match" else line if self.target == "line" else secret
            if self._regex.search(subject):
                if not self.all_of or not self.stopwords:
                    return True
            elif self.all_of:
                return False
        return bool(self.stopwords) and self._words.found_in(secret.lower())


@dataclass(frozen=True, slots=True)
class GitleaksRule:
    id: str
    pattern: re.Pattern[str]
    keywords: tuple[str, ...]  # lower case; empty: the rule always runs
    entropy: float = 0.0
    secret_group: int = 0
    allowlists: tuple[Allowlist, ...] = ()
    # The expression less a lazy lead (`[\w.-]{0,50}?` before the key name, 96 rules): Python
    # tries that lead at every position, so the rule searches without it and puts the lead's
    # characters back in front of each match (what an allowlist on the match sees).
    search: re.Pattern[str] | None = None
    # Every match starts with a keyword and so does its secret: where each keyword occurrence
    # lies inside a span masked already, with room for the longest match before its end, the
    # rule's finding could only be a shorter span inside it, which the overlap resolution drops
    # (a tie goes to ours); the rule need not run (`gitleaks_select.findings`).
    headed: bool = False
    longest: int = 0  # the longest match the expression allows (0: unbounded)

    def _matches(self, text: str, lowered: str):
        """The rule's matches, left to right, not overlapping (`finditer`). A rule without its
        lazy lead starts with its key name, a keyword: it is tried only where one occurs."""
        if self.search is None:
            yield from self.pattern.finditer(text)
            return
        starts = set()
        for keyword in self.keywords:
            at = lowered.find(keyword)
            while at >= 0:
                starts.add(at)
                at = lowered.find(keyword, at + 1)
        end = 0
        for at in sorted(starts):
            if at >= end and (match := self.search.match(text, at)) is not None:
                end = match.end() if match.end() > at else at + 1
                yield match

    def secrets(self, text: str, global_allow: Allowlist, lowered: str | None = None,
                covered=None) -> list[tuple[int, int]]:
        """Spans of `text` that this rule calls secrets (see the module for the gates);
        `lowered`: `text.lower()`, where the caller has it; `covered(start, end)`: whether a
        span is masked already, so its gates need not run (it is left out)."""
        spans, previous_end = [], 0
        for match in self._matches(text, text.lower() if lowered is None else lowered):
            begin = match.start()
            if self.search is not None:
                begin = _lead_start(text, begin, max(previous_end, begin - LEAD_CHARS))
            previous_end = match.end()
            regs = match.regs  # (start, end) of the match, then of each group (-1: unmatched)
            if self.secret_group:
                start, end = regs[self.secret_group] if regs[self.secret_group][0] >= 0 else regs[0]
            else:
                start, end = next((span for span in regs[1:] if span[1] > span[0]), regs[0])
            secret = text[start:end]
            if not secret or (covered is not None and covered(start, end)):
                continue
            if self.entropy and entropy(secret) <= self.entropy:
                continue
            if self.id.startswith("generic") and not any(c.isdigit() for c in secret):
                continue
            line = text[text.rfind("\n", 0, begin) + 1:_line_end(text, match.end())]
            whole = text[begin:match.end()]
            if any(allow.allows(secret, whole, line) for allow in self.allowlists):
                continue
            if global_allow.allows(secret, whole, line):
                continue
            spans.append((start, end))
        return spans


LAZY_LEAD = r"(?i)[\w.-]{0,50}?"
LEAD_CHARS = 50
_LEAD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")


def _lead_start(text: str, start: int, floor: int) -> int:
    while start > floor and text[start - 1] in _LEAD:
        start -= 1
    return start


def _line_end(text: str, index: int) -> int:
    end = text.find("\n", index)
    return len(text) if end < 0 else end


def _prefixes(items, limit: int = 256) -> tuple[set[str], bool] | None:
    """The literal strings `items` (parsed) can begin with, and whether they are the whole of
    it; None where they are too many or not literal from the first item."""
    from re import _constants as C

    found, complete = {""}, True
    for op, arg in items:
        if op is C.AT and found == {""}:  # `\b`, `^` before the first character: zero-width
            continue
        if op is C.LITERAL:
            options = {chr(arg)}
        elif op is C.IN and all(kind is C.LITERAL for kind, _ in arg):
            options = {chr(value) for _, value in arg}
        elif op in (C.BRANCH, C.SUBPATTERN):
            branches = arg[1] if op is C.BRANCH else [arg[3]]
            options, whole = set(), True
            for branch in branches:
                inner = _prefixes(branch, limit)
                if inner is None:
                    return (found, False) if found != {""} else None
                options |= inner[0]
                whole &= inner[1]
            if not whole:
                return {a + b for a in found for b in options}, False
        elif op is C.MAX_REPEAT and arg[0] == 0 and arg[1] == 1:
            inner = _prefixes(arg[2], limit)
            if inner is None or not inner[1]:
                return found, False
            options = inner[0] | {""}
        else:
            return (found, False) if found != {""} else None
        found = {a + b for a in found for b in options}
        if len(found) > limit:
            return None
    return found, complete


def _starts_with_keyword(pattern: str, keywords: tuple[str, ...]) -> bool:
    """Whether every match of `pattern` begins with one of `keywords` (case-folded): then the
    rule need only be tried where a keyword occurs."""
    from re import _parser

    prefixes = _prefixes(list(_parser.parse(pattern, re.ASCII)))
    return bool(prefixes and keywords) and all(
        any(prefix.lower().startswith(keyword) for keyword in keywords) for prefix in prefixes[0])


def _longest(pattern: re.Pattern[str]) -> int:
    from re import _constants as C, _parser

    width = _parser.parse(pattern.pattern, pattern.flags).getwidth()[1]
    return 0 if width >= C.MAXREPEAT else width


def _headed(pattern: re.Pattern[str], keywords: tuple[str, ...], secret_group: int) -> bool:
    body = pattern.pattern.removeprefix("(?i)").removeprefix("\\b")
    secret_first = pattern.groups == 0 or (secret_group in (0, 1) and body.startswith("(")
                                           and not body.startswith("(?"))
    return secret_first and _starts_with_keyword(pattern.pattern, keywords)


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(translate(pattern), re.ASCII)


def _allowlist(table: dict) -> Allowlist:
    regexes = table.get("regexes", ())
    return Allowlist(_compile("|".join(f"(?:{p})" for p in regexes)) if regexes else None,
                     table.get("regexTarget", "secret"),
                     tuple(word.lower() for word in table.get("stopwords", ())),
                     table.get("condition", "OR").upper() == "AND")


def parse_rules(text: str) -> tuple[tuple[GitleaksRule, ...], Allowlist, tuple[str, ...]]:
    """(rules with an expression, the global allowlist, ids of the rules without one)."""
    config = tomllib.loads(text)
    rules, skipped = [], []
    for table in config["rules"]:
        if "regex" not in table:  # a file-name rule (`pkcs12-file`): nothing in a trail's text
            skipped.append(table["id"])
            continue
        pattern = _compile(table["regex"])
        keywords = tuple(keyword.lower() for keyword in table.get("keywords", ()))
        lead = pattern.pattern.startswith(LAZY_LEAD) and _starts_with_keyword(
            pattern.pattern[len(LAZY_LEAD):], keywords)
        rules.append(GitleaksRule(
            table["id"], pattern, keywords,
            float(table.get("entropy", 0.0)), int(table.get("secretGroup", 0)),
            tuple(_allowlist(allow) for allow in table.get("allowlists", ())),
            re.compile("(?i)" + pattern.pattern[len(LAZY_LEAD):], re.ASCII) if lead else None,
            _headed(pattern, keywords, int(table.get("secretGroup", 0))), _longest(pattern)))
    return tuple(rules), _allowlist(config.get("allowlist", {})), tuple(skipped)


def load_rules() -> tuple[tuple[GitleaksRule, ...], Allowlist, tuple[str, ...]]:
    return parse_rules(resources.files("synth.rules").joinpath(RULES_FILE).read_text())


RULES, GLOBAL_ALLOW, WITHOUT_EXPRESSION = load_rules()
