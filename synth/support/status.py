"""Status: an item that tells something as done must not restate a sentence that tells it is
still to come.

"Platform raised the staging quota" against "we are blocked until platform raises the staging
quota"; "the pipeline has applied PR 418" against "the pipeline will apply it after review";
"the DBA team deduped the rows" against "blocked until the DBA team dedupes the rows". The item
tells a done thing (a past or perfect verb, "now", "again", "already", "is live") and says it
plainly (no negation, no hedge, no plan of its own); every sentence holding most of its words
tells those words as pending (after "will", "until", "once approved", "not yet", "tomorrow",
...). A user's request is no reference: it asks, it tells nothing of what happened.
"""

from __future__ import annotations

import re

from synth.support.outcome import tells_failure
from synth.support.polarity import REPORTING, is_open, is_request, negative
from synth.support.units import (
    Unit,
    best_units,
    clauses,
    key_tokens,
    plain_words,
    sentences,
    split_clauses,
)

PENDING = re.compile(
    r"\b(?:will|won[’']t|going to|plan(?:s|ned)? to|about to|until|unless|till|"
    r"awaiting|wait(?:s|ing)? (?:for|on)|yet to|tomorrow|needs? (?:\w+ ){0,2}?to|"
    r"needs? (?:an? )?(?:[\w-]+ ){0,3}?(?:approval|review|sign-?off|qa)|before (?:merg\w*|release|deploy\w*)|next (?:week|sprint|release|"
    r"month|quarter|cycle)|later (?:today|this week)|scheduled|after (?:the )?(?:review|approval|"
    r"sign-off|freeze))\b|\w[’']ll\b")
# A state of waiting: what it tells stands before it as well ("the prod rollout is blocked").
WAITING = re.compile(r"\b(?:blocked|on hold|held up|held back|pending|not (?:\S+ ){0,2}?yet|"
                     r"still un\w+ed|"
                     r"in progress|underway|still (?:running|going|in progress)|"
                     r"(?:pr|mr|pull request|ticket|review)\b[^.;]{0,20}\b(?:is|are) "
                     r"(?:still )?open|"
                     r"(?:has|have|is|are)n[’']t (?:\S+ ){0,4}yet|still (?:has|have|needs?) to)\b")
_DONE = re.compile(
    r"\b(?:already|now|again|is live|are live|went (?:out|live|through)|(?:has|have|had) been|"
    r"(?:is|are|was|were) (?:all )?(?:done|complete|finished|in place)|"
    r"(?:has|have|had) (?!to\b)\w+|went|ran|built|made|took|gave|got|brought|sent|wrote|"
    r"shipped)\b|(?<![\w-])\w{3,}ed\b")
# Past forms that tell a choice, a wish or a report, not that the thing itself was done.
_NOT_DONE = re.compile(
    r"\b(?:decided|agreed|planned|scheduled|proposed|suggested|asked|requested|wanted|needed|"
    r"expected|intended|supposed|allowed|required|preferred|considered|hoped|promised|"
    r"blocked|delayed|postponed|deferred|queued|chose|chosen|picked|opted|selected|went with|"
    r"settled on)\b")
_PARTICIPLE = re.compile(r"(?<!\bwas )(?<!\bwere )(?<!\bbeen )\b\w+ed (?:by|with|from|in|on|for)\b")  # "a bucket shared by all"
_BARELY = re.compile(r"\b(?:barely|hardly|scarcely)\b")
_MODAL = re.compile(r"\b(?:maybe|perhaps|might|could|should|possibly|probably|would)\b")
# A rule or a habit ("is only ever applied by the pipeline"), or a passive present: no event.
_GENERAL = re.compile(r"\b(?:only|ever|always|never|every|each time|whenever|usually)\b|"
                      r"\b(?:is|are|be|gets?)\s+(?:\w+\s+){0,2}?\w+ed\b(?<!now\b)")
# A done clause is read apart from its time ("is live after the staging soak").
_TIME_CLAUSE = re.compile(r"\s+(?=(?:after|once|before)\s)")
MIN_OVERLAP = 2
MIN_SHARE = 0.5


def tells_done(clause: str) -> bool:
    """The clause tells something as done, plainly: a past or perfect verb that is no choice or
    wish, and no negation, plan, hedge or question of its own."""
    lowered = clause.casefold()
    if not _plain(clause):
        return False
    if _GENERAL.search(lowered) and not re.search(r"\b(?:now|already|again)\b", lowered):
        return False
    if is_request(clause):
        return False  # "Use X shared by all workers": a decision told as an instruction
    return _DONE.search(_PARTICIPLE.sub(" ", _NOT_DONE.sub(" ", lowered))) is not None


