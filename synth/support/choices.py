"""Choices: the alternative an event did not take is never the item's choice.

"Switched the layout to flexbox instead of CSS grid" against "switched to CSS grid instead of
flexbox"; "uses X instead of Y" against "it now uses Y"; an item that rejects what the event chose
("rather than rayon" against "switched to rayon instead of hand-rolling a pool"); the option of
"two options: A, or B" that a later sentence did not pick ("I'd go with B"), or that the event
calls "the alternative"; an attempt the event tells failed ("tried a thread pool, but it
deadlocked") taken as the choice.
"""

from __future__ import annotations

import functools
import re

from synth.support.polarity import CHOOSE_OVER, TRIED_BUT, is_request, negated
from synth.support.units import is_figure, key_tokens, sentences

_MARKER = re.compile(r"\b(?:instead of|rather than|in place of|as opposed to|matters? more than|"
                     r"more important than|outweighs?)\b")
_SWAP = re.compile(r"\b(?:replac(?:e|ed|es)|swap(?:ped|s)?|switch(?:ed|es)? from|mov(?:ed|es) from|"
                   r"migrat(?:ed|es) from)\s+(?P<old>.+?)\s+(?:with|for|to|by)\s+(?P<new>.+)"
                   r"|\breplacing\s+(?P<old2>.+)(?P<new2>)"
                   r"|(?P<old3>.+?)\s+in favou?r of\s+(?P<new3>.+)")

_CHOICE_PARTS = re.compile(r",\s+|;\s+|:\s+|\s+(?=(?:because|since|so|which|while|whereas|although|"
                           r"though|but)\b)")


