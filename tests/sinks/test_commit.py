import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.errors import LakeBusy
from ingest.events import Event
from ingest.windows import Window
from sinks.commit import CommitContext, PendingWindow, commit_windows
from sinks.items import report_to_items
from sinks.lake import Lake
from sinks.watermarks import read_watermark
from synth.report import SECTIONS

CTX = CommitContext(run_id="run_test", backend="scripted", model="m", prompt_version="v")


def window(cursor_from=0, cursor_to=9, node="cc:m:n1", tenant="t"):
    events = (Event(cursor_from, "2026-01-01T10:00:00.000Z", "p:S", "user", "prompt", "a" * 80),
              Event(cursor_to, "2026-01-01T10:05:00.000Z", "p:S", "assistant", "reply", "b" * 80))
    return Window(node, "agent", cursor_from, cursor_to, events, tenant_id=tenant)


def report(*summaries, section="decisions"):
    body = {name: [] for name in SECTIONS}
    body[section] = [{"summary": s, "rationale": "because", "ts": "2026-01-01T10:05:00.000Z"} for s in summaries]
    return body


def count(lake, table="memories"):
    return lake.con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


@pytest.fixture
def lake(lake_dir):
    with Lake(lake_dir, writer=True) as opened:
        yield opened


def commit_one(con, w, items, context, *, vectors=None, **kw):
    """One window committed alone: a group commit of one."""
    return commit_windows(con, [PendingWindow(w, items, context, vectors)], **kw)[0]


def commit(lake, w, rep, **kw):
    return commit_one(lake.con, w, report_to_items(rep, w), CTX, **kw)


def test_same_window_twice_writes_once(lake):
    w = window()
    first = commit(lake, w, report("Use Postgres for the ledger", "Ship on Friday"))
    assert (first.status, first.memories_written, first.watermark) == ("committed", 2, 9)
    second = commit(lake, w, report("Use Postgres for the ledger", "Ship on Friday"))
    assert (second.memories_written, second.duplicates, second.watermark) == (0, 2, 9)
    assert [r.status for r in second.results] == ["duplicate_attempt"] * 2
    assert [r.id for r in second.results] == [r.id for r in first.results]
    assert count(lake) == 2 and count(lake, "attempts") == 1


def test_same_content_from_another_attempt_is_a_content_duplicate(lake):
    commit(lake, window(0, 9), report("Use Postgres for the ledger"))
    other = commit(lake, window(10, 19), report("Use Postgres for the ledger", "Add an index on ts"))
    assert [r.status for r in other.results] == ["duplicate_content", "created"]
    assert other.results[0].duplicate_of is not None
    assert count(lake) == 2


def test_stale_window_never_moves_the_watermark_back(lake):
    commit(lake, window(0, 10), report("First decision of the day"))
    stale = commit(lake, window(0, 5), report("A different decision entirely"))
    assert stale.watermark == 10
    assert read_watermark(lake.con, "t", "cc:m:n1")["last_seq"] == 10


def test_items_too_short_are_errors_and_all_errors_fail_without_watermark(lake):
    failed = commit(lake, window(), report("tiny", section="blockers"))
    assert (failed.status, failed.errors, failed.watermark) == ("failed", 1, None)
    assert read_watermark(lake.con, "t", "cc:m:n1") is None
    partial = commit(lake, window(), report("tiny", "A long enough blocker", section="blockers"))
    assert (partial.status, partial.memories_written, partial.watermark) == ("partial", 1, 9)


def test_empty_report_consumes_the_window(lake):
    result = commit(lake, window(), {name: [] for name in SECTIONS})
    assert (result.status, result.memories_written, result.watermark) == ("committed", 0, 9)


def test_memories_carry_event_times_types_and_metadata(lake):
    commit(lake, window(), report("Use Postgres for the ledger"))
    row = lake.con.execute(
        "SELECT memory_type, content, strftime(ts_valid_start AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S'), "
        "metadata->>'source', metadata->>'category', metadata->>'node_id', client_request_id, attempt_id "
        "FROM memories").fetchone()
    assert row[:6] == ("decision", "Use Postgres for the ledger — rationale: because", "2026-01-01T10:05:00",
                       "interviewer", "decisions", "cc:m:n1")
    assert row[6] == row[7] + ":0"


class Crash(Exception):
    pass


@pytest.mark.parametrize("point", ["after_memories", "after_ledger", "before_watermark"])
def test_crash_inside_the_transaction_leaves_nothing_and_rerun_writes_once(lake, point):
    def hook(name):
        if name == point:
            raise Crash(name)

    w = window()
    with pytest.raises(Crash):
        commit(lake, w, report("Use Postgres for the ledger"), crash_hook=hook)
    assert count(lake) == 0 and count(lake, "attempts") == 0
    assert read_watermark(lake.con, "t", w.node_id) is None
    rerun = commit(lake, w, report("Use Postgres for the ledger"))
    assert (rerun.memories_written, rerun.watermark) == (1, 9)
    assert count(lake) == 1


