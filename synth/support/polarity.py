"""Polarity: an item must say what the sentence it restates says, not its opposite.

A piece of text is negative when it holds an odd number of negations (not, never, no, n't,
without, no longer, failed to, ruled out, ...) XOR a failure or waiting word (failed, broke,
blocked, waits, still, unchanged, reverted, ...): "did not fix" and "still fails" are negative,
"no failures" and "no longer fails" positive. Negation words are what a stop-word list drops,
so they are matched here on the raw text.

Besides polarity, two other ways to say the opposite with the same words:
- antonyms of state and direction: enabled / disabled, keep / delete, rose / fell / stayed;
- a question restated as settled ("should we move to spot nodes?" → "moved to spot nodes").
The alternative not taken stated as the chosen one is `choices`.
"""

from __future__ import annotations

import functools
import re

from synth.support.units import (
    Unit,
    best_units,
    change_directions,
    clauses,
    is_figure,
    key_tokens,
    overlap,
    sentences,
    split_clauses,
)

_NEGATION = re.compile(
    r"\b(?:no longer|not|never|no|none|nothing|nobody|neither|nor|cannot|skip(?:s|ped|ping)?|"
    r"(?:do|does|did|is|are|was|were|ca|wo|should|could|would|has|have|had)nt|"
    r"fail(?:s|ed|ing)? to|unable to|ruled out|rule out|rules out|excluded|avoid(?:s|ed|ing)?|"
    r"un(?:necessary|needed|used|available|supported|acceptable|wanted|checked|tested|verified|"
    r"confirmed|reviewed|merged|fixed|deployed|released|approved|tried|answered)|no need|needless|"
    r"prevent(?:s|ed|ing)?|(?:stays?|stayed|kept|left|remains?|is|are) off|"
    r"frozen|forbidden|banned|prohibited|disallowed|off-limits|"
    r"(?:is|are|was|were|be|been|got|gets?)\s+(?:\w+\s+)?(?:rejected|turned down|declined|refused)|"
    r"(?:keep|keeps|kept)\s+(?:\S+\s+){0,4}?out of)\b|n[’']t\b|"
    r"(?<![\w.,])(?:0|zero)\s+(?=[a-z])")
FAILURE = re.compile(
    r"\b(?:fail(?:s|ed|ing|ures?)?|broke|broken|breaks|crash(?:es|ed|ing)?|regress\w*|"
    r"revert(?:s|ed|ing)?|roll(?:s|ed)? back|put (?:\w+ )?back|undid|undone|backed out|"
    r"timed out|times? out|stuck|blocked|blockers?|pending|on hold|held (?:up|back)|"
    r"await(?:s|ed|ing)|(?:under|in) review|"  # bare `await` is code
    r"still (?:needs?|requires?|has to|have to)|"
    r"blocking(?!\s+(?:\w+\s+)?(?:calls?|i/?o|requests?|reads?|writes?|operations?|sockets?|"
    r"functions?|code|mode|queues?))|"
    r"stopped (?:working|arriving|responding|loading|sending|syncing|showing|running)|"
    r"(?<!spent )(?<!time )wait(?:s|ed|ing)?(?![-_ ]?(?:timeouts?|times?|periods?|intervals?|"
    r"lists?|queues?)\b)(?!\s+(?:until|till|for)\s+(?:tomorrow|tonight|(?:next|this)\s+\w+|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|the (?:morning|weekend)|q[1-4])\b)|wrong|inconsistent(?:ly)?|unreliabl[ey]|erratic(?:ally)?)\b")
# Choice markers: what follows is the alternative NOT taken. They are no negation.
_CHOICE = re.compile(
    r"\b(?:instead of|rather than|in place of|as opposed to|matters? more than|more important than|"
    r"outweighs?)\b|,\s*(?:and\s+)?not\s+(?=[a-z])|(?<=\bover)\b")
