"""Which masking rules can match a text, found in one pass with Hyperscan.

Running forty Python regexes over every event is what makes masking slow; most of them cannot
match most events. Hyperscan compiles every rule's pattern in prefilter mode (lookarounds and
backreferences widened, so it reports a superset: a rule it does not report cannot match) into
one automaton, scans the text's UTF-8 bytes once, and names the rules worth running. The rules'
Python patterns are ASCII-mode (`re.ASCII`), so a byte-level scan with ASCII classes sees every
match Python can find: a non-ASCII byte is no digit, word or space character in either.

Where the `hyperscan` wheel is missing (Linux on ARM), `candidates` returns None and the masker
falls back to its literal anchors: same findings, slower.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence

try:
    import hyperscan
except ImportError:  # pragma: no cover - exercised where no wheel exists
    hyperscan = None

_NAMED_GROUP = re.compile(r"\(\?P<\w+>")


def hyperscan_pattern(pattern: str) -> bytes:
    """A Python pattern in the dialect Hyperscan reads: named groups become plain groups."""
    return _NAMED_GROUP.sub("(?:", pattern).encode()


class RuleFilter:
    """One compiled automaton for a fixed list of patterns (compiles in about 0.1 s)."""

    def __init__(self, patterns: Sequence[str]):
        self.available = hyperscan is not None
        self._lock = threading.Lock()
        self._hits: set[int] = set()
        if not self.available:
            return
        flags = (hyperscan.HS_FLAG_PREFILTER | hyperscan.HS_FLAG_SINGLEMATCH
                 | hyperscan.HS_FLAG_ALLOWEMPTY)
        self._database = hyperscan.Database()
        self._database.compile(
            expressions=[hyperscan_pattern(p) for p in patterns],
            ids=list(range(len(patterns))),
            elements=len(patterns),
            flags=[flags] * len(patterns),
        )

    def _on_match(self, rule: int, start: int, end: int, flags: int, context) -> None:
        self._hits.add(rule)

    def candidates(self, text: str) -> frozenset[int] | None:
        """Indexes of the patterns that may match `text`; None when Hyperscan is unavailable."""
        if not self.available:
            return None
        with self._lock:  # one scratch space per database: scans take turns
            self._hits = set()
            self._database.scan(text.encode("utf-8", "surrogatepass"),
                                match_event_handler=self._on_match)
            return frozenset(self._hits)


class LiteralSet:
    """Whether any of many literal words occurs in a text (a gitleaks allowlist's 1,446 stop
    words in a secret): one Hyperscan pass that stops at the first word; without Hyperscan,
    the text's substrings of the words' lengths looked up in a set."""

    def __init__(self, words: Sequence[str]):
        self.words = frozenset(words)
        self._lengths = tuple(sorted({len(word) for word in self.words}))
        self._lock = threading.Lock()
        self._database = None
        if hyperscan is not None and self.words:
            self._database = hyperscan.Database()
            ordered = sorted(self.words)
            self._database.compile(
                expressions=[re.escape(word).encode() for word in ordered],
                ids=list(range(len(ordered))), elements=len(ordered),
                flags=[hyperscan.HS_FLAG_SINGLEMATCH] * len(ordered))

    def found_in(self, text: str) -> bool:
        if self._database is None:
            return any(text[i:i + size] in self.words
                       for size in self._lengths for i in range(len(text) - size + 1))
        found = []
        with self._lock:
            try:
                self._database.scan(text.encode("utf-8", "surrogatepass"),
                                    match_event_handler=lambda *hit: found.append(1) or True)
            except hyperscan.ScanTerminated:  # the handler stopped it at the first word
                pass
        return bool(found)


class AnyMatch:
    """Whether a Python pattern matches anywhere in a text, answered by Hyperscan's exact mode
    where it compiles the pattern (gitleaks' allowlist alternations: Python tries each of their
    hundred branches at every position), else by the pattern itself. Same answer either way:
    ASCII classes, `.` without newlines, `$` before a final newline, in both."""

    def __init__(self, pattern: re.Pattern[str]):
        self.pattern = pattern
        self._lock = threading.Lock()
        self._database = None
        if hyperscan is None:
            return
        database = hyperscan.Database()
        try:
            database.compile(expressions=[hyperscan_pattern(pattern.pattern)], ids=[0],
                             elements=1,
                             flags=[hyperscan.HS_FLAG_SINGLEMATCH | hyperscan.HS_FLAG_ALLOWEMPTY])
        except hyperscan.error:  # a construct it lacks (a backreference, a lookaround)
            return
        self._database = database

    def search(self, text: str) -> bool:
        if self._database is None:
            return self.pattern.search(text) is not None
        found = []
        with self._lock:
            try:
                self._database.scan(text.encode("utf-8", "surrogatepass"),
                                    match_event_handler=lambda *hit: found.append(1) or True)
            except hyperscan.ScanTerminated:
                pass
        return bool(found)
