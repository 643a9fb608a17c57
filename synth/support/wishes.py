"""Wishes: what a user forbids is never what the item says they want or allow.

"don't pull in tokio for this" against "the user is fine with adding tokio"; "keep Celery out of
admin code" against "admin exports should run through Celery"; "no inline PTX please" against
"drop to inline PTX in the hot loop". The item restates the prohibition in other words, so it
shares too few of the sentence's words for the polarity rule; what it shares is what the user
denied. A clause of the item that holds two of the denied words (one, where the user named a
single thing) and says them plainly (no negation, no "only" keeping something else, no
question) conflicts.
"""

from __future__ import annotations

import re

from synth.support.polarity import _CHOICE_SPAN, _scope, is_open, is_request, negative
from synth.support.status import tells_done
from synth.support.units import Unit, key_tokens, sentences, split_clauses

# How a user forbids, at the start of a clause: "don't X", "never X", "no X please",
# "keep X out of Y", "I don't want X", "not a replacement".
_FORBID = re.compile(
    r"^[^\w]*(?:(?:ok(?:ay)?|fine|yes|yep|sure|right|good|agreed?|and|but|also|so|though|please|"
    r"pls|plz|fwiw|btw|oh|hey|just|then)[,.!]?\s+)*(?:(?:please\s+|pls\s+|plz\s+)?(?:do not|don[’']?t|"
    r"never|no\b|skip\b|keep\s+(?:\S+\s+){1,4}?"
    r"out of|(?:i|we)\s+(?:do not|don[’']?t)\s+want|(?:i|we)(?:[’']?d| would) rather (?:not|avoid)|"
    r"(?:i|we)(?:[’']?re| are|[’']?m| am) not (?:\w+ing|going to)\b|"
    r"avoid|let[’']?s avoid|"
    r"not\s+(?!sure|yet|really|that|too|much|very|quite|now|bad|great|only|just|all|a\b|an\b|the\b)"
    r"(?=\w+[.!]?$)))")  # "internal track first, not prod": a bare "not X" ends the sentence
# The item tells a wish or a permission: what the user wants, allows or prefers.
_WISH = re.compile(r"\b(?:wants?|wanted|prefers?|preferred|would rather|[’']d rather|(?:is|are|was|were) (?:fine|ok|okay|happy|"
                   r"comfortable|open|willing|keen) (?:with|to|for|on)|acceptable|allowed|may|can be|should|asked "
                   r"(?:for|to)|is to|are to|freely|propos(?:ed|es)|suggest(?:ed|s)|pushed for|"
                   r"insist(?:ed|s) on|in favou?r of)\b")
# A purpose the item gives ("as a fast way to stop the failing inserts") is no part of the wish.
_PURPOSE = re.compile(r"\s+(?=(?:as an? (?:\w+ )?way|so that|so|in order to|to (?:stop|avoid|prevent|"
                      r"get rid of|speed up|bring down|cut))\b)")
_ONLY = re.compile(r"\b(?:only|exclusively|solely)\b")
_EXCEPT = re.compile(r"\b(?:beyond|except|other than|besides|apart from|unless|more than|over)\b")
_KEEP_OUT = re.compile(r"\bkeep\s+((?:\S+\s+){1,4}?)out of\b")
# A user takes a prohibition back: "actually parking_lot is fine, use it"
_REVERSE = re.compile(r"\b(?:actually|on second thought|scratch that|never ?mind|changed my mind|"
                      r"after all)\b")
_ALLOW = re.compile(r"\b(?:(?:is|are|'s) (?:fine|ok|okay)|go ahead|go with|go w/|use it|allowed)\b")
_KEEP_AWAY = re.compile(r"\b(?:avoid\w*|stick(?:s|ing)? with|stay(?:s|ing)? away)\b")
_IMPERATIVE = re.compile(r"(?:drop|go|fall back|stick|keep|put|allow|let|bring|pull|send|store|"
                         r"write|call|ship|load|cache|skip|turn|resize|publish)\b")
_PARTICLES = frozenset("in out up down off back around over".split())
_PREPOSITIONS = frozenset("""in on at for to from with into onto during within inside until till
because since as when while if unless so but and or than please pls thanks tho though""".split())
_VERB = re.compile(r"\b(?:do not|don[’']?t|never|no|want|skip|avoid|rather not)\b")


# The way a prohibition leaves open: "don't touch prod datasets directly, only via dbt runs in ci"
_ONLY_WAY = re.compile(r"\bonly\s+(?:via|through|by|with|using|from|in|on)\s+(?P<way>[^,;.]+)")


def _ways(units: list[Unit]) -> set[str]:
    """What the user's prohibitions leave open, as words."""
    said = dict.fromkeys(unit.sentence.casefold() for unit in units if unit.role == "user")
    return {word for sentence in said if _FORBID.search(sentence)
            for found in [_ONLY_WAY.search(sentence)] if found
            for word in key_tokens(found.group("way"))}


