"""Short user replies: which ones are events.

The reference client drops every event under 60 characters (contract §5.2), and with them the
answers that carry a decision: "yes do merge on order_id", "C)" after a numbered question, "use
pnpm". Here a user prompt of any length is an event unless it says nothing:

- a bare acknowledgement: only words of `ACK_WORDS` and phrases of `ACK_PHRASES` ("ok",
  "yes", "ok, continue", "thanks!", "go on", "y", "k", "sounds good"), or no letter or digit
  at all ("👍", "..."). One other word makes it a reply: "yes do merge on order_id", "Great,
  ship it.", "C)", "no" are kept;
- a slash command without arguments ("/mcp", "/clear"): a UI action, not something said.

Assistant replies keep the reference's floor (docs/trail-formats.md, "Short user replies").

How the vocabulary was derived (`tests/ingest/test_replies.py` pins it against the trails): every
user prompt under the floor in the repo's trails (jobs/samples/, tests/fixtures/trails/,
bench/quality/trails/), parsed with the floor off: 134 texts, 34 distinct. The acknowledgements
among them are "ok, continue" (67 times) and "continue" (2); everything else there is a request,
a report, a decision or a name ("fix this", "start phoenix in background", "Great, ship it.",
"はくあ") and is kept. The bare command is "/mcp" (a queued `/mcp`, twice). The rest of the
vocabulary is the issue's list ("ok", "yes", "continue", "thanks", "go on", "y", "k") with the
spellings and synonyms of the same acts: agreeing, thanking, telling the agent to go on.
"""

from __future__ import annotations

import re

# Words that, alone or together, only agree, thank or say "go on".
ACK_WORDS = frozenset({
    # agreeing
    "ok", "okay", "okey", "okie", "k", "kk", "y", "ya", "yes", "yea", "yeah", "yep", "yup",
    "sure", "alright", "right", "correct", "exactly", "agreed", "absolutely", "ack", "roger",
    "lgtm", "fine", "good", "great", "nice", "cool", "perfect", "awesome", "excellent",
    # going on
    "continue", "proceed", "go", "next",
    # thanking, politeness
    "thanks", "thank", "thx", "ty", "tysm", "cheers", "please", "pls", "plz",
})
# Phrases whose words are not acknowledgements alone ("on", "it", "you").
ACK_PHRASES = (
    ("go", "on"), ("go", "ahead"), ("keep", "going"), ("carry", "on"), ("thank", "you"),
    ("sounds", "good"), ("looks", "good"), ("got", "it"), ("makes", "sense"), ("do", "it"),
    ("that", "works"), ("all", "good"), ("well", "done"), ("good", "job"), ("nice", "work"),
    ("let's", "go"), ("lets", "go"), ("let's", "continue"), ("lets", "continue"),
    ("you", "can", "continue"), ("please", "continue"),
)
_LONGEST_ACK_CHARS = 60  # an acknowledgement is short; longer text is never tokenised here
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_BARE_COMMAND = re.compile(r"\A/[A-Za-z][\w:.-]*\Z")


def _without_phrases(words: list[str]) -> list[str]:
    left: list[str] = []
    index = 0
    while index < len(words):
        for phrase in ACK_PHRASES:
            if tuple(words[index:index + len(phrase)]) == phrase:
                index += len(phrase)
                break
        else:
            left.append(words[index])
            index += 1
    return left


def is_acknowledgement(text: str) -> bool:
    """Whether `text` only agrees, thanks or says "go on" (case, punctuation and emoji aside)."""
    text = text.strip()
    if len(text) > _LONGEST_ACK_CHARS:
        return False
    words = _WORD.findall(text.casefold().replace("’", "'"))
    return all(word in ACK_WORDS for word in _without_phrases(words))


def says_nothing(text: str) -> bool:
    """A user prompt that is no event: empty, a bare acknowledgement, or a slash command without
    arguments."""
    text = text.strip()
    return not text or is_acknowledgement(text) or _BARE_COMMAND.match(text) is not None
