"""Cheap features of a candidate statement, per report section: cue words, figures and names,
who said it, where it stands; and the statements that only plan, hedge or chat.

Scores are additive weights; a section's score below the floor of `select` keeps the statement
out of that section. The cue lists are general English of coding sessions, not words of one set.
"""

from __future__ import annotations

import re

from synth.extract.candidates import Candidate

SECTIONS = ("worked_on", "decisions", "outcomes", "blockers", "open_questions",
            "preferences_learned")


def _cues(*patterns: str) -> re.Pattern:
    return re.compile(r"(?i)(?:" + "|".join(patterns) + r")")


DECISION = _cues(
    r"\bdecid(?:e|ed|ing)\b", r"\bdecision\b", r"\bcho(?:se|sen|ose)\b", r"\bwent with\b",
    r"\bgo(?:ing)? with\b", r"\bswitch(?:ed|ing)? (?:\w+ )*?to\b", r"\bmov(?:e|ed|ing) to\b",
    r"\bmigrat(?:e|ed|ing) to\b", r"\breplac(?:e|ed|ing)\b",
    r"\b(?:mov|switch|migrat|port)\w* (?:[\w.-]+ ){0,4}?from \S+ to\b", r"\binstead of\b", r"\brather than\b",
    r"\bwe(?:'ll| will) use\b", r"\bwill use\b", r"\bpinn?(?:ed)?\b", r"\bkeep(?:ing)? \S+ as\b",
    r"\bkept\b", r"\badopt(?:ed)?\b", r"\bopt(?:ed)? for\b", r"\bsettled on\b", r"\bthe plan is\b",
    r"\bwe should\b", r"\blet'?s (?:use|go|keep|do|switch|move|merge|drop)\b", r"\bby default\b",
    r"\bprefer(?:red)? \S+ over\b", r"\bin favou?r of\b", r"\bapproach\b",
)
OUTCOME = _cues(
    r"\bpass(?:es|ed|ing)?\b", r"\bfail(?:s|ed|ing|ure|ures)?\b", r"\bgreen\b", r"\bworks?\b",
    r"\bfixed\b", r"\bresolved\b", r"\bsucceed(?:s|ed)?\b", r"\bverif(?:y|ies|ied)\b",
    r"\bcompiles?\b", r"\bbroke\b", r"\bregress", r"\bdid not\b", r"\bdidn't\b", r"\bstill\b",
    r"\b(?:dropped|went|fell|rose|grew|shrank|improved|reduced|increased|decreased) (?:\w+ )*?"
    r"(?:from|to|by)\b", r"\bnow (?:\w+ )?(?:stays|takes|is|runs|returns|verif)",
    r"\btimed out\b", r"\berror\b", r"\bran\b", r"\btook\b", r"\btests?\b", r"\bmerged\b",
    r"\bdeployed\b", r"\bshipped\b", r"\bno longer\b", r"\bturned out\b", r"\broot cause\b",
    r"\b(?:is|are|was|were) (?:now )?done\b", r"\bunblocked\b", r"\bsuccessfully\b",
    r"\breal cause\b", r"\bcaused by\b", r"\bruled out\b",
)
FACT = _cues(
    r"\bbecause\b", r"\bturn(?:s|ed) out\b", r"\bcause\b", r"\bper (?:second|minute|hour|day|"
    r"request|tenant|user|key)\b", r"\blimit\b", r"\bquota\b", r"\bis (?:the|a|an|not|only|"
    r"always|never)\b", r"\bare (?:the|not|only|always|never)\b", r"\bdefaults? to\b",
    r"\buses\b", r"\bowns?\b", r"\brequires?\b", r"\bsupports?\b", r"\bdepends on\b",
    r"\bgitignored\b", r"\balready\b", r"\bonly\b", r"\bknows?\b", r"\bauto-?generates?\b",
    r"\b(?:shows?|showed|reveals?|revealed|points? to|indicates?)\b",  # a finding
)
QUESTION = _cues(
    r"\bopen question\b", r"\bquestion\b", r"\bnot (?:yet )?(?:settled|decided|sure)\b",
    r"\bunclear\b", r"\bundecided\b", r"\bto be decided\b", r"\btbd\b", r"\bshould (?:we|the)\b",
    r"\bdo we\b", r"\bwho owns\b", r"\bwhether\b",
)
PREFERENCE = _cues(
    r"\bi (?:prefer|like|want|need|'d like|would like|do not want|don't want)\b", r"\bprefer",
    r"\balways\b", r"\bnever\b", r"\bplease\b", r"\bdon'?t\b", r"\bdo not\b", r"\bavoid\b",
    r"\bmake sure\b", r"\bkeep (?:the |it |them |labels |\w+ )?\w+\b", r"\bmust\b",
    r"\bno more\b", r"\bfrom now on\b", r"\bin future\b", r"\bnext time\b",
)
BLOCKER = _cues(
    r"\bblock(?:ed|er|ing|s)?\b", r"\buntil\b", r"\bwait(?:s|ing)? (?:for|on)\b",
    r"\bcannot\b", r"\bcan't\b", r"\bneeds? to\b", r"\btodo\b(?!\s+(?:app|list|items?)\b)",
    r"\bnext step\b",
    r"\bfollow[- ]up\b", r"\bpending\b", r"\bticket\b", r"\bdepends on\b", r"\bis down\b",
    r"\bapprov(?:e|al|es)\b", r"\bonce\b",
)
# A change the agent reports having made: "Bounded the cache ...", "Added a covering index ...".
ACTION = re.compile(r"^(?:i |we )?(?:[A-Z]?[a-z]+(?:-[a-z]+)?ed|built|made|set|put|wrote|kept|split|cut|"
                    r"rewrote|moved|chose|went)\b(?! (?:to|by|out|up)\b)")
