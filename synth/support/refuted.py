"""A hypothesis that later events reject is never a fact or a decision.

A sentence is a hypothesis when it hedges (maybe, might, could be, suspect, my guess, let me
check whether, ...). A later event of the window rejects it when one of its sentences says so
(ruled out, not the cause, wasn't it, is fine, turned out, the real cause, did not help, no
effect, ...) and either shares a word with the hypothesis or points back at it ("that wasn't
it", "that hypothesis", "the real cause") from the next few events. An item that restates a
rejected hypothesis (that sentence holds most of its words) without saying it was rejected is
dropped; "the tokenizer was ruled out" is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.events import Event
from synth.support.polarity import is_open, negated
from synth.support.units import Unit, best_units, clauses, is_figure, key_tokens, sentences

_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|might|may be|could be|could|possibly|probably|suspect(?:ed|s)?|suspicions?|"
    r"wonder(?:ed|ing)? (?:whether|if)|"
    r"hypothes[ie]s|my (?:first )?guess|guess|hunch|theory|my (?:first |main )?bet|i[’']d bet|"
    r"i think|i thought|seems? to|looks? like|"
    r"(?:my )?(?:first|initial) thought|(?:i|we) (?:first )?assumed|at first|"
    r"let me (?:check|see|verify|test) (?:whether|if)|check(?:ing)? (?:whether|if)|"
    r"wonder(?:ing)? (?:whether|if))\b")
_REJECT = re.compile(
    r"\b(?:ruled? out|rules out|not the (?:cause|culprit|problem|issue|reason|bottleneck|leak|"
    r"source|bug)|(?:it|that|this)(?:'s| is| was)(?: not|n[’']t) the \w+|"
    r"(?:is|was|are|were)(?:n[’']t| not) (?:it|the (?:cause|culprit|problem|issue|"
    r"reason|bottleneck|leak|source))|(?:that|it)(?: was|'s| is)?n[’']t it|not it|"
    r"(?:is|was|are|were|looks?|seems?) fine|turned out|the (?:real|actual) (?:cause|culprit|"
    r"problem|issue|reason|bottleneck|leak|source|fix)|did(?:n[’']t| not) (?:help|reduce|fix|"
    r"change|improve|matter|make a difference)|no (?:effect|difference|change)|red herring|"
    r"unrelated|not related|false alarm|(?:is|was) not the problem|innocent|"
    r"(?:is|was|are|were)n[’']t it\b(?!\s*\?)|(?:is|was) not it|"
    r"(?:it|that|this) (?:isn[’']t|wasn[’']t|is not|was not) (?!\w+ing\b)\w+|"
    r"(?:(?:that|it|this)(?:[’']s| is| was)? not|isn[’']t|wasn[’']t) what|"
    r"(?:is|was|are|were)(?:n[’']t| not) the (?:limiter|limit|slow part|hot ?spot|answer|"
    r"explanation)|do(?:es)?(?:n[’']t| not) back (?:that|this|it) up|"
    r"scratch that|strike that|never ?mind|nope|i was wrong|wrong (?:guess|hunch|theory|idea)|"
    r"not an? (?:[\w-]+ ){0,2}(?:problem|issue|cause|bug|culprit|factor)|"
    r"(?:it|this|that) still (?:froze|freezes|hangs|hung|fails|failed|crashes|crashed|leaks|leaked|"
    r"stalls|stalled|times out|timed out)|(?:fails?|failed|crash(?:es|ed)?) exactly as before|"
    r"(?:the )?(?:exact )?same (?:error|failure|crash|stack ?trace)(?: as before| again)?)\b")
_POINTS_BACK = re.compile(r"\b(?:that|this|the|my) (?:hypothesis|theory|guess|idea)\b|"
                          r"\bthat was(?:n[’']t| not)\b|\bthat wasn[’']t it\b|\bso (?:it|that)\b|"
                          r"\bthe (?:real|actual)\b|\b(?:it|this|that) still\b|\bsame (?:error|failure|crash)\b")
LOOKBACK = 3  # events: a reply that points back ("that wasn't it") answers a recent hypothesis


@dataclass(frozen=True)
class Hypothesis:
    """A hedged sentence (`own`) read with the sentence before it (`unit`, `stems`): "The
    timeout is 30s; maybe slow requests hit it." """

    unit: Unit
    stems: frozenset[str]
    own: frozenset[str]
    denies: bool = False  # the guess itself is negative ("the client never refreshed it")