def forbidden(units: list[Unit]) -> list[tuple[set[str], set[str]]]:
    """The denied words of each clause a user forbids something in, and those of them that are
    no verb (the first word after the prohibition is what not to do); none the user takes back
    later ("actually parking_lot is fine")."""
    return [(scope, objects) for scope, objects, taken_back in _prohibitions(units)
            if not taken_back]


def _taken_back(objects: set[str], later: list[Unit]) -> bool:
    return any(unit.role == "user" and _REVERSE.search(unit.sentence.casefold())
               and _ALLOW.search(unit.sentence.casefold()) and objects & unit.stems
               for unit in later)


def _prohibitions(units: list[Unit]) -> list[tuple[set[str], set[str], bool]]:
    found = []
    for index, unit in enumerate(units):
        if unit.role != "user" or unit.text != unit.sentence:
            continue  # each user sentence once, its clauses below
        for clause in split_clauses(unit.sentence) or [unit.sentence]:
            lowered = clause.casefold().strip()
            if not _FORBID.search(lowered) or not negative(clause) or _EXCEPT.search(lowered):
                continue  # "don't go beyond 4 connections" is a limit, no prohibition
            scope = _scope(clause)
            kept_out = _KEEP_OUT.search(lowered)
            if kept_out:  # "keep Celery out of admin code": Celery is what is kept out
                scope |= set(key_tokens(kept_out.group(1)))
            if scope:
                verb = _VERB.search(lowered)
                objects = _objects(lowered[verb.end():] if verb else lowered,
                                   no_verb=bool(verb) and verb.group(0) in ("no", "skip")) & scope
                if kept_out:
                    objects = set(key_tokens(kept_out.group(1)))
                objects = objects or scope - _objects(lowered, verb_only=True)
                found.append((scope, objects, _taken_back(objects, units[index + 1:])))
    return found


def _objects(after: str, verb_only: bool = False, no_verb: bool = False) -> set[str]:
    """What a prohibition denies: the words after its verb ("pull in tokio", "touch the global
    settings", "no UDFs") up to the first preposition; where it applies ("in integration tests")
    is no part of it. With `verb_only`, the verb alone."""
    words = re.findall(r"[\w.@/-]+", after)
    if words and not verb_only:
        words = words if no_verb else words[1:]  # the verb; "no UDFs please" has none
        while words and words[0] in _PARTICLES:
            words = words[1:]
        for i, word in enumerate(words):
            if word in _PREPOSITIONS:
                words = words[:i]
                break
        return set(key_tokens(" ".join(words)))
    return set(key_tokens(" ".join(words[:1])))


def wish_conflict(text: str, units: list[Unit]) -> str | None:
    """The first clause of `text` that tells as wanted or allowed what a user forbade."""
    found = _prohibitions(units)
    denied = [(scope, objects) for scope, objects, taken_back in found if not taken_back]
    pieces = [piece for sentence in sentences(text)
              for clause in split_clauses(sentence) or [sentence]
              for piece in _PURPOSE.split(clause) if piece.strip()]
    for _, objects, taken_back in found:  # "avoid parking_lot" after "actually parking_lot is fine"
        for clause in pieces if taken_back else []:
            if (negative(clause) or _KEEP_AWAY.search(clause.casefold())) and (
                    set(key_tokens(clause)) & objects):
                return clause
    ways = _ways(units)
    rejected = set(key_tokens(" ".join(_CHOICE_SPAN.findall(text.casefold()))))
    for scope, objects in denied:
        if any(negative(clause) and len(set(key_tokens(clause)) & scope) >= 2
               for clause in pieces):
            continue  # the item restates the prohibition; its other clauses tell why or how
        if rejected & scope:
            continue  # "rather than lifting the parts threshold, the user wants ...": the same
        for clause in pieces:
            if negative(clause) or is_open(clause) or _ONLY.search(clause.casefold()):
                continue
            if len(set(key_tokens(clause)) & ways) >= 2:
                continue  # "changes go through dbt runs in CI": the way the user left open
            # what the item itself rejects ("rather than by raising timeouts") restates the rule
            shared = set(key_tokens(_CHOICE_SPAN.sub(" ", clause.casefold()))) & scope
            # told as wanted, as an instruction, or as done ("Added a nightly VACUUM FULL"); a
            # clause that tells what the thing does ("VACUUM FULL locks the table") is a reason
            if shared & objects and (_WISH.search(clause.casefold()) or len(shared) >= 2 and (
                    is_request(clause) or _IMPERATIVE.match(clause.casefold().strip())
                    or tells_done(clause))):
                return clause
    return None