REQUEST = _cues(
    r"^(?:please\s+)?(?:add|fix|make|build|implement|deploy|run|upgrade|update|find|write|"
    r"create|investigate|refactor|remove|support|migrate|set up|work on|look into|debug)\b",
    r"\bcan you\b", r"\bcould you\b", r"^(?:i|we) need\b",
)
# Statements that plan, narrate the agent's next step, hedge or chat: not memories.
CHATTER = _cues(
    r"^(?:now |first,? |next,? |then,? |ok(?:ay)?,? )?(?:let me|let's (?:check|look|see|read|start|"
    r"run|try)|i'll|i will|i'm going to|i am going to|i need to (?:check|read|look|see|find|"
    r"update|add|fix)|we need to (?:check|read|look))\b",
    r"^(?:now |first,? |next,? )?(?:looking|checking|reading|running|searching|exploring|"
    r"updating|adding|creating|writing)\b", r"^(?:now|next|first)\b.{0,40}:$",
    r"\bwould you like\b", r"\bdo you want\b", r"\bshall i\b", r"\bshould i\b", r"\bhere is\b",
    r"\bhere's\b", r"\bas (?:requested|specified)\b", r"\bi see\b", r"\bgot it\b",
    r"\bhappy to\b", r"\blet me know\b", r"\bfeel free\b", r"\bsounds good\b",
    r"^(?:since|because|as|now that|given)\b[^.]{0,80}?,\s*(?:i'll|i will|let me|i'm going to)\b",
    r"^(?:i |we )?(?:still )?need to\b", r"^(?:but|and|so|also)\b",
    r"^(?:now|first|next|then|finally),?\s+(?:`[^`]+`\s*[—–-]\s*)?(?:update|add|fix|check|read|run|"
    r"write|remove|create|rewrite|implement|rename|replace|move|test|verify|look|make)\b",
)
# A statement that leans on what came before ("The file includes ...", "It now ...", "the
# following:"): read alone later, it names nothing.
DANGLING = re.compile(r"(?i)^(?:it|this|that|these|those|they|them|here|the (?:file|one|only one|"
                      r"following|above|below|same|latter|former)|add the following)\b|"
                      r"\bthe following\b[^.]*:?$")