CHOOSE_OVER = re.compile(r"\b(?:chose|choose|chosen|picked|pick|prefers?|preferred|preferring|"
                          r"favou?r\w*|keep|kept|opted for|went with|selected)\b.*?\bover\b")
_OPEN = re.compile(r"\?|\b(?:open (?:questions?|points?|issues?)|(?:still|remains?|is|left) open(?! to\b)|"
                   r"question|undecided|unresolved|unsettled|not settled|not decided|tbd|whether|"
                   r"unclear|deferred|to be decided|waiting (?:on|for) an? (?:answer|decision|reply)|"
                   r"not (?:yet )?(?:decided|answered)|pending (?:a |an )?(?:decision|answer))\b|"
                   r"^open\b")
# Families of words whose members contradict each other; within a family an item and its
# sentence must share a member when both hold one.
_FAMILIES = (
    {"persist": r"\b(?:still|remain(?:s|ed|ing)?|persist(?:s|ed|ing)?|unchanged|"
                r"continu(?:e|es|ed|ing))\b",
     "ended": r"\b(?:gone|fixed|resolved|no longer|stopped|disappeared|went away|ended)\b"},
    {"above": r"\b(?:above|exceed(?:s|ed|ing)?|more than|higher than|greater than|over\s+(?=\d))\b",
     "below": r"\b(?:below|less than|lower than|fewer than|under\s+(?=\d)|within)\b"},
    {"approve": r"\b(?:approv(?:e|ed|es|al)|signed off|sign-off|accepted|lgtm)\b",
     "reject": r"\b(?:reject(?:s|ed|ing)?|denied|refused|declined)\b"},
    {"on": r"\b(?:enabled?|turned on|switched on|on by default)\b",
     "off": r"\b(?:disabled?|turned off|switched off|off by default)\b"},
    {"keep": r"\b(?:keep|keeps|kept|retain(?:s|ed)?|stays? in)\b",
     "remove": r"\b(?:delet(?:e|ed|es)|remov(?:e|ed|es)|retir(?:e|ed|es))\b"},
    {"up": r"\b(?:rose|risen|rises?|grew|grown|grows?|growing|increas(?:e|ed|es)|higher|"
           r"climb(?:ed|s)?|jump(?:ed|s)?|doubled|bigger|larger|(?<!no )longer|slower|slowed|"
           r"heavier|more often|rais(?:e|ed|es)|went up|gone up|goes up|up from|back up|"
           r"add(?:s|ed)\s+(?:[a-z-]+\s+){0,3}?\(?(?:about\s+|around\s+|~)?\d[\d.,]*|\d[\d.,]*%?\s+(?:\w+\s+)?more)\b",
     "down": r"\b(?:fell|falls?|dropped|drops?|decreas(?:e|ed|es)|reduc(?:e|ed|es)|shr[aiu]nk\w*|"
             r"lower(?:ed)?|smaller|shorter|faster|lighter|less often|cut|cuts|cutting|halved|"
             r"declin(?:e|ed|es)|down|\d[\d.,]*%?\s+(?:\w+\s+)?(?:fewer|less))\b",
     "flat": r"\b(?:stayed|steady|unchanged|flat|held steady|holds steady)\b"},
)


_CHOICE_SPAN = re.compile(
    r"\b(?:instead of|rather than|in place of|as opposed to|matters? more than|more important than|"
    r"outweighs?)\b[^,;:.]*|(?:,\s*|^)(?:and\s+|but\s+)?not\s+(?:a|an|the|any|all|every\w*)\b[^,;:.]*")

DIRECTION = _FAMILIES[-1]  # up, down, flat: which way a change went


# "The failures come from X", "the crash is caused by X": the failure is what X explains, and
# the sentence states the cause, no failure of X.
_EXPLAINED = re.compile(
    r"\b(?:the\s+)?(?:failures?|crash(?:es)?|breakages?|regressions?)\s+(?:\w+\s+){0,3}?"
    r"(?:come|comes|came|stem|stems|stemmed|result|results|resulted)\s+from\b|"
    r"\b(?:the\s+)?(?:failures?|crash(?:es)?|breakages?|regressions?)\s+(?:is|are|was|were)\s+"
    r"(?:caused by|due to)\b")


