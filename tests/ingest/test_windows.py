from hypothesis import given
from hypothesis import strategies as st

from ingest.events import Event
from ingest.windows import Window, attempt_id, cut_windows, worth_interviewing


def events_at(seqs, size=10):
    return [Event(s, "2026-01-01T00:00:00Z", "p:S", "user", "prompt", "c" * size) for s in seqs]


def test_attempt_id_is_sha1_of_node_and_cursors():
    assert attempt_id("cc:abc:stem", 0, 9) == "interview:" + __import__("hashlib").sha1(b"cc:abc:stem:0:9").hexdigest()


def test_last_window_runs_past_a_noise_tail_to_eof():
    windows = cut_windows(events_at([2, 5]), node_id="n", agent_id="a", cursor_from=0, eof_line=12)
    assert [(w.cursor_from, w.cursor_to) for w in windows] == [(0, 12)]


def test_event_cap_cuts_contiguous_windows():
    windows = cut_windows(events_at(range(0, 10)), node_id="n", agent_id="a", cursor_from=0,
                          eof_line=9, max_events=4)
    assert [(w.cursor_from, w.cursor_to, len(w.events)) for w in windows] == [
        (0, 3, 4), (4, 7, 4), (8, 9, 2)]


def test_char_cap_cuts_before_the_event_that_overflows():
    windows = cut_windows(events_at([0, 1, 2], size=60), node_id="n", agent_id="a", cursor_from=0,
                          eof_line=2, max_chars=130)
    assert [(w.cursor_from, w.cursor_to) for w in windows] == [(0, 1), (2, 2)]


def test_an_oversize_event_gets_its_own_window():
    windows = cut_windows(events_at([0, 1], size=500), node_id="n", agent_id="a", cursor_from=0,
                          eof_line=1, max_chars=100)
    assert [len(w.events) for w in windows] == [1, 1]


def test_no_events_no_window():
    assert cut_windows([], node_id="n", agent_id="a", cursor_from=0, eof_line=5) == []


def test_dribble_gate():
    small = Window("n", "a", 0, 3, tuple(events_at([0, 1])))
    assert not worth_interviewing(small)
    assert worth_interviewing(small, flush=True)
    assert worth_interviewing(small, min_events=2)
    big = Window("n", "a", 0, 3, tuple(events_at([0], size=2000)))
    assert worth_interviewing(big)


def said(seq, text, role="user"):
    return Event(seq, "2026-01-01T00:00:00Z", "p:S", role, "prompt", text)


def test_a_window_of_acknowledgements_is_never_interviewed_even_flushed():
    acks = tuple(said(i, text) for i, text in enumerate(
        ["ok", "thanks!", "continue", "ok, continue", "y", "k", "go on", "👍", "yes", "sounds good",
         "ok " * 20]))
    window = Window("n", "a", 0, 10, acks)
    assert not worth_interviewing(window)
    assert not worth_interviewing(window, flush=True)
    assert not worth_interviewing(window, min_events=1, min_chars=1)


def test_acknowledgements_count_for_nothing_at_the_gate():
    replies = [said(i, text) for i, text in enumerate(["use pnpm", "C)", "yes do merge on order_id"])]
    acks = [said(3 + i, "ok, continue") for i in range(20)]
    window = Window("n", "a", 0, 30, tuple(replies + acks))
    assert not worth_interviewing(window)  # 23 events, but only 3 say something
    assert worth_interviewing(window, min_events=3)
    assert worth_interviewing(window, flush=True)
    long_one = Window("n", "a", 0, 30, (said(0, "x" * 2000), *acks))
    assert worth_interviewing(long_one)


@given(
    gaps=st.lists(st.integers(min_value=1, max_value=5), min_size=1, max_size=60),
    sizes=st.lists(st.integers(min_value=0, max_value=300), min_size=60, max_size=60),
    start=st.integers(min_value=0, max_value=50),
    tail=st.integers(min_value=0, max_value=10),
    max_events=st.integers(min_value=1, max_value=20),
    max_chars=st.integers(min_value=1, max_value=1000),
)
def test_windows_are_bounded_contiguous_and_lose_nothing(gaps, sizes, start, tail, max_events, max_chars):
    seqs, seq = [], start
    for gap in gaps:
        seqs.append(seq)
        seq += gap
    events = [Event(s, "t", None, "user", "prompt", "c" * sizes[i]) for i, s in enumerate(seqs)]
    eof = seqs[-1] + tail
    windows = cut_windows(events, node_id="n", agent_id="a", cursor_from=start, eof_line=eof,
                          max_events=max_events, max_chars=max_chars)
    assert [e for w in windows for e in w.events] == events
    assert windows[0].cursor_from == start
    assert windows[-1].cursor_to == eof
    for left, right in zip(windows, windows[1:]):
        assert right.cursor_from == left.cursor_to + 1
    for w in windows:
        assert len(w.events) <= max_events
        assert w.chars <= max_chars or len(w.events) == 1
        assert w.cursor_from <= w.events[0].seq and w.events[-1].seq <= w.cursor_to
