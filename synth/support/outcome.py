"""Outcome claims: an item that says something worked needs a sentence that tells it worked.

"Raising the timeout stopped the 502s" shares its words with "Raised proxy_read_timeout to 60s"
(no outcome) and with "raising the timeout did not reduce the 502s" (a failure): no sentence
restates the success, so the item is a failed attempt told as the fix. Likewise "the security
review passed" against "the review is blocked", "lazy loading kept the bundle small" against
"tried lazy loading, but the layout jumps; reverted it".

The sentences an item clause is judged against are those holding nearly as many of its words as
the best one; among them, the ones that tell an outcome (a success or failure word, a negation, a
change of figures). A success claim conflicts when at least one of them tells an outcome and
none a positive one.
"""

from __future__ import annotations

import re

from synth.support.polarity import FAILURE, negative
from synth.support.units import (
    Unit,
    best_units,
    change_directions,
    key_tokens,
    overlap,
    sentences,
    split_clauses,
)

_SUCCESS = re.compile(
    r"\b(?:(?<!the )(?<!a )(?<!this )(?<!that )(?<!our )(?<!its )fix(?:es|ed)?|stopped(?!\s+\w+ing\b)|cur(?:ed|es)|solv(?:ed|es)|resolv(?:ed|es)|"
    r"pass(?:ed|es)?(?! over| on\b(?! (?:its|the|their|our|my|every|all)\b))|works|worked(?! on\b(?! (?:its|the|their|our|my) (?:very )?first\b))|succeed(?:ed|s)?|(?:went|goes) through(?!\s+(?:the|a|an|our|its|their|this|that)\b)|restored|cleared|"
    r"(?:is|are|now|went) live|available again|back up|unblocked|signed off|approved|"
    r"green|no (?:more )?(?:failures?|errors?)|(?:verif\w*|works?|pass\w*|runs?) again|"
    r"closed the gap|did the trick|sorted it|got rid of|eliminated|produced a working|"
    r"(?:cut|brought|got) (?:\w+ ){0,4}?down to|brought (?:\w+ ){0,4}?back down|"
    r"(?:brought|got|kept|put) (?:\w+ ){0,4}?under control|"
    r"(?:brought|got|put) (?:\w+ ){0,4}?back (?:under|within|below|in)\b|"
    r"made (?:it|them) work|(?:was|were) enough to|did the job|took care of|"
    r"got (?:\w+ ){0,4}?past\b|made (?:\w+ ){1,4}?(?:show|work|pass|load|appear|render|succeed|"
    r"finish|complete)\b|got (?:(?:it|them|the|all|every|each|our|its) )?(?:[\w-]+ ){0,3}?"
    r"(?:working|\w+ed))\b")
_FAILURE_TOLD = re.compile(
    r"\b(?:fail\w*|broke\w*|crash\w*|revert\w*|still|blocked|waiting|wait(?:s|ed)? (?:for|on)|"
    r"did(?:n[’']t| not)|does(?:n[’']t| not)|no (?:effect|difference|change)|"
    r"made it worse|jump(?:s|ed)? the layout|came back|comes back|reappeared|"
    r"barely (?:changed|moved|helped|improved)|did(?:n[’']t| not) (?:move|budge)|no (?:real )?"
    r"improvement|(?:stayed|remained) (?:at|the same)|unchanged)\b")
_NO_FAILURES = re.compile(r"\b(?:no|0|zero) (?:more )?(?:failures?|failed|errors?|duplicates?|dupes|"
                          r"restarts?|crash(?:es)?|warnings?|mismatch(?:es)?|regressions?|flakes?|"
                          r"timeouts?|leaks?|violations?)\b")
# "chose to fix", "wants the tests fixed": an intention or a wish, no claim that it worked
_INTENT = re.compile(r"\bto\s+$|\b(?:wants?|wanted|chose|choose|decided|prefers?|asked|plans?|"
                     r"planned|should|must|needs?|will|would|going to)\b")
# How many of the item's words a sentence may hold fewer than the best and still be judged.
SLACK = 1
MIN_OVERLAP = 2


def tells_failure(sentence: str) -> bool:
    """A failure, a wait or a denial: any of them, whatever else the sentence says."""
    lowered = _NO_FAILURES.sub(" ", sentence.casefold())
    return negative(lowered) or bool(_FAILURE_TOLD.search(lowered) or FAILURE.search(lowered))


def tells_outcome(sentence: str) -> bool:
    """Success, failure, or a change of figures ("down from 3% to 0.02%")."""
    return bool(_SUCCESS.search(sentence.casefold()) or tells_failure(sentence)
                or change_directions(sentence))