# Command-line flags and code are no prose: "--no-kill-backend", "@unchecked" negate nothing.
_FLAGS = re.compile(r"(?<!\w)--?[a-z][\w-]*(?:=\S*)?|(?<!\w)@[a-z]\w*|\b\w+(?:[-_]\w+)*[-_](?:no|not|off|skip|"
                    r"never|none|disabled?)(?:[-_]\w+)*\b|\bno[-_]\w+(?:[-_]\w+)*\b")


_FROM_STATE = re.compile(r"\bfrom\s+(?=[^,;.]{0,30}?\b(?:fail|error|crash|broke))[^,;.]{0,40}?\bto\b|"
                         r"\b(?:down|up) from\b[^,;]*")


def _choice_free(text: str) -> str:
    """The text without the alternatives it did not take ("X instead of Y" → "X"), nor a failure
    it only explains ("the failures come from X" → "X")."""
    text = _EXPLAINED.sub(" ", _CHOICE_SPAN.sub(" ", _FLAGS.sub(" ", text)))
    text = _FROM_STATE.sub(" to ", text)  # "went from 9/40 failing to 0 failures": the new state
    over = CHOOSE_OVER.search(text)
    if over:
        rest = re.search(r"[,;:.]", text[over.end():])
        text = text[:over.end() - 4] + (text[over.end() + rest.start():] if rest else "")
    return text


def _negations(text: str) -> int:
    """Negations in the text: "never ship X without Y" holds two (Y is required); "without it"
    is the condition of a hypothetical ("without it the LODs shade faceted"), none."""
    found = len(_NEGATION.findall(text))
    return found + len(re.findall(r"\bwithout\b(?!\s+(?:it|that|this|them)\b)", text))


def negated(text: str) -> bool:
    """An odd number of negations (no failure words): the text denies what it says."""
    return _negations(_choice_free(text.casefold())) % 2 == 1


@functools.lru_cache(maxsize=1 << 16)
def negative(text: str) -> bool:
    """Odd negations XOR a failure word (or a failed attempt), on the text without its choice
    markers."""
    text = _choice_free(text.casefold())
    failed = bool(FAILURE.search(text) or TRIED_BUT.search(text))
    odd = _negations(text) % 2 == 1
    if odd and failed and not _governs(text):
        return True  # "still waiting on review and hasn't been merged yet": pending twice over
    return odd != failed


def _governs(text: str) -> bool:
    """A negation stands before the failure word it denies ("no longer fails", "did not break",
    "no failures", "never blocked on"), or the failure word comes first and a negation right
    after denies it ("the failure did not recur")? Then the two cancel."""
    failures = [m.start() for m in FAILURE.finditer(text)] + [
        m.start() for m in TRIED_BUT.finditer(text)]
    negations = [m.end() for m in _NEGATION.finditer(text)] + [
        m.end() for m in re.finditer(r"\bwithout\b", text)]
    for start in failures:
        for end in negations:
            between = text[min(start, end):max(start, end)]
            if len(between.split()) <= 6 and not re.search(r"[,;:](?=\s)|\band\b|\bbut\b", between):
                return True
    return False


_REQUEST = re.compile(
    r"^(?:please\s+|can you\s+|could you\s+|let'?s\s+|now\s+|then\s+)?"
    r"(?:add|run|deploy|fix|use|make|upgrade|check|find|measure|look|enable|disable|remove|delete|move|switch|build|push|try|"
    r"re-?run|promote|ship|test|update|write|create|set|change|merge|revert|investigate|profile|"
    r"install|implement|migrate|rename|refactor|bump|pin|roll|release)\b")


def is_request(text: str) -> bool:
    """A user's request for an action ("Deploy it to staging"): no statement of what happened."""
    return _REQUEST.search(text.strip().casefold()) is not None