def hypotheses(event: Event) -> list[Hypothesis]:
    """The hedged sentences of an event, each with the sentence before it for context."""
    found = sentences(event.content)
    out = []
    for i, sentence in enumerate(found):
        lowered = sentence.casefold()
        if hedge := _HEDGE.search(lowered):
            text = f"{found[i - 1]} {sentence}" if i else sentence
            turn = re.search(r",?\s+(?:but|so|which i[’']ll|and i[’']ll)\b|;", lowered[hedge.end():])
            guess = lowered[:hedge.end() + turn.start()] if turn else lowered  # not what follows
            own = {stem for stem in key_tokens(_HEDGE.sub(" ", guess)) if not is_figure(stem)}
            out.append(Hypothesis(Unit.of(text, event.seq, event.role), frozenset(key_tokens(text)),
                                  frozenset(own), negated(_HEDGE.sub(" ", guess))))
    return out


_BELIEF_BUT = re.compile(r"\b(?:i|we) (?:first )?(?:thought|assumed|expected|believed)\b[^.;]*,\s*but\b")


def _self_rejected(text: str) -> bool:
    """"I thought X, but ..." or "I wondered whether X, but it is fine": the sentence that
    raises the hypothesis drops it after its "but"."""
    if _BELIEF_BUT.search(re.sub(r"`[^`]*`", "code", text)):  # code may hold dots
        return True
    hedge = _HEDGE.search(text)
    turn = re.search(r"\bbut\b", text[hedge.end():]) if hedge else None
    return turn is not None and _REJECT.search(text[hedge.end() + turn.end():]) is not None


def _rejects(hypothesis: Hypothesis, event: Event, distance: int) -> bool:
    for sentence in sentences(event.content):
        text = sentence.casefold()
        if not _REJECT.search(text):
            continue
        if hypothesis.stems & set(key_tokens(sentence)):
            return True
        if distance <= LOOKBACK and _POINTS_BACK.search(text):
            return True
    return False


def rejected_hypotheses(cited: list[Event], window: list[Event]) -> list[Hypothesis]:
    """Hypotheses of the cited events that a later event of the window rejects."""
    order = {event.seq: i for i, event in enumerate(window)}
    out = []
    for event in cited:
        start = order.get(event.seq)
        if start is None:
            continue
        for hypothesis in hypotheses(event):
            # The hypothesis event itself may reject it in a later sentence, then the next ones.
            later = [(0, Event(event.seq, event.ts, event.session_id, event.role, event.kind,
                               _after(event.content, hypothesis.unit.text)))]
            later += [(i - start, window[i]) for i in range(start + 1, len(window))]
            self_rejected = _self_rejected(hypothesis.unit.text.casefold())
            if self_rejected or any(_rejects(hypothesis, other, distance)
                                    for distance, other in later):
                out.append(hypothesis)
    return out


def _after(text: str, sentence: str) -> str:
    at = text.find(sentence)
    return text[at + len(sentence):] if at >= 0 else ""


def restates_rejected(text: str, rejected: list[Hypothesis], units: list[Unit]) -> str | None:
    """The clause of the item that states a rejected hypothesis as true, if any."""
    if not rejected:
        return None
    for sentence in sentences(text):
        lowered = sentence.casefold()
        if _REJECT.search(lowered) or _HEDGE.search(lowered) or is_open(lowered):
            continue  # says it was ruled out, or keeps it a hypothesis or a question
        for clause in clauses(sentence):
            stems = set(key_tokens(clause))
            top, best = best_units(stems, units + [h.unit for h in rejected])
            if top < 2:  # a word or two in common is no restatement
                continue
            # a clause that denies what the guess says ("the pool is not the leak") restates its
            # rejection; a bare "maybe" makes no hypothesis of its own
            if any(h.unit in best and h.own and len(stems & h.own) >= len(h.own) / 2
                   and negated(clause) == h.denies for h in rejected):
                return clause
    return None