def _plain(clause: str) -> bool:
    """No negation, question, plan, wait or hedge of its own ("the rate limit barely helped" tells
    a failure, nothing done)."""
    lowered = clause.casefold()
    return not (negative(clause) or is_open(clause) or PENDING.search(lowered)
                or WAITING.search(lowered) or _MODAL.search(lowered) or _BARELY.search(lowered))


_NAME = re.compile(r"[\w.#/@]+(?:[-_][\w.#/@]+)+|\w+\d\w*")


def _names(text: str) -> set[str]:
    """The identifiers of a text, whole: `staging-reports` is no `staging-orders`."""
    return set(_NAME.findall(text.casefold()))


def pending_for(unit: Unit, stems: set[str], names: set[str] | None = None) -> bool:
    """The unit tells the item's words as still to come: in the clause of its sentence that holds
    most of them, a pending word stands before one of them."""
    parts = clauses(unit.sentence) or [unit.sentence]
    # a bare wait ("..., not done yet") tells of the clause before it
    parts = [f"{part} {after}" if i + 1 < len(parts) and _bare_wait(after) else part
             for i, (part, after) in enumerate(zip(parts, parts[1:] + [""]))]
    held = [(len(stems & set(key_tokens(part))), part) for part in parts]
    most = max(count for count, _ in held)
    if names is not None:  # of the clauses holding as many words, the one naming its identifier
        tied = [part for count, part in held if count == most]
        named = [part for part in tied if names & _names(part)]
        if named and len(named) < len(tied):
            held = [(count + (part in named), part) for count, part in held]
            most += 1
    for count, part in held:
        if count < most:
            continue
        lowered = part.casefold()
        if WAITING.search(lowered):
            continue
        marker = PENDING.search(lowered)
        if marker is None or not stems & set(key_tokens(lowered[marker.end():])):
            return False
    return True


def _bare_wait(clause: str) -> bool:
    return bool(WAITING.search(clause.casefold())) and len(set(key_tokens(clause))) <= 2


def status_conflict(text: str, units: list[Unit]) -> str | None:
    """The first clause of `text` that tells as done what every sentence it restates tells as
    still to come."""
    # A request asks and a plain denial ("never apply from a laptop") is a rule: neither tells
    # what happened to the item's words.
    statements = [unit for unit in units
                  if not (unit.role == "user" and is_request(unit.sentence))
                  and (not negative(unit.text) or PENDING.search(unit.sentence.casefold())
                       or WAITING.search(unit.sentence.casefold()))]
    for sentence in sentences(text):
        for whole in split_clauses(sentence) or [sentence]:
            for clause in _TIME_CLAUSE.split(whole):
                if any(_verbatim(clause, unit) for unit in units):
                    continue
                if _pending_told_done(clause, units):
                    return clause
                if not tells_done(clause):
                    continue
                stems = set(key_tokens(clause)) - REPORTING
                top, best = best_units(stems, statements)
                if top >= max(MIN_OVERLAP, MIN_SHARE * len(stems)) and all(
                        pending_for(unit, stems, _names(clause)) for unit in best):
                    return clause
                if (_request_failed(stems, units) or _named_pending(stems, statements)
                        or _waits_and_none_done(stems, statements)
                        or _verb_pending(clause, units) or _answered_no(stems, units)):
                    return clause
    return None


_QUEUED = re.compile(r"\b(?:(?:is|are) (?:still )?queued|(?:has|have)(?:n[’']t| not) (?:\w+ )?started|"
                     r"not (?:\w+ )?started)\b")


def _waits_and_none_done(stems: set[str], statements: list[Unit]) -> bool:
    """A sentence holding a third of the item's words (three at least) tells it queued or not
    started ("the full run is queued as job 558213 and has not started yet"), and none of those
    sentences tells it done."""
    near = {unit.sentence for unit in statements
            if len(stems & unit.stems) >= max(MIN_OVERLAP + 1, len(stems) / 3)}
    return (any(_QUEUED.search(sentence.casefold()) for sentence in near)
            and not any(tells_done(part) for sentence in near
                        for part in split_clauses(sentence) or [sentence]
                        if not _QUEUED.search(part.casefold())))


_DONE_VERB = re.compile(r"(?<![\w-])(?:\w{3,}ed|ran|went|built|shipped|sent|wrote|began|begun)(?![\w-])")
_GUESS = re.compile(r"\b(?:maybe|perhaps|might|may|could|possibly|probably|would|guess|suspect|"
                    r"i think|my theory|hypothesis)\b")
_HOLD = re.compile(r"\b(?:needs?|requires?|on hold|asked \w+ to|left to|up to (?:you|them|him|her)|"
                   r"waits? (?:for|on))\b")