def test_crash_after_commit_rerun_is_all_duplicates(lake):
    def hook(name):
        if name == "after_watermark":
            raise Crash(name)

    w = window()
    with pytest.raises(Crash):
        commit(lake, w, report("Use Postgres for the ledger"), crash_hook=hook)
    rerun = commit(lake, w, report("Use Postgres for the ledger"))
    assert (rerun.memories_written, rerun.duplicates) == (0, 1)


def test_second_writer_is_refused_with_a_clear_message(lake, lake_dir):
    with pytest.raises(LakeBusy, match="being written by another run"):
        Lake(lake_dir, writer=True)


def test_a_reader_opens_beside_the_writer(lake, lake_dir):
    commit(lake, window(), report("Use Postgres for the ledger"))
    with Lake(lake_dir) as reader:
        assert count(reader) == 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cursors=st.lists(st.integers(min_value=0, max_value=6), min_size=1, max_size=8))
def test_any_order_of_resubmits_keeps_one_copy_and_a_monotone_watermark(lake, cursors):
    lake.con.execute("DELETE FROM memories")
    lake.con.execute("DELETE FROM attempts")
    lake.con.execute("DELETE FROM watermark_log")
    highest = -1
    for c in cursors:
        result = commit(lake, window(c * 10, c * 10 + 9), report(f"Decision number {c} for the team"))
        highest = max(highest, c * 10 + 9)
        assert result.watermark == highest
    assert count(lake) == len(set(cursors))


# -- group commit: a batch is exactly the same as its windows committed one by one --------------

_SUMMARIES = ["Use Postgres for the ledger", "Ship on Friday", "tiny", "Add an index on ts"]


def _state(lake):
    return (
        lake.con.execute("SELECT client_request_id, memory_id, content FROM memories ORDER BY 1").fetchall(),
        lake.con.execute("SELECT attempt_id, status, memories_written, duplicates, errors FROM attempts "
                         "ORDER BY 1, 2").fetchall(),
        lake.con.execute("SELECT node_id, last_seq FROM watermarks ORDER BY 1").fetchall(),
    )


def _reset(lake):
    for table in ("memories", "attempts", "watermark_log", "memory_embeddings"):
        lake.con.execute(f"DELETE FROM {table}")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=st.lists(st.tuples(st.integers(0, 1), st.lists(st.sampled_from(_SUMMARIES), max_size=2)),
                     min_size=1, max_size=6))
def test_a_batch_commits_exactly_what_one_by_one_commits(lake, plan):
    """Nodes 0/1, windows in seq order per node, items that duplicate, error ('tiny') or not."""
    windows, next_cursor = [], {0: 0, 1: 0}
    for node, summaries in plan:
        start = next_cursor[node]
        next_cursor[node] = start + 10
        w = window(start, start + 9, node=f"cc:m:n{node}")
        windows.append((w, report_to_items(report(*summaries, section="blockers"), w)))
    _reset(lake)
    alone, stopped = [], set()
    for w, items in windows:  # one by one, as the driver did: a failed window stops its node
        if w.node_id in stopped:
            alone.append(None)
            continue
        alone.append(commit_one(lake.con, w, items, CTX))
        if alone[-1].status == "failed":
            stopped.add(w.node_id)
    expected = _state(lake)
    _reset(lake)
    batched = commit_windows(lake.con, [PendingWindow(w, items, CTX) for w, items in windows])
    for one, many in zip(alone, batched):
        if one is None:
            assert many.status == "skipped"
            continue
        assert (many.status, many.watermark, many.memories_written, many.duplicates, many.errors) == \
            (one.status, one.watermark, one.memories_written, one.duplicates, one.errors)
    assert _state(lake) == expected


def test_a_crash_inside_a_batch_leaves_none_of_it(lake):
    def hook(name):
        if name == "after_ledger":
            raise Crash(name)

    batch = [PendingWindow(w, report_to_items(report(f"Decision number {i} for the ledger"), w), CTX)
             for i, w in enumerate([window(0, 9), window(10, 19), window(0, 9, node="cc:m:n2")])]
    with pytest.raises(Crash):
        commit_windows(lake.con, batch, crash_hook=hook)
    assert count(lake) == 0 and count(lake, "attempts") == 0 and count(lake, "watermarks") == 0
    results = commit_windows(lake.con, batch)
    assert [r.watermark for r in results] == [9, 19, 9]
    assert count(lake) == 3 and count(lake, "attempts") == 3
    assert read_watermark(lake.con, "t", "cc:m:n1")["last_seq"] == 19


def test_the_noise_of_a_window_at_the_bigint_limit_does_not_overflow(lake):
    """Issue 28 item 4: a lake written before seqs were bounded may hold a window ending at
    2**63 - 1; `interview status` summed `cursor_to - cursor_from + 1` in BIGINT and failed."""
    from sinks.nodes import noise_by_node

    commit(lake, window(0, 2**63 - 1), report("Use Postgres for the ledger"))
    assert noise_by_node(lake.con, "t") == {"cc:m:n1": 2**63 - 2}