def _judged(stems: set[str], units: list[Unit]) -> list[str]:
    """The sentences telling an outcome that hold nearly as many of `stems` as the best of
    them, once each."""
    scored = {}
    for unit in units:
        if tells_outcome(unit.sentence):
            scored[unit.sentence] = max(scored.get(unit.sentence, 0), overlap(stems, unit))
    top = max(scored.values(), default=0)
    if top < MIN_OVERLAP:
        return []
    return [sentence for sentence, count in scored.items() if count >= max(MIN_OVERLAP, top - SLACK)]


_QUALIFIER = re.compile(r"\b(?:without|with no)\b")  # "passed without changes": no denial
_ACTION = re.compile(r"\b(?:by|with|after|once|since|when|through)\b")


def _claim_parts(clause: str, found: re.Match) -> tuple[set[str], set[str]]:
    """(what was done or what the claim is about, what it fixed): "Raising X stopped Y" is
    ({X}, {Y}); "Fixed Y by doing X" and "Y went through once X" likewise."""
    lowered = clause.casefold()
    before, after = lowered[:found.start()], lowered[found.end():]
    after = _QUALIFIER.split(after)[0]
    marker = _ACTION.search(after)
    action_text = before + " " + (after[marker.end():] if marker else "")
    target = set(key_tokens(after[:marker.start()] if marker else after))
    return set(key_tokens(action_text)) - target, target


def success_conflict(text: str, units: list[Unit]) -> str | None:
    """The first clause of `text` that claims a success its sentences tell only as a failure:
    each failure sentence must name what was done (two of its words, one where it has one) and
    what it fixed (when the clause names that in two words or more)."""
    for sentence in sentences(text):
        for clause in split_clauses(sentence) or [sentence]:
            found = _SUCCESS.search(clause.casefold())
            if found is None or negative(_QUALIFIER.split(clause.casefold())[0]):
                continue
            if _INTENT.search(clause.casefold()[:found.start()]):
                continue
            action, target = _claim_parts(clause, found)
            stems = set(key_tokens(clause))
            told = _judged(stems, units)
            if any(stems <= set(key_tokens(s)) for s in told):
                continue  # it restates one of them word for word
            if told and all(tells_failure(s) and _names(s, action, target) for s in told):
                return clause
    return None


def _names(sentence: str, action: set[str], target: set[str]) -> bool:
    """The sentence names what was done (two of its words) and what it fixed; a sentence that
    names most of what was done tells that attempt, whatever it names of the target."""
    held = set(key_tokens(sentence))
    done = len(held & action)
    return done >= min(2, len(action)) and (
        len(target) < 2 or bool(held & target) or done >= max(2, len(action) / 2))


_DENIED_SUCCESS = re.compile(
    r"\b(?:did(?:n[’']t| not)|does(?:n[’']t| not)|never|failed to|could(?:n[’']t| not))\s+"
    r"(?:\w+\s+)?(?:fix|cure|solve|resolve|help|work|stop|reduce|change|improve|pass|verify)\b")


def failure_conflict(text: str, units: list[Unit]) -> str | None:
    """The first clause of `text` that says an attempt did not work where every sentence it
    restates tells that it worked ("switching to the signing secret did not fix the check"
    against "it now uses the signing secret. Webhooks verify again.")."""
    for sentence in sentences(text):
        for clause in split_clauses(sentence) or [sentence]:
            if not _DENIED_SUCCESS.search(clause.casefold()):
                continue
            stems = set(key_tokens(clause))
            top, best = best_units(stems, units)
            if top < max(MIN_OVERLAP, len(stems) / 2):
                continue
            # what the best sentences tell, with the sentence after them ("it now uses the
            # signing secret. Webhooks verify again.")
            told = [f"{unit.sentence} {unit.after}" for unit in best]
            if all(_SUCCESS.search(t.casefold()) and not tells_failure(t) for t in told):
                return clause
    return None


_TRIED = re.compile(r"\b(?:tried|attempted|(?:on )?the first attempt|experimented with)\b")
_PAST = re.compile(r"\b(?!(?:tried|attempted|needed|wanted|asked|decided|used)\b)[a-z]{3,}ed\b|"
                   r"\b(?:sped|made|kept|brought|got|took|went|ran|cut|led)\b")
_HEDGE = re.compile(r"\b(?:maybe|perhaps|might|may|could|would|probably|if)\b")