def is_open(text: str) -> bool:
    """A question or an open point, not a settled statement."""
    return _OPEN.search(text.casefold()) is not None


def _family_members(text: str) -> list[set[str]]:
    """The members of each family the text holds; a change of figures counts as its direction
    ("went from 7% to 0.5%" is "down")."""
    lowered = text.casefold()
    found = [{name for name, pattern in family.items() if re.search(pattern, lowered)}
             for family in _FAMILIES]
    found[-1] |= change_directions(text)
    return found


def _clash(item: str, unit: str) -> bool:
    """Item and unit name members of one family, and no member in common."""
    return any(mine and theirs and not mine & theirs
               for mine, theirs in zip(_family_members(item), _family_members(unit), strict=True))


def _clauses_of(unit: Unit) -> list[str]:
    # "a test that opens and closes 1,000 sockets and asserts no handles remain": the denial is
    # a clause of its own
    # "the SDK asserts it runs on the main thread and crashes with X": what crashes is the SDK,
    # the assertion is no failure
    return [piece for part in clauses(unit.text)
            for piece in re.split(r"\s+and\s+(?=\w+s\s+(?:no|not|never|none)\b|"
                                  r"(?:then\s+)?(?:crash(?:es|ed)|fail(?:s|ed)|breaks|broke|"
                                  r"times out|timed out|hangs|hung)\b)", part)]


def _scope(text: str) -> set[str]:
    """What a negative text denies: all of it after a failure word ("the deploy failed"), the
    words after the negation otherwise ("raising it did not reduce the 502s")."""
    text = _choice_free(text.casefold())
    if FAILURE.search(text):
        # "blocked until platform raises the quota", "broke when X changed": what waits or
        # fails is denied, not its condition or cause
        failure = FAILURE.search(text)
        cause = _CAUSE.search(text, failure.end())
        text = text[:cause.start()] if cause else text
        other = re.search(r"\s+and\s+", text[failure.end():])  # "reverted that and made X"
        text = text[:failure.end() + other.start()] if other else text
        return set(key_tokens(_CONDITION.split(text)[0]))
    negation = _NEGATION.search(text) or re.search(r"\bwithout\b", text)
    if not negation:
        return set()
    if re.match(r"\s*(?:be\s+)?(?:needed|necessary|required|used|allowed|possible|enough|wanted|"
                r"worth|done|ready|working|true|the case)\b", text[negation.end():]):
        return set(key_tokens(text))  # "X is not needed": X itself is denied
    denied = _CONDITION.split(text[negation.end():])[0]  # "can't go green until ...": not the until
    scope = set(key_tokens(re.split(r"\s+and\s+", denied)[0]))
    if not scope:  # "a hotfix build that Android never did": what never did is denied
        subject = re.split(r"\b(?:that|which|who|and|but|while)\b|[,;:]", text[:negation.start()])[-1]
        scope = set(key_tokens(subject))
    return scope


_HYPOTHETICAL = re.compile(r"\b(?:would|could)\b|\b(?:i|we|you|they|he|she)[’']d\b|"
                           r"\bwithout (?:it|that|this|them)\b")
# "no new deps beyond JRecord" says "JRecord is the only new dependency"
_EXCEPT = re.compile(r"\b(?:no|nothing|none|not any|never)\b[^,;:]*?\b(?:beyond|except|other than|"
                     r"besides|apart from|but)\b")
_CONDITION = re.compile(r"\b(?:until|unless|till)\b")
_CAUSE = re.compile(r"\b(?:when|because|since|as soon as|once)\b")
_ONLY = re.compile(r"\b(?:only|exclusively|solely)\b")


def _opposed(clause: str, part: str) -> bool:
    """Opposite polarities, and the negative side denies something the other one says."""
    if negative(clause) == negative(part):
        return False
    if _HYPOTHETICAL.search(clause.casefold()) or _HYPOTHETICAL.search(part.casefold()):
        return False  # "which would drift on the cents": what the other way would do, no fact
    denied, said = (clause, part) if negative(clause) else (part, clause)
    scope = _scope(denied)
    if _exclusive(said, scope) or (_ONLY.search(said.casefold()) and _EXCEPT.search(denied.casefold())):
        return False
    return not scope or bool(scope & set(key_tokens(said)))


