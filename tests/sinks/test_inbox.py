"""The inbox lifecycle of contract §7.2 at the table level: idempotent accept, failed → pending
with attempts, exhaustion → parked, stale processing reclaimed, bounded claims."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.validate import validate_submit
from sinks.inbox import (
    MAX_ATTEMPTS,
    AcceptMemory,
    JobRefused,
    Settled,
    accept_windows,
    claim_jobs,
    inbox_counts,
    job_id,
    requeue_failed_jobs,
    settle_jobs,
)
from sinks.lake import Lake, write_transaction
from sinks.runs import finish_run, start_run
from tests.serving import body

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def lake(lake_dir):
    with Lake(lake_dir, writer=True) as opened:
        yield opened


def window(node="n:1", start=0, count=10, tenant="acme"):
    return validate_submit(body(node, start, count), default_tenant=tenant)


def settle(lake, jobs, status, run="r1"):
    write_transaction(lake.con, lambda con: settle_jobs(
        con, "acme", [Settled(job.job_id, status, job.attempts, "test") for job in jobs], run))


def test_a_window_accepted_twice_is_one_job_and_its_watermark_moves_once(lake):
    first = accept_windows(lake.con, [window(start=0), window(start=0)], now=T0)
    assert first == [9, 9]
    assert accept_windows(lake.con, [window(start=0)], now=T0) == [9]
    assert lake.con.execute("SELECT count(*) FROM inbox_jobs").fetchone() == (1,)
    assert lake.con.execute("SELECT last_seq FROM watermarks").fetchall() == [(9,)]


def test_failed_goes_back_to_pending_with_its_attempts_then_parks(lake):
    start_run(lake.con, "r1", "run", "none", "v")
    accept_windows(lake.con, [window()], now=T0)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        jobs, counts = claim_jobs(lake.con, "acme", "r1", limit=10, committed=set(), now=T0)
        assert [job.attempts for job in jobs] == [attempt] and counts["claimed"] == 1
        settle(lake, jobs, "pending")
        assert lake.con.execute("SELECT status, attempts FROM inbox").fetchall() == [
            ("pending", attempt)]
    jobs, counts = claim_jobs(lake.con, "acme", "r1", limit=10, committed=set(), now=T0)
    assert jobs == [] and counts["parked"] == 1
    assert inbox_counts(lake.con, "acme") == {"failed_permanent": 1}
    refused = accept_windows(lake.con, [window()], memory=AcceptMemory.load(lake.con), now=T0)
    assert isinstance(refused[0], JobRefused)
    assert requeue_failed_jobs(lake.con, "acme") == [("n:1", 0, 9)]
    jobs, _ = claim_jobs(lake.con, "acme", "r1", limit=10, committed=set(), now=T0)
    assert [job.attempts for job in jobs] == [1]


def test_processing_is_reclaimed_when_stale_or_when_its_run_is_gone(lake):
    start_run(lake.con, "r1", "run", "none", "v")
    accept_windows(lake.con, [window()], now=T0)
    claimed, _ = claim_jobs(lake.con, "acme", "r1", limit=10, committed=set(), now=T0)
    assert len(claimed) == 1
    # Its run still runs: not before ten minutes.
    assert claim_jobs(lake.con, "acme", "r2", limit=10, committed=set(),
                      now=T0 + timedelta(minutes=5))[0] == []
    stale, _ = claim_jobs(lake.con, "acme", "r2", limit=10, committed=set(),
                          now=T0 + timedelta(minutes=11))
    assert [job.attempts for job in stale] == [2]
    finish_run(lake.con, "r2", "failed", "none", {}, [])  # the claiming run ended: at once
    again, _ = claim_jobs(lake.con, "acme", "r3", limit=10, committed=set(),
                          now=T0 + timedelta(minutes=12))
    assert [job.attempts for job in again] == [3]


def test_claims_are_bounded_oldest_first_and_committed_windows_are_done_without_the_model(lake):
    start_run(lake.con, "r1", "run", "none", "v")
    windows = [window(start=10 * n) for n in range(5)]
    accept_windows(lake.con, windows, now=T0)
    jobs, counts = claim_jobs(lake.con, "acme", "r1", limit=2,
                              committed={windows[0].attempt_id}, now=T0)
    assert [job.window.cursor_from for job in jobs] == [10]
    assert counts == {"claimed": 1, "parked": 0, "already_done": 1}
    assert inbox_counts(lake.con, "acme") == {"done": 1, "processing": 1, "pending": 3}


def test_tenants_never_mix(lake):
    accept_windows(lake.con, [window(tenant="acme"), window(tenant="beta")], now=T0)
    jobs, _ = claim_jobs(lake.con, "beta", "r1", limit=10, committed=set(), now=T0)
    assert [job.window.tenant_id for job in jobs] == ["beta"]
    assert inbox_counts(lake.con, "acme") == {"pending": 1}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(starts=st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=12),
       split=st.integers(min_value=1, max_value=4))
def test_any_order_of_repeated_accepts_keeps_one_job_per_window_and_a_monotone_mark(lake, starts,
                                                                                   split):
    lake.con.execute("DELETE FROM inbox_jobs")
    lake.con.execute("DELETE FROM watermark_log")
    memory = AcceptMemory.load(lake.con)
    highest = -1
    for index in range(0, len(starts), split):
        batch = [window(start=10 * s) for s in starts[index:index + split]]
        marks = accept_windows(lake.con, batch, memory=memory, now=T0)
        for w, mark in zip(batch, marks):
            highest = max(highest, w.cursor_to)
            assert mark >= w.cursor_to
        assert marks[-1] == highest
    assert lake.con.execute("SELECT count(*), count(DISTINCT job_id) FROM inbox_jobs").fetchone() == (
        len(set(starts)), len(set(starts)))
    assert lake.con.execute("SELECT last_seq FROM watermarks").fetchall() == [(highest,)]
    assert {job_id(window(start=10 * s).attempt_id) for s in starts} == {
        row[0] for row in lake.con.execute("SELECT job_id FROM inbox_jobs").fetchall()}


def test_a_full_disk_is_one_clear_error_and_nothing_is_written(lake):
    import duckdb

    from ingest.errors import LakeError

    def fill(con):
        con.execute("INSERT INTO node_contacts VALUES ('acme', 'n:1', now())")
        raise duckdb.IOException("Could not write file \"x.parquet\": No space left on device")

    with pytest.raises(LakeError, match="disk holding the lake is full: nothing of this"):
        write_transaction(lake.con, fill)
    assert lake.con.execute("SELECT count(*) FROM node_contacts").fetchone() == (0,)