def attempt_conflict(text: str, units: list[Unit]) -> str | None:
    """The first clause of `text` that tells a result of what every sentence it restates tells
    was only tried and failed ("Lowering the delay sped up replay" against "I also tried
    lowering the delay to see if replay would speed up. No change in lag, so I reverted it."):
    a result told in any verb, not only a success word."""
    for sentence in sentences(text):
        for clause in split_clauses(sentence) or [sentence]:
            lowered = clause.casefold()
            if (_TRIED.search(sentence.casefold()) or negative(lowered) or _HEDGE.search(lowered)
                    or _INTENT.search(lowered) or not _PAST.search(lowered)):
                continue
            at = sentence.find(clause)
            rest = sentence[at + len(clause):].casefold() if at >= 0 else ""
            if re.match(r"\W*(?:but|yet|though|however|only to)\b", rest):
                continue  # "X compiled, yet left the race in place": the item tells the failure
            stems = set(key_tokens(clause))
            top, best = best_units(stems, units)
            undone = [_undone_later(unit, units) for unit in best]
            # an attempt undone later is told by its action alone: four of its words will do
            if top < max(MIN_OVERLAP, len(stems) / 2) and not (top >= 4 and all(undone)):
                continue
            if all(gone or (_TRIED.search(unit.sentence.casefold())
                            and tells_failure(f"{unit.sentence} {unit.after}"))
                   for unit, gone in zip(best, undone, strict=True)):
                return clause
    return None


# "Reverted that change", "rolled it back": the attempt just told was undone
_UNDONE = re.compile(r"\b(?:reverted|rolled back|backed out|undid)\s+(?:that|it|this|the (?:change|"
                     r"patch|commit|attempt|edit))\b|\b(?:rolled|backed) (?:it|that|this) (?:back|out)\b")
_LOOKAHEAD = 6  # sentences of the same event


def _undone_later(unit: Unit, units: list[Unit]) -> bool:
    """A sentence shortly after the unit, in its event, undoes what it did: a failed attempt told
    without "tried" ("Moved the puts outside the lock. ... froze again ... Reverted that change.")."""
    told = list(dict.fromkeys(u.sentence for u in units if u.seq == unit.seq))
    if unit.sentence not in told:
        return False
    at = told.index(unit.sentence)
    return any(_UNDONE.search(later.casefold()) for later in told[at + 1:at + 1 + _LOOKAHEAD])


_NONE_FAILED = re.compile(r"\b(?:no|zero|0|without) (?:\w+ )?(?:failures?|failing|errors?|failed)\b|"
                          r"\ball (?:\d[\d,]* )?(?:of (?:the|its) )?(?:\w+ )?(?:tests? )?(?:pass(?:ed|es)?|green)\b")
_SOME_FAILED = re.compile(r"(?<![\d.,])(?<!of )(?:[1-9][\d,]*) (?:\w+ )?(?:tests? )?(?:failed|failures?|failing|errors?)\b")


def count_conflict(text: str, units: list[Unit]) -> str | None:
    """The first clause of `text` that tells none failed ("passed the suite with no failures")
    where every sentence it restates counts failures ("212 passed, 3 failed")."""
    for sentence in sentences(text):
        for clause in split_clauses(sentence) or [sentence]:
            if not _NONE_FAILED.search(clause.casefold()):
                continue
            stems = set(key_tokens(clause))
            top, best = best_units(stems, units)
            # a sentence naming it that tells a pass with no failures counted answers for it
            passed = any(_SUCCESS.search(unit.sentence.casefold())
                         and not _SOME_FAILED.search(unit.sentence.casefold())
                         for unit in units if overlap(stems, unit) >= MIN_OVERLAP)
            if not passed and top >= max(MIN_OVERLAP, len(stems) / 3) and all(
                    _SOME_FAILED.search(unit.sentence.casefold()) for unit in best):
                return clause
    return None


# "passed on its first run" against "First run failed: Cannot find the schema file"
_FIRST_TRY = re.compile(r"\b(?:on (?:the|its|their|our|my) (?:very )?first (?:[\w-]+ )?(?:run|try|attempt|"
                        r"pass|go|build|deploy)|(?:the )?first time|first try|right away|straight away|"
                        r"out of the box|without (?:a |any )?(?:hitch|issues?|problems?|retries))\b")
_FIRST_FAILED = re.compile(r"\bfirst (?:[\w-]+ ){0,2}?(?:run|try|attempt|pass|build|deploy)\b")


def first_try_conflict(text: str, units: list[Unit]) -> str | None:
    """The first clause of `text` that tells something worked at once ("passed on its first
    run", "worked on the first CI run") where a sentence naming it tells its first run failed."""
    for sentence in sentences(text):
        for clause in split_clauses(sentence) or [sentence]:
            lowered = clause.casefold()
            if not (_FIRST_TRY.search(lowered) and _SUCCESS.search(lowered)) or negative(lowered):
                continue
            stems = set(key_tokens(_FIRST_TRY.sub(" ", lowered)))
            for unit in units:
                told = unit.sentence.casefold()
                first = _FIRST_FAILED.search(told)
                if first and tells_failure(told[first.start():]) and stems & set().union(
                        *(other.stems for other in units if other.seq == unit.seq)):
                    return clause  # the event that tells the first run failed names it
    return None