def _verb_pending(clause: str, units: list[Unit]) -> bool:
    """What the item tells done ("the fix was merged") its events tell only as still to come:
    every statement clause holding the verb ("merging needs a review from CODEOWNERS", "merge is
    on hold until he reports back") waits, none tells it done or names it otherwise."""
    lowered = _PARTICIPLE.sub(" ", _NOT_DONE.sub(" ", clause.casefold()))
    verbs = sorted({stem for verb in _DONE_VERB.findall(lowered) for stem in key_tokens(verb)})
    for verb in verbs:
        holding = [part.casefold() for part in _told_clauses(units, verb)]
        # every clause naming it waits; one telling it done, or naming it otherwise, answers
        if holding and all(WAITING.search(part) or PENDING.search(part) or _HOLD.search(part)
                           for part in holding):
            return True
    return False


def _told_clauses(units: list[Unit], verb: str) -> list[str]:
    """The clauses naming `verb` of the sentences that tell something: no user request, no
    question, no guess ("those users may not have relaunched yet" tells neither done nor not)."""
    told = dict.fromkeys(unit.sentence for unit in units
                         if not (unit.role == "user" and is_request(unit.sentence)))
    return [part for sentence in told
            if not is_open(sentence) and not _GUESS.search(sentence.casefold())
            for part in clauses(sentence) or [sentence] if verb in key_tokens(part)]


_NOT_YET = re.compile(r"\b(?:(?:has|have|is|are|was|were)(?:n[’']t| not)|not)\s+(?:yet\s+)?(?:been\s+)?"
                      r"(?P<verb>\w{3,}ed)\b(?:\s+yet\b)?")


def _pending_told_done(clause: str, units: list[Unit]) -> bool:
    """The item tells still to come ("hasn't been merged yet") what every statement naming the
    verb tells done ("the code and migration are merged (PR #884)")."""
    lowered = clause.casefold()
    found = _NOT_YET.search(lowered)
    if not found or not re.search(r"\b(?:yet|still)\b", lowered):
        return False
    verb = next(iter(key_tokens(found.group("verb"))), None)
    holding = _told_clauses(units, verb) if verb else []
    return bool(holding) and all(_plainly_past(part) for part in holding)


def _plainly_past(part: str) -> bool:
    """A past or perfect verb, no wait, plan, hedge, denial or question: "are merged" too (that
    `tells_done` leaves to the rules, as a passive present may tell a habit)."""
    return _plain(part) and bool(_DONE.search(_NOT_DONE.sub(" ", part.casefold())))


_YES_NO = re.compile(r"^(?:\w+[,.!]?\s+)?(?:is|are|was|were|did|does|do|has|have|had|can|could)\b.*\?$")
_NO = re.compile(r"^(?:no\b|nope\b|not yet\b|not quite\b|nah\b)")


def _answered_no(stems: set[str], units: list[Unit]) -> bool:
    """A user asked whether it is done ("is 02 done too?") and the reply opens with "No": an item
    telling done what the question names (an identifier, or two of its words) says otherwise."""
    seqs = sorted({unit.seq for unit in units})
    first = {}
    for unit in units:
        first.setdefault(unit.seq, unit)
    for unit in units:
        if unit.role != "user" or unit.text != unit.sentence or not _YES_NO.match(unit.sentence.casefold()):
            continue
        later = [seq for seq in seqs if seq > unit.seq]
        if not later or first[later[0]].role == "user":
            continue
        if not _NO.match(first[later[0]].sentence.casefold().lstrip("*# ")):
            continue
        asked = set(key_tokens(unit.sentence)) - set(key_tokens("done finished ready merged there "
                                                                "yet too also now"))
        shared = stems & asked
        if len(shared) >= 2 or any(any(ch.isdigit() for ch in stem) for stem in shared):
            return True
    return False


def _named_pending(stems: set[str], units: list[Unit]) -> bool:
    """The item names a numbered thing ("PR #981 has been merged") and every sentence naming it
    tells it still to come ("PR #981 is open; it needs sign-off before it merges")."""
    numbered = {stem for stem in stems if any(ch.isdigit() for ch in stem)}
    naming = [unit for unit in units if numbered & unit.stems]
    return bool(naming) and all(WAITING.search(unit.sentence.casefold()) or
                                pending_for(unit, stems) for unit in naming)


def _request_failed(stems: set[str], units: list[Unit]) -> bool:
    """What the item tells done is what a user asked for ("Deploy the service to staging"), and
    every reply sentence that names it (two of its words) tells a failure or a wait ("helm
    upgrade timed out")."""
    top, best = best_units(stems, units)
    if top < max(MIN_OVERLAP, MIN_SHARE * len(stems)) or not all(
            unit.role == "user" and is_request(unit.sentence) for unit in best):
        return False
    replies = [unit for unit in units if unit.role != "user" and len(stems & unit.stems) >= 2]
    return bool(replies) and all(tells_failure(unit.sentence) for unit in replies)


def _verbatim(clause: str, unit: Unit) -> bool:
    """The clause is the unit's own words: a restatement is never its own conflict."""
    plain = plain_words(clause)
    return bool(plain) and plain in plain_words(unit.sentence)