# Routine steps a teammate does not need: a file read with nothing found, a clean lint run.
ROUTINE = _cues(
    r"\bnothing (?:relevant|interesting|to (?:change|do))\b", r"\bno (?:warnings|changes|issues)\b",
    r"\b(?:ran|run) the (?:linter|formatter)\b", r"^read (?:the )?\S+", r"\bas expected\b",
)
HEDGE = _cues(
    r"\bmaybe\b", r"\bmight\b", r"\bperhaps\b", r"\bpossibly\b", r"\bprobably\b",
    r"\bcould be\b", r"\bsuspect\b", r"\bhypothes[ie]s\b", r"\bmy (?:first )?guess\b",
    r"\bi think\b", r"\bseems? (?:to|like)\b", r"\bcheck(?:ing)? (?:whether|if)\b",
)
REFUTES = _cues(
    r"\bruled out\b", r"\bnot the (?:cause|leak|problem|issue|culprit)\b", r"\bis fine\b",
    r"\bare fine\b", r"\bwasn'?t\b", r"\bturn(?:s|ed) out\b", r"\bthe real\b", r"\bactually\b",
    r"\bnot (?:it|related)\b", r"\bno difference\b", r"\bwrong\b",
)
RESOLVES = _cues(
    r"\bunblock(?:ed|s)?\b", r"\bno longer blocked\b", r"\bis back\b", r"\bare back\b",
    r"\b(?:got|was|were|is|are) approved\b", r"\bresolved\b", r"\bworks again\b",
    r"\bback up\b", r"\bfixed now\b", r"\bnow (?:works|passes|green)\b", r"\bdone\b",
    r"\bsigned off\b", r"\bsign-off\b", r"\bgo ahead\b", r"\bgreen light\b", r"\bapproved\b",
    r"\bgave (?:us )?the (?:ok|okay|go)\b", r"\bdeployed\b", r"\bshipped\b", r"\bmerged\b",
)
# Text that addresses a model or asks for a memory to be written: a pasted injection.
STEERS = _cues(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|above|"
    r"earlier|your)\s+(?:instructions|prompts?|rules|directions)", r"\bsystem prompt\b",
    r"\byou are now\b", r"\bnew instructions?\s*:", r"\bnote to (?:the |any )?(?:assistant|ai|"
    r"model|bot|llm|agent|summari[sz]er)", r"\b(?:write|note|put) (?:it )?down that\b",
    r"\bwhen (?:you )?summari[sz]", r"\b(?:assistant|ai|model)s? (?:reading|summari[sz]ing) this\b",
    r"\bwho(?:ever)? (?:writes?|sums?|summari[sz]es|records?|reads?) (?:up )?this\b",
    r"\b(?:record|store|save|remember|log|keep|file) (?:this|these|both|it|them|that|all)? ?(?:as|in) "
    r"(?:the |a |our )?(?:team |project )?(?:decision|memor|fact|preference|rule|polic)", r"\b(?:store|save|record|write|add) (?:a |"
    r"this |the following )?(?:memory|memories|note) (?:that|saying)\b", r"\bremember that\b.{0,40}"
    r"\b(?:password|token|key|secret)\b", r"\bjailbreak\b",
)
_FIGURE = re.compile(r"(?<![\w.])\d[\d,.]*\s?(?:%|ms|s|m|h|gb|mb|kb|px|x|vcpu|rows|tests?|"
                     r"minutes?|seconds?|hours?|days?|requests?|messages?|entries)?\b", re.I)
_NAME = re.compile(r"`[^`]+`|\b\w+\.(?:py|js|ts|tsx|rs|go|ex|exs|rb|java|toml|ya?ml|json|sql|md|"
                   r"css|html|sh|txt)\b|\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z]{2,}[\w-]*\b|"
                   r"(?:[\w.-]+/)+[\w.-]+")

WEIGHTS = {
    "worked_on": (REQUEST, 1.2),
    "decisions": (DECISION, 1.0),
    "outcomes": (OUTCOME, 0.8),
    "blockers": (BLOCKER, 1.0),
    "open_questions": (FACT, 0.6),
    "preferences_learned": (PREFERENCE, 1.0),
}


def _hits(pattern: re.Pattern, text: str) -> int:
    return min(len(pattern.findall(text)), 3)


def _english(text: str) -> bool:
    """Mostly Latin letters: text the English cue lists can read."""
    letters = [ch for ch in text if ch.isalpha()]
    return sum(ch.isascii() for ch in letters) >= 0.8 * len(letters) if letters else True


