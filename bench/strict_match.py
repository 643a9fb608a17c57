"""The strict matcher of the quality bench: does ONE memory state a labelled claim?

A claim (a planted fact, an acceptable statement, a trap) is a list of terms and figures, all of
which one memory must hold:
- a term is one or more alternatives separated by `|` ("token bucket|token-bucket"); spaces,
  hyphens and underscores in a term match one another; a term ending in a letter also matches
  with a common suffix (pass: passes, passed, passing; skip: skipped);
- a term carries the polarity the memory must give it: plain = affirmed, `!` = negated,
  `~` = hedged or asked (an open question stays open), `?` = any;
- a figure is a token of its own ("5%" is not in "0.5%", "2" not in "1.2.5"); the space between a
  number and its unit is optional ("380 MB" = "380MB"); figures carry no polarity;
- `either` lists other term lists that state the same claim ("not locally" or "on the CI runner");
- an outcome claim with a `result` refuses a memory whose `[success]`/`[failure]`/`[partial]`
  prefix (what the pipeline writes for an outcome's result) says another.

Polarity is read per clause (split at sentence ends, commas, dashes, brackets and but, so,
because, while, although, however, until, unless: "we can't deploy until SRE approves" negates
`deploy`, not `sre`). In its clause, a term is negated when a negation comes before it (not, n't,
never, no, no longer, instead of, rather than, without, avoid, "prefer ... over") or a rejection
after it (ruled out, was wrong, rejected, abandoned, reverted); else hedged when the clause
hedges (maybe, might, probably, suspect, looks like, whether, open question, ...) or asks (ends
with `?`); affirmed otherwise. So "use Redis instead of the in-memory limiter" affirms `redis`
and negates `in-memory`, "the pool is not the leak" negates `leak`, "maybe the tokenizer caused
it" affirms nothing.

Pure functions over strings; no threshold anywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

AFFIRMED, NEGATED, HEDGED = "affirmed", "negated", "hedged"
_MARKS = {"!": NEGATED, "~": HEDGED, "?": None}  # None: any polarity

_BREAK = re.compile(r"[.!?;](?=\s|$)|,\s|\s[-\u2013\u2014]+\s|\u2014|\n|[()\[\]]|\s(?=(?:but|so|"
                    r"because|while|whereas|although|though|however|until|unless)\b)")
_PRE = re.compile(r"\b(?:not|never|no|nor|neither|cannot|no longer|instead of|rather than|without|"
                  r"in place of|avoid(?:s|ed|ing)?)\b|n't\b")
_POST = re.compile(r"\b(?:ruled out|(?:was|were|is|are|turned out) wrong|rejected|abandoned|"
                   r"reverted|disproved|disproven)\b")
_HEDGE = re.compile(r"\b(?:maybe|might|perhaps|possibly|probably|likely|suspect(?:s|ed)?|"
                    r"guess(?:ed)?|hypothes[ie]s|hypothesi[sz]ed|could be|looks like|"
                    r"seems?|whether|questions?|undecided|unclear|unsettled|not settled|"
                    r"to be decided|tbd|let me check)\b")
_PREFER_OVER = re.compile(r"\bprefer\w*\b.*?\bover\b")
_RESULT = re.compile(r"^\s*\[(success|failure|partial)\]")
_ENDINGS = "s|es|ed|d|ing|ly"


@dataclass(frozen=True)
class Claim:
    """What one memory must state: every term (with its polarity) and every figure."""

    terms: tuple[str, ...]
    figures: tuple[str, ...] = ()
    result: str | None = None
    either: tuple[tuple[str, ...], ...] = ()  # other term lists that state the same claim

    @classmethod
    def of(cls, label: dict) -> Claim:
        return cls(tuple(label.get("terms", ())), tuple(label.get("figures", ())),
                   label.get("result"), tuple(tuple(terms) for terms in label.get("either", ())))


def normalise(text: str) -> str:
    return text.casefold().replace("\u2019", "'").replace("\u2018", "'")


def clauses(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, asks) of each clause of normalised `text`; `asks`: it ends with `?`."""
    spans, start = [], 0
    for match in _BREAK.finditer(text):
        spans.append((start, match.start(), match.group().startswith("?")))
        start = match.end()
    spans.append((start, len(text), False))
    return [(s, e, asks) for s, e, asks in spans if text[s:e].strip()]


