from hypothesis import given
from hypothesis import strategies as st

from ingest.events import Event
from synth.chunking import chunk_events, event_cost


def ev(seq, size, tool=None, outcome=None):
    return Event(seq, "t", None, "user", "prompt", "c" * size, tool, outcome)


def test_cost_counts_envelope_tool_and_outcome():
    assert event_cost(ev(0, 100)) == 180
    assert event_cost(ev(0, 100, tool="Bash", outcome="ok")) == 180 + 4 + 6 + 2 + 9


def test_oversize_event_forms_its_own_chunk():
    chunks = chunk_events([ev(0, 10), ev(1, 500), ev(2, 10)], max_chars=200)
    assert [[e.seq for e in c] for c in chunks] == [[0], [1], [2]]


@given(sizes=st.lists(st.integers(min_value=0, max_value=3000), max_size=50),
       budget=st.integers(min_value=100, max_value=5000))
def test_chunks_keep_order_lose_nothing_and_respect_the_budget(sizes, budget):
    events = [ev(i, size) for i, size in enumerate(sizes)]
    chunks = chunk_events(events, budget)
    assert [e for c in chunks for e in c] == events
    for chunk in chunks:
        assert len(chunk) == 1 or sum(event_cost(e) for e in chunk) <= budget