def _exclusive(said: str, scope: set[str]) -> bool:
    """"iOS builds happen only in CI" says what "don't run the iOS build locally" says: what
    "only" keeps is none of what the other side denies."""
    found = _ONLY.search(said.casefold())
    if not found:
        return False
    kept = set(key_tokens(said[found.end():]))
    return bool(kept) and not kept & scope


TRIED_BUT = re.compile(r"\btried\b[^;]*?\b(?:but|and (?:then )?(?:reverted|rolled back|dropped|"
                        r"removed))\b")
_TRIED_NEXT = re.compile(r"^\s*(?:it|that|this)\b[^.;]*\b(?:no (?:measurable )?"
                         r"(?:difference|effect|change)|did(?:n[’']t| not) "
                         r"(?:help|work|change|improve)|made it worse)\b")
_CONSIDERED = re.compile(r"\b(?:considered|thought about|looked into|weighed|evaluated)\b")
_CONSIDERED_BUT = re.compile(r"\b(?:considered|thought about|looked into|weighed|evaluated)\b"
                             r"[^;]*?\bbut\b[^;]*?(?:\b(?:not|never|against|rejected|dropped)\b|"
                             r"n[’']t\b)")
_HEDGED = re.compile(r"\b(?:maybe|perhaps|might|could be|possibly|probably|suspect|hypothesis|"
                     r"guess|"
                     r"i think|i thought|wonder(?:ed|ing)? (?:whether|if))\b")


def _agrees(clause: str, unit: Unit, stems: set[str], item_open: bool = False) -> bool:
    """The clause says what the unit says: no opposite polarity on the unit or, when the item's
    words lie in several of its clauses, on one of those; no antonym in its sentence. A
    hypothesis is neither true nor false here (`refuted` judges it), nor is an open question
    restated as open."""
    if _HEDGED.search(unit.sentence.casefold()) or (item_open and is_open(unit.sentence)):
        return True
    figures = {stem for stem in stems if is_figure(stem)}
    held = [(set(key_tokens(part)), part) for part in _clauses_of(unit)]
    most = max((len(stems & words) for words, _ in held), default=0)
    parts = [part for words, part in held  # the clauses holding its words, or its figures
             if (stems & words and len(stems & words) >= min(2, most)) or figures & words]
    parts = parts or [unit.text]
    parts = [in_context(part, unit.sentence, unit.after) for part in parts]
    if negative(clause) and _OPTION.match(unit.sentence.casefold()):
        return True  # "a Buffer table was turned down" for "B. Buffer table in front of events"
    if _WAITS_UNTIL.search(clause.casefold()) and _REQUIRES.search(unit.sentence.casefold()):
        return True  # "cannot merge until the owners sign off" for "needs their sign-off before"
    return any(not _opposed(clause, part) for part in parts) and not _clash(clause, unit.sentence)


# An option offered in a list ("B. Buffer table in front of events", "(2) pin Xcode"): it says
# nothing of whether it was taken.
_OPTION = re.compile(r"^\s*(?:[-*•]\s+)?(?:\*\*)?(?:option\s+)?(?:\(?[a-h1-9]\)|[a-h1-9][.):])(?:\*\*)?\s")
# A wait the clause tells ("cannot merge until ...", "waits on X's approval"), which a
# requirement in the unit tells as well ("needs X's approval", "needs a review before").
_WAITS_UNTIL = re.compile(r"\b(?:not|never|cannot|can[’']?t|won[’']?t|don[’']?t)\b[^.;]*"
                          r"\b(?:until|unless|till)\b|\b(?:waits?|waiting|awaits?|awaiting)\b")