def polarity(text: str, start: int, end: int) -> str:
    """The polarity normalised `text` gives the words at [start, end)."""
    for c_start, c_end, asks in clauses(text):  # noqa: B007 (`asks` is read after the loop)
        if c_start <= start < c_end or (start == end == c_end):
            clause = text[c_start:c_end]
            break
    else:
        return AFFIRMED
    at, until = start - c_start, end - c_start
    before, after = clause[:at], clause[until:]
    if _PRE.search(before) or _POST.search(after) or _PREFER_OVER.search(before):
        return NEGATED
    if asks or _HEDGE.search(clause):
        return HEDGED
    return AFFIRMED


@lru_cache(maxsize=4096)
def _term_pattern(alternative: str) -> re.Pattern:
    body = "".join(r"[\s_-]+" if char in " -_" else re.escape(char) for char in alternative)
    start = r"(?<![a-z0-9])" if alternative[:1].isalnum() else ""
    last = alternative[-1:]
    # a suffix, with the final consonant doubled before -ed/-ing (skip: skipped, pin: pinned)
    doubled = "" if last in "aeiouy" else f"{re.escape(last)}(?:ed|ing)|"
    suffix = f"(?:{doubled}{_ENDINGS})?"
    end = (suffix + r"(?![a-z0-9])" if last.isalpha()
           else r"(?![0-9]|[.,][0-9])" if last.isdigit() else "")
    return re.compile(start + body + end)


@lru_cache(maxsize=4096)
def _figure_pattern(figure: str) -> re.Pattern:
    figure = normalise(figure)
    parts = []
    for index, char in enumerate(figure):
        if char == " ":
            parts.append(r"\s?")
            continue
        if index and figure[index - 1].isdigit() and char.isalpha():
            parts.append(r"\s?")
        parts.append(re.escape(char))
    start = r"(?<![\w.])" if figure[:1].isalnum() else ""
    end = r"(?![\w]|[.,]\d)" if figure[-1:].isalnum() else ""
    return re.compile(start + "".join(parts) + end)


def split_term(term: str) -> tuple[list[str], str | None]:
    """A term's alternatives and the polarity it asks for (None: any)."""
    wanted = AFFIRMED
    if term[:1] in _MARKS:
        wanted, term = _MARKS[term[:1]], term[1:]
    return [alt.strip() for alt in normalise(term).split("|") if alt.strip()], wanted


def term_polarities(content: str, alternative: str) -> list[str]:
    """The polarity of each place `content` holds one alternative of a term."""
    text = normalise(content)
    return [polarity(text, m.start(), m.end())
            for m in _term_pattern(normalise(alternative)).finditer(text)]


def holds_term(content: str, term: str) -> bool:
    """`content` holds one of the term's alternatives with the polarity the term asks for."""
    alternatives, wanted = split_term(term)
    for alternative in alternatives:
        found = term_polarities(content, alternative)
        if found and (wanted is None or wanted in found):
            return True
    return False


def holds_figure(content: str, figure: str) -> bool:
    return _figure_pattern(figure).search(normalise(content)) is not None


def result_of(content: str) -> str | None:
    found = _RESULT.match(normalise(content))
    return found.group(1) if found else None


def states(content: str, claim: Claim | dict) -> bool:
    """ONE memory states the claim: all its terms with their polarity, all its figures, and no
    contrary outcome result."""
    if isinstance(claim, dict):
        claim = Claim.of(claim)
    if not claim.terms and not claim.figures:
        return False
    if claim.result is not None and result_of(content) not in (None, claim.result):
        return False
    if not all(holds_figure(content, figure) for figure in claim.figures):
        return False
    return any(all(holds_term(content, term) for term in terms)
               for terms in (claim.terms, *claim.either))


def violates(content: str, memory_type: str, trap: dict) -> bool:
    """The memory states the trap (terms + polarity), is of a type the trap concerns, and holds
    none of the trap's `unless` terms (words that say the trap's statement no longer holds)."""
    if trap.get("types") and memory_type not in trap["types"]:
        return False
    if not states(content, trap):
        return False
    return not any(holds_term(content, term) for term in trap.get("unless", ()))