@functools.lru_cache(maxsize=1 << 14)
def _roles(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """(chosen, rejected, stated plainly, denied or failed) stems of the text, figures left to
    `figures`."""
    chosen: set[str] = set()
    rejected: set[str] = set()
    plain: set[str] = set()
    denied: set[str] = set()
    for sentence in sentences(text.casefold()):
        if sentence.rstrip().endswith("?"):  # "replace moment with date-fns?" asks, chooses nothing
            plain |= _stems(sentence)
            continue
        tried = TRIED_BUT.search(sentence)
        if tried:  # "tried X, but it deadlocked": X is no choice
            rejected |= _stems(sentence[tried.start():tried.end()])
            sentence = sentence[tried.end():]
        considered = _CONSIDERED_BUT.search(sentence)
        if considered:  # "I considered a two-kernel split but that adds a launch"
            rejected |= _stems(considered.group("what"))
            sentence = sentence[:considered.start()] + sentence[considered.end():]
        preferred = _PREFER_TO.search(sentence)
        if preferred:  # "prefer visible labels to aria-label"
            chosen |= _stems(preferred.group("kept") or preferred.group("kept2"))
            rejected |= _stems(preferred.group("other"))
            sentence = sentence[:preferred.start()] + sentence[preferred.end():]
        parts = [p.strip() for p in _CHOICE_PARTS.split(sentence) if p.strip()]
        for i, part in enumerate(parts):
            if _ALTERNATIVE.match(part):  # "the alternative was X"
                rejected |= _stems(part)
                continue
            if _MENTION.search(part):  # "considered X", "the other option": no claim either way
                continue
            if i and re.match(r"(?:and\s+)?not\s", part):  # "X, not Y"
                rejected |= _stems(part)
                chosen |= _stems(parts[i - 1])
                continue
            if negated(part) or _UNDONE.search(part) or _BROKE.search(part):
                denied |= _stems(part)  # "X was rolled back", "which would disturb Y", "X crashed"
                continue
            if CHOOSE_OVER.search(part):
                marker = re.search(r"\bover\b", part)
            else:
                marker = _MARKER.search(part)
            head = part[:marker.start()] if marker else part
            swap = _SWAP.search(head)
            if swap:
                rejected |= _stems(swap.group("old") or swap.group("old2") or swap.group("old3"))
                new = swap.group("new") or swap.group("new3") or ""
                chosen |= _stems(head[:swap.start()] + " " + new)
            elif marker:
                chosen |= _stems(head)
            if marker:
                rejected |= _stems(part[marker.end():])
            if not swap and not marker:
                plain |= _stems(part)
    return (frozenset(chosen - rejected), frozenset(rejected - chosen), frozenset(plain),
            frozenset(denied))


_PREFER_TO = re.compile(r"(?:\bprefer(?:s|red|ring)?\s+(?P<kept>(?:(?!\bover\b)[^,;:.])+?)\s+to|"
                        r"(?P<kept2>[^,;:.]+?)\s+(?:is|are|was|were|be)\s+preferred\s+(?:to|over))"
                        r"\s+(?P<other>[^,;:.]+?)"
                        r"(?=\s+(?:wherever|whenever|where|when|if|because|since|for)\b|[,;:.]|$)")
_ALTERNATIVE = re.compile(r"(?:the |an? )?(?:other |only )?(?:alternative|other option|fallback "
                          r"option)s?\s+(?:was|were|is|would be|would have been)\b")
_CONSIDERED_BUT = re.compile(r"\b(?:considered|thought about|looked at|weighed|evaluated)\s+"
                             r"(?P<what>.+?)\s+but\b")
_BROKE = re.compile(r"\b(?:crash(?:ed|es)|broke|deadlocked|hung|timed out)\b")
_UNDONE = re.compile(r"\b(?:roll(?:ed|s)? back|revert(?:ed|s)?|backed out|undone|undid|abandoned|"
                     r"deadlock(?:ed|s)?|would|could|might)\b")
_MENTION = re.compile(r"\b(?:considered|weighed|looked at|thought about|evaluated|alternatives?|used to|"
                      r"options?|rejected|ruled out|dropped the idea)\b")
_OPTIONS = re.compile(r"\b(?:two|three|four|\d|several|a few|a couple of) (?:options|ways(?: "
                      r"forward)?|approaches|choices|alternatives|paths|fixes|routes)\b[^:]*:\s*"
                      r"(?P<list>.+)|(?:^|\b)options?:\s*(?P<list2>.+)|\b(?:(?:i|we) can )?either\s+"
                      r"(?P<list3>.+\bor\b.+)|\b(?:we|i) could\s+(?P<list4>.+\bor\b.+)")
_PICK = re.compile(r"\b(?:i[’']?d|i would|we[’']?ll|i[’']?ll|let[’']?s|we should|i (?:will|would) "
                   r"rather)\s+(?:(?:go with|rather|pick|choose|prefer|take|do)\s+)?(?P<pick>[^,:;.]+)|"
                   r"\b(?:i[’']?m|we[’']?re) (?:going with |going for |doing |taking |picking )?"
                   r"(?P<doing>\w+ing\b[^,:;.]*)|"
                   r"^(?:going with|go with|went with|picking|choosing|doing)\s+(?P<lead>[^,:;.]+)|"
                   r"^(?:the )?(?P<one>[\w.-]+(?: [\w.-]+)?) (?:one|option|route|approach) is\b|"
                   r"^(?:(?:ok|okay|yes|agreed?|sure|good)[,.!]?\s+)?(?P<short>[\w\s-]{2,30}?),?\s+"
                   r"(?:yes|please|it is|go)\b|^(?:agreed?|yes|ok|okay|sure)[,.!]?\s+"
                   r"(?P<after>[\w\s-]{2,30}?)[.!]")
_NUMBERED = re.compile(r"\((?:\d|[a-c])\)|\boption (?:\d|[a-c])\b")


_ORDINALS = {"first": 0, "former": 0, "1st": 0, "second": 1, "latter": 1, "2nd": 1, "third": 2,
             "3rd": 2}


def _ordinal(pick: str) -> int | None:
    """Which option a pick names by its place ("the second", "the former"), if any."""
    found = re.search(r"\b(?:the\s+)?(first|former|1st|second|latter|2nd|third|3rd)"
                      r"(?:\s+(?:one|option|approach|way|route))?\s*[.!]?$", pick.strip())
    return _ORDINALS[found.group(1)] if found else None


_LIST_INTRO = re.compile(r"\b(?:options?|ways?(?: forward| out)?|approaches|choices|alternatives|fixes|"
                         r"(?:we|i) (?:can|could))\b[^:]*:\s*$")
_BULLET = re.compile(r"^\s*(?:[-*•]\s+|\(?\d[.)]\s+|\(?[a-c][.)]\s+)(?:\*\*)?\(?(?P<label>[a-c]|\d)?"
                     r"\)?(?:\*\*)?\s*[:.)]?\s*")
_LABEL_PICK = re.compile(
    r"^(?:(?:ok(?:ay)?|yes|yep|sure|agreed?|fine|then)[,.!]?\s+)?"
    r"(?:(?:i[’']?d|i would|i[’']?ll|we[’']?ll|let[’']?s|my pick (?:is|would be))\s+)?"
    r"(?:(?:go|going) with\s+|do\s+|pick\s+|take\s+|lean(?:ing)?(?: towards?)?\s+)?"
    r"(?:option\s+|plan\s+)?\(?\*{0,2}(?P<label>[a-c]|\d)\*{0,2}\)?(?:\s*[.,!:;)]|\s+[—–-]\s|$|"
    r"\s+(?:it is|please|then|yes|sounds (?:right|good|fine)|works|is (?:fine|good|ok)|makes sense|"
    r"for now)\b)")


def _listed(found: list[str]) -> list[list[tuple[str, str]]]:
    """The option lists of a text told as bullets after "Two options:": each a list of (label,
    bullet sentence); a bullet without a label of its own is labelled by its place."""
    lists, i = [], 0
    while i < len(found):
        if _LIST_INTRO.search(found[i]):
            bullets = []
            j = i + 1
            while j < len(found):
                if _BULLET.match(found[j]):
                    label = _BULLET.match(found[j]).group("label") or str(len(bullets) + 1)
                    bullets.append((label, found[j]))
                elif not (bullets and j + 1 < len(found) and _BULLET.match(found[j + 1])):
                    break  # a sentence between two bullets goes on the one before
                j += 1
            if len(bullets) >= 2:
                lists.append(bullets)
            i = j
        else:
            i += 1
    return lists


def _bullet_picks(found: list[str]) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """For each bullet of a listed option, (the picked option's stems, the others'), where a
    later sentence picks one by its label ("B.", "option 2") or by its words ("I'd go with the
    manifest"). An option a later sentence asks for as well ("but also add the assert") is
    rejected by none."""
    out = {}
    for bullets in _listed(found):
        last = found.index(bullets[-1][1])
        bodies = [_stems(_BULLET.sub("", text, count=1)) for _, text in bullets]
        letters = "abc"
        picked = None
        for sentence in found[last + 1:]:
            match = _LABEL_PICK.match(sentence.strip())
            if match:
                label = match.group("label")
                for index, (own, _) in enumerate(bullets):
                    if own == label or (label in letters and letters.index(label) == index
                                        and not own.isalpha() and not own.isdigit()):
                        picked = index
                if picked is not None:
                    break
        if picked is None:
            picked = _picked_by_words(bodies, found[last + 1:])
        if picked is None:
            continue
        after = found[last + 1:]
        for _, text in bullets:
            others = set().union(*(body for k, body in enumerate(bodies) if k != picked))
            out[text] = (frozenset(bodies[picked]),
                         frozenset(others - bodies[picked] - _also_options(bodies, picked, after)))
    return out


def _pick_text(sentence: str) -> str | None:
    """What a sentence picks ("I'd go with forkserver" → "forkserver"), if it picks."""
    match = _PICK.search(sentence)
    return next(group for group in match.groups() if group) if match else None


def _picked_by_words(bodies: list[set[str]], after: list[str]) -> int | None:
    """The bullet a later sentence picks by its words ("I'd go with forkserver"): the one its
    pick shares most words with, alone."""
    for sentence in after:
        text = _pick_text(sentence)
        if not text:
            continue
        pick = _stems(text)
        scores = [len(body & pick) for body in bodies]
        if max(scores) and scores.count(max(scores)) == 1:
            return scores.index(max(scores))
    return None


_ALSO = re.compile(r"\b(?:also|too|as well|both|plus|in addition)\b")


def _also_options(bodies: list[set[str]], picked: int, after: list[str]) -> set[str]:
    """The stems of the options not picked that a later sentence asks for too."""
    found: set[str] = set()
    for index, body in enumerate(bodies):
        if index == picked:
            continue
        own = body - set().union(*(other for k, other in enumerate(bodies) if k != index))
        for later in after:
            stems = _stems(later)
            held = stems & own  # the words that option alone holds
            # "insert_overwrite would drop the dedupe": what the other option would do, no ask
            if (len(held) >= 2 and len(held) > len(stems & bodies[picked]) and not negated(later)
                    and not _LABEL_PICK.match(later.strip()) and not _UNDONE.search(later)
                    and (_ALSO.search(later) or is_request(later))):
                found |= body
    return found


def picked_options(text: str) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """For each sentence of the text that lists options ("two options: A, or B"), the stems of
    the option a sentence of the text picks ("I'd go with B", "B, yes") and of the others."""
    found = sentences(text.casefold())
    picks = [(set(key_tokens(text)), _NUMBERED.findall(text), _ordinal(text))
             for sentence in found for text in [_pick_text(sentence)] if text]
    out = _bullet_picks(found)
    for sentence in found:
        listed = _OPTIONS.search(sentence)
        if not listed:
            continue
        body = next(group for group in listed.groups() if group)
        parts = re.split(r",?\s+or\s+|;\s+", body)
        options = [_stems(part) for part in parts]
        options = [option for option in options if option]
        for pick, numbered, ordinal in picks:
            scores = [len(option & pick) for option in options]
            for mark in numbered:  # "going with (1)"
                scores = [score + 10 * (mark in part) for score, part in zip(scores, parts)]
            if ordinal is not None and ordinal < len(scores):  # "I'd rather do the second"
                scores[ordinal] += 10
            if len(options) >= 2 and max(scores) and scores.count(max(scores)) == 1:
                best = options[scores.index(max(scores))]
                others = set().union(*(o for o in options if o is not best)) - best
                out[sentence] = (frozenset(best), frozenset(others))
                break
    return out


def _stems(text: str) -> set[str]:
    return {stem for stem in key_tokens(text) if not is_figure(stem)}


def choice_conflict(text: str, cited: str) -> set[str]:
    """Stems an item sentence takes as chosen (or states plainly) that the cited sentence it
    restates rejected ("flexbox instead of CSS grid" for "CSS grid instead of flexbox")."""
    picked = picked_options(cited)
    # (stems, (chosen, rejected, plain, listed options: their 4th is True))
    theirs = [(set(key_tokens(s)), (*picked[s.casefold()], frozenset(), True)
               if s.casefold() in picked else (*_roles(s)[:3], False)) for s in sentences(cited)]
    denied = set().union(*(_roles(s)[3] for s in sentences(cited) if s.casefold() not in picked))
    found: set[str] = set()
    for sentence in sentences(text):
        stems = set(key_tokens(sentence))
        scored = [(len(stems & held), roles) for held, roles in theirs]
        top = max((count for count, _ in scored), default=0)
        if top < 2:
            continue
        mine_chosen, mine_rejected, mine_plain, mine_denied = _roles(sentence)
        mine = (mine_chosen | mine_plain) - mine_rejected
        # an item that itself tells the rejected option failed or was denied restates it
        clashes = [_clash(mine, mine_denied, roles) for count, roles in scored if count == top]
        if all(clashes):  # every sentence it may restate rejected what it states
            found |= set().union(*clashes)
        # what it rejects is what a sentence it restates chose ("rather than rayon" against
        # "switched to rayon instead of hand-rolling the pool")
        near = [roles for count, roles in scored if count >= top - 1]
        for chosen, rejected, _, _ in near:  # both roles swapped: the inverted choice
            took, left = (mine_chosen - mine_rejected) & rejected, (mine_rejected - mine_chosen) & chosen
            if took - chosen and left - rejected:
                found |= took | left
        if not any(mine_rejected & rejected for _, rejected, _, _ in near) and not (
                mine_rejected & denied):  # "rather than a long query" after "not a blocking query"
            for chosen, rejected, _, _ in near:
                if not mine_chosen & chosen:
                    found |= (mine_rejected - mine_chosen) & (chosen - rejected)
        found |= _now_rejected(mine_chosen - mine_rejected, mine_rejected - mine_chosen,
                               theirs, sentences(cited))
    return found


def _clash(mine: set[str], denied: frozenset[str], roles: tuple) -> set[str]:
    """What the item states that the sentence rejected; nothing where the item itself tells
    the rejected option failed, or where it names more of a picked option than of the others
    (a subject the options share: "hand the export to X, or stream it"), or fewer than three of
    a listed option's words."""
    chosen, rejected, plain, listed = roles
    clash = mine & (rejected - chosen - plain)
    if denied & rejected or (listed and (len(clash) <= len(mine & chosen) or len(clash) < 3)):
        return set()
    return clash


def _now_rejected(chosen: set[str], rejected: set[str], theirs: list,
                  texts: list[str]) -> set[str]:
    """The alternative an item rejects is what a cited sentence says holds now ("uses X instead
    of Y" against "it now uses Y"): its stems, where the sentence holds more of them than of the
    chosen ones."""
    if len(rejected) < 2:
        return set()
    for (held, (their_chosen, _, plain, _)), text in zip(theirs, texts, strict=True):
        now = held & rejected & (their_chosen | plain)
        if (re.search(r"\bnow\b(?!\s*\()", text.casefold()) and len(now) >= 2  # no `now()`
                and len(now) >= len(held & chosen)):
            return now
    return set()