def section_scores(candidate: Candidate) -> dict[str, float]:
    """How much the statement reads as an item of each section (higher is more)."""
    text = candidate.text
    user = candidate.role == "user"
    figures = min(len(_FIGURE.findall(text)), 3)
    names = min(len(_NAME.findall(text)), 3)
    specific = 0.35 * figures + 0.25 * names
    scores = {name: _hits(pattern, text) * weight for name, (pattern, weight) in WEIGHTS.items()}
    scores["outcomes"] += specific + (0.3 * figures)
    scores["open_questions"] += specific + 1.5 * (_hits(QUESTION, text) > 0)
    scores["open_questions"] += 0.8 * text.rstrip().endswith("?")
    acted = not user and ACTION.search(text) is not None
    # An agent naming "GDPR" and "Next.js" decides nothing; in a language the cue lists do not
    # speak, names are all there is to go by.
    if scores["decisions"] > 0 or acted or user or not _english(text):
        scores["decisions"] += 0.5 * names
    scores["blockers"] += 1.0 * bool(re.search(r"(?i)\bblock|(?-i:\bTODO\b)(?!\s+(?:app|list|items?)\b)"
                                               r"|\bfollow[- ]up\b", text))
    if acted:
        scores["decisions"] += 1.0
    if user:
        scores["decisions"] += 1.0 * (_hits(DECISION, text) > 0)  # the user's call is a decision
        scores["preferences_learned"] += 0.6
        scores["worked_on"] += 0.8 * candidate.first_of_event
        scores["outcomes"] -= 0.5
    else:
        scores["preferences_learned"] *= 0.3
        scores["worked_on"] *= 0.4
    if text.rstrip().endswith("?") and not _hits(QUESTION, text):
        for name in ("decisions", "outcomes", "preferences_learned"):
            scores[name] -= 1.5
    penalty = 2.5 * (_hits(CHATTER, text) > 0) + 1.5 * (_hits(HEDGE, text) > 0)
    penalty += 2.0 * (_hits(ROUTINE, text) > 0) + 1.0 * (candidate.listed and not user)
    penalty += 2.0 * ("«" in text)  # a masked value: what it held is gone, so is the point
    penalty += 1.0 * (DANGLING.search(text) is not None)
    return {name: round(score - penalty, 3) for name, score in scores.items()}


def is_hypothesis(candidate: Candidate) -> bool:
    return _hits(HEDGE, candidate.text) > 0 and not _hits(REFUTES, candidate.text)


def refutes(candidate: Candidate) -> bool:
    return _hits(REFUTES, candidate.text) > 0


def resolves(candidate: Candidate) -> bool:
    return _hits(RESOLVES, candidate.text) > 0


_VERB = re.compile(r"[a-z]{4,}")


_IRREGULAR = {"leave": "left", "write": "wrote written", "make": "made", "build": "built",
              "run": "ran", "take": "took taken", "send": "sent", "keep": "kept", "find": "found",
              "give": "gave given", "bring": "brought", "choose": "chose chosen",
              "begin": "began begun", "tell": "told", "sell": "sold", "hold": "held",
              "spend": "spent", "lend": "lent", "rebuild": "rebuilt", "rewrite": "rewrote"}
_VERB_OR_SHORT = re.compile(r"[a-z]{3,}")


def done_forms(text: str) -> set[str]:
    """The past forms of a statement's words: what a later statement says when the awaited act
    happened ("renew the certificate" ... "renewed the certificate", "leave a TODO" ... "left
    a TODO")."""
    forms = {form for word in _VERB_OR_SHORT.findall(text.casefold())
             for form in _IRREGULAR.get(word, "").split()}
    for word in _VERB.findall(text.casefold()):
        stem = word[:-1] if word.endswith("e") else word
        forms |= {stem + "ed", word + "d" if word.endswith("e") else word + "ed"}
        if word.endswith("y"):
            forms.add(word[:-1] + "ied")
    return forms


def reports_done(blocker: Candidate, later: Candidate) -> bool:
    """A later statement reports the blocker's own act as done, with no block of its own."""
    return (not _hits(BLOCKER, later.text.replace("TODO", "")) and
            bool(done_forms(blocker.text) & set(_VERB_OR_SHORT.findall(later.text.casefold()))))


def steers(candidate: Candidate) -> bool:
    return _hits(STEERS, candidate.text) > 0