# "I think we should ..." proposes; it guesses nothing.
_PROPOSAL = re.compile(r"\b(?:i think|probably|maybe|perhaps)\s+(?:we|i|you)\s*(?:should|[’']ll|will|"
                       r"could|can|need)\b|\b(?:i think|probably)\s+(?:let[’']s|go with|best)\b")


def _guess(sentence: str) -> frozenset[str] | None:
    """The words a hedged sentence guesses (what stands after its hedge, up to its turn), or
    None where it guesses nothing."""
    lowered = sentence.casefold()
    hedge = _HEDGE.search(lowered)
    if hedge is None or _PROPOSAL.search(lowered) or _REJECT.search(lowered):
        return None
    if re.match(r"\s*\)", lowered[hedge.end():]):
        return None  # "(hours, probably)": an aside hedges a detail, not what the sentence tells
    if re.match(r"\s*(?:cause|explain|lead to|trigger|result in)\b", lowered[hedge.end():]):
        # "a few things could cause one replica to fall behind": the cause is guessed, not
        # that it fell behind
        subject = frozenset(s for s in key_tokens(lowered[:hedge.start()]) if not is_figure(s))
        return subject if len(subject) >= 2 else None
    # a guess ends where a plan or a turn starts ("..., so I'll check", "but"); "so a retried
    # task would append a copy" is still the guess
    turn = re.search(r",?\s+(?:but|so (?:i|we|let)\b|which i[’']ll|and i[’']ll)\b|;",
                     lowered[hedge.end():])
    guess = lowered[hedge.start():hedge.end() + turn.start()] if turn else lowered[hedge.start():]
    if len(key_tokens(_HEDGE.sub(" ", guess))) < 2:  # "X, I suspect that mismatch": X is the guess
        guess = lowered
    return frozenset(stem for stem in key_tokens(_HEDGE.sub(" ", guess)) if not is_figure(stem))


_CONFIRM = re.compile(r"\b(?:confirmed|confirms|indeed|sure enough|as (?:i )?suspected|"
                      r"that(?:[’']s| was| is) it\b|(?:that|it)(?:[’']s| is| was) the (?:cause|culprit))")


def _confirmed(guess: set[str], first: Unit, units: list[Unit]) -> bool:
    """A sentence after the guess confirms it ("Confirmed: the new tokenizer splits ...")."""
    later = units[units.index(first) + 1:] if first in units else []
    return any(unit.seq >= first.seq and unit.sentence != first.sentence
               and _CONFIRM.search(unit.sentence.casefold()) and guess & unit.stems
               for unit in later)


_CANDIDATES = re.compile(r"\b(?:candidates?|possibilities|possible (?:causes?|culprits?)|suspects?)\b")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def _listed_guess(unit: Unit, units: list[Unit]) -> frozenset[str] | None:
    """A bullet under a hedged lead-in ("A few things could cause it:", "Candidates:") is a
    guess too: its words."""
    if not _BULLET.match(unit.sentence) or unit not in units:
        return None
    for before in reversed(units[:units.index(unit)]):
        if before.seq != unit.seq:
            return None
        if _BULLET.match(before.sentence):
            continue
        lead = before.sentence.casefold().rstrip()
        if lead.endswith(":") and (_HEDGE.search(lead) or _CANDIDATES.search(lead)):
            return frozenset(s for s in key_tokens(unit.sentence) if not is_figure(s))
        return None
    return None


def states_guess(text: str, units: list[Unit]) -> str | None:
    """The clause of the item that states as a fact what every sentence it restates only
    guesses ("I suspect the pool is the leak" → "the pool was the leak"): a guess is no fact,
    whatever came of it later, unless a cited sentence tells it."""
    for sentence in sentences(text):
        lowered = sentence.casefold()
        if _REJECT.search(lowered) or _HEDGE.search(lowered) or is_open(lowered):
            continue
        for clause in clauses(sentence):
            stems = set(key_tokens(clause))
            top, best = best_units(stems, units)
            if top < max(2, len(stems) / 2):
                continue
            if negated(clause):
                continue  # "not from engine drift": it tells the guess was wrong
            guessed = [_guess(unit.sentence) or _listed_guess(unit, units) for unit in best]
            if all(own and len(stems & own) >= max(2, len(stems) / 2) for own in guessed) and not (
                    _confirmed(set().union(*guessed), min(best, key=units.index), units)):
                return clause
    return None
