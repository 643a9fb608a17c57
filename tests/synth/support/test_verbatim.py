"""Whatever the rules of meaning, an event restated verbatim is supported: by itself, and in a
window of other events (negations, figures, choices, hypotheses and their refutations)."""

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ingest.events import Event
from synth.grounding import SupportCheck, check_item, evidence_for
from synth.support.lexical import content_words, specifics

PIECES = ["the", "cache", "pool", "did not", "never", "no longer", "fixed", "failed", "still",
          "instead of", "rather than", "from", "to", "rose", "fell", "maybe", "might be",
          "ruled out", "turned out", "the real cause", "is fine", "blocked", "until", "approved",
          "enabled", "disabled", "kept", "deleted", "12 ms", "40 ms", "3%", "0.5%", "-33%", "1.4.2",
          "p95", "p99", "tried", "but", "reverted", "?", ",", ";", ".", "Open question:",
          "Don't", "please", "Deploy", "over", "vs", "before", "down", "instead", "whether"]
SENTENCE = st.lists(st.sampled_from(PIECES), min_size=3, max_size=14).map(" ".join)


def says_something(text: str) -> bool:
    return bool(content_words(text) or specifics(text))


@settings(max_examples=300, deadline=None)
@given(st.lists(SENTENCE, min_size=1, max_size=6), st.data())
@example(["maybe the pool is the cause .", "ruled out the pool ; the real cause fixed the cache ."],
         None)
@example(["cache pool ; maybe", "the cache ruled out"], None)  # a bare "maybe"
@example(["fell 3% instead of 0.5%"], None)  # its own words against its own figures
def test_an_event_restated_verbatim_is_supported_in_any_window(texts, data):
    events = [Event(seq, f"2026-01-01T00:00:{seq:02d}.000Z", "s",
                    "user" if seq % 2 else "assistant", "reply", text)
              for seq, text in enumerate(texts)]
    pick = data.draw(st.integers(0, len(events) - 1)) if data is not None else 0
    content = events[pick].content
    why = check_item(content, evidence_for(events, [pick]), check=SupportCheck())
    assert why == (None if says_something(content) else "unsupported_words")