_REQUIRES = re.compile(r"\bneeds?\b[^.;]*\bbefore\b|\brequires?\b[^.;]*\bbefore\b|"
                       r"\b(?:needs?|requires?)\s+(?:\S+\s+){0,3}?(?:approvals?|sign-?off|reviews?)\b")


# The share of an item clause's words the unit it restates must hold before their polarities
# are compared: chosen on the dev split of the support set (bench/support.py --choose).
MIN_SHARE = 0.5


def in_context(clause: str, sentence: str, after: str = "") -> str:
    """The clause as its sentence reads it: the part that "tried X" in "tried X, but ..." (or
    "tried X. It made no difference.") is a failed attempt."""
    lowered = sentence.casefold()
    tried = re.search(r"\btried\b", clause.casefold())
    if tried and (TRIED_BUT.search(lowered) or _TRIED_NEXT.search(after.casefold())):
        return f"{clause} but failed"
    if _CONSIDERED.search(clause.casefold()) and _CONSIDERED_BUT.search(lowered):
        return f"{clause} but not done"  # "considered X but did not enable it"
    return clause


_REJECTED_ALTERNATIVE = re.compile(r"(?:and\s+|but\s+)?not\s+(?!\w+(?:ed|en)\b)(?:\w+\s*){1,4}$")



def _also_rejected(stems: set[str], units: list[Unit]) -> bool:
    """A unit names these words as its alternative not taken ("rather than round robin")."""
    for unit in units:
        spans = _CHOICE_SPAN.findall(unit.sentence.casefold())
        held = set(key_tokens(" ".join(spans))) if spans else set()
        if stems and len(stems & held) * 2 >= len(stems):
            return True
    return False


# Words an item uses to report what was said ("the user prefers ..."), which the event it
# restates rarely holds: they do not count in the share of its words a sentence must hold.
_ATTRIBUTION = re.compile(r"(?:and\s+)?(?:as|like)\s+(?:\w+\s+){0,4}?(?:asked|requested|wanted|"
                          r"suggested|said|agreed|proposed|required)\s*[.;]?$")
REPORTING = frozenset(key_tokens("user users prefer prefers preferred wants wanted asks asked "
                                 "likes liked insists insisted requested requests"))


def polarity_conflict(text: str, units: list[Unit], min_overlap: int = 2,
                      slack: int = 0) -> str | None:
    """The first clause of `text` that says the opposite of the unit it restates, if any."""
    item_open = is_open(text)
    found = sentences(text)
    pieces = [(in_context(clause, sentence, found[i + 1] if i + 1 < len(found) else ""), clause)
              for i, sentence in enumerate(found) for clause in split_clauses(sentence)]
    for index, (clause, said) in enumerate(pieces):
        if _ATTRIBUTION.match(said.casefold()):
            continue  # "as the reviewer asked": who said it, not what happened
        stems = set(key_tokens(said)) - REPORTING
        if index and _REJECTED_ALTERNATIVE.match(said.casefold()) and _also_rejected(stems, units):
            continue  # "LEAST_REQUEST, not round robin" for "LEAST_REQUEST rather than round robin"
        # A request ("Deploy it to staging") says nothing of what happened: no reference, unless
        # the item restates the request itself (all its words).
        candidates = [u for u in units if not (u.role == "user" and is_request(u.sentence))
                      or stems <= u.stems]
        top, best = best_units(stems, candidates)
        if top < max(min_overlap, MIN_SHARE * len(stems)):
            continue
        if not item_open and all(is_open(unit.text) and not _HEDGED.search(unit.sentence.casefold())
                                 for unit in best):
            return said  # a question stated as settled
        # A failure the item reports may be told in the next sentence ("Tried X. Reverted X."):
        # a negative clause may agree with a unit one word short of the best.
        reach = slack + (1 if negative(clause) else 0)
        near = [u for u in candidates if overlap(stems, u) >= max(min_overlap, top - reach)]
        if not any(_agrees(clause, unit, stems, item_open) for unit in near):
            return said
    return None
