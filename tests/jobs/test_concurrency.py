"""A reader beside a writing run, two drivers on one lake, two shared writers committing at
once: on a folder lake and on a Postgres-catalog one (the writer rule holds on both)."""

import random
import subprocess
import sys
import time

import duckdb

from sinks.lake import Lake
from tests.jobs.test_kill_rerun import ROOT, check_invariants, make_trails


def start_run(lake_dir, roots, env_extra=None):
    import os

    env = {**os.environ, "INTERVIEW_MAX_WINDOW_EVENTS": "2", "PYTHONPATH": str(ROOT), **(env_extra or {})}
    command = [sys.executable, "-m", "jobs.cli", "run", "--roots", str(roots), "--source", "claude-code",
               "--all-projects", "--since-hours", "0", "--backend", "none", "--flush",
               "--max-windows", "10000", "--lake", str(lake_dir)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT,
                            start_new_session=True)


def test_reader_sees_whole_commits_only_while_a_run_writes(tmp_path):
    roots = make_trails(tmp_path / "trails", random.Random(1), nodes=4, lines=60)
    lake_dir = tmp_path / "lake"
    with Lake(lake_dir, writer=True):
        pass  # the catalog exists before the reader starts
    run = start_run(lake_dir, roots)
    counts, refused_for = [], []
    refused_since = None
    deadline = time.monotonic() + 120
    try:
        while run.poll() is None and time.monotonic() < deadline:
            try:
                with Lake(lake_dir) as reader:
                    total, distinct, attempts_missing = reader.con.execute(
                        "SELECT count(*), count(DISTINCT client_request_id), "
                        "(SELECT count(*) FROM attempts a WHERE a.memories_written > "
                        " (SELECT count(*) FROM memories m WHERE m.attempt_id = a.attempt_id)) "
                        "FROM memories").fetchone()
                assert total == distinct, "a reader saw a memory twice"
                assert attempts_missing == 0, "a reader saw a ledger row before its memories"
                counts.append(total)
                if refused_since is not None:
                    refused_for.append(time.monotonic() - refused_since)
                    refused_since = None
            except duckdb.Error:
                refused_since = refused_since or time.monotonic()
            time.sleep(0.05)
    finally:
        out, err = run.communicate(timeout=120)
    assert run.returncode == 0, err.decode()[-2000:]
    assert len(counts) >= 3 and counts == sorted(counts), "the reader went back in time"
    assert max(refused_for, default=0) < 2.0, f"reader refused for {max(refused_for):.1f}s"
    check_invariants(lake_dir, roots)


def writer_lock_held(lake_dir) -> bool:
    if not isinstance(lake_dir, str):
        return (lake_dir / "writer.lock").exists() and bool((lake_dir / "writer.lock").read_text())
    import psycopg

    with psycopg.connect(lake_dir.removeprefix("ducklake:postgres:"), autocommit=True) as con:
        return con.execute("SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
                           "WHERE l.locktype = 'advisory' AND l.granted "
                           "AND a.application_name LIKE 'trail-interview writer%'").fetchone()[0] > 0


def test_a_second_driver_is_refused_with_a_clear_message(tmp_path, any_lake):
    roots = make_trails(tmp_path / "trails", random.Random(2), nodes=2, lines=40)
    lake_dir = any_lake
    first = start_run(lake_dir, roots)
    try:
        for _ in range(400):  # wait until the first one holds the lake
            if writer_lock_held(lake_dir):
                break
            time.sleep(0.05)
        second = start_run(lake_dir, roots)
        _, err = second.communicate(timeout=120)
        assert second.returncode == 1
        assert "being written by another run" in err.decode() and "Traceback" not in err.decode()
        if isinstance(lake_dir, str):  # the holder is named: its pid and host
            assert "trail-interview writer pid=" in err.decode()
    finally:
        _, first_err = first.communicate(timeout=180)
    assert first.returncode == 0, first_err.decode()[-2000:]
    check_invariants(lake_dir, roots)


SHARED_WRITER = """
import sys
from sinks.lake import Lake
from sinks.items import report_to_items
from tests.sinks.test_commit import CTX, commit_one, report, window

lake, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
with Lake(lake, writer=True, exclusive=False) as opened:
    for n in range(count):
        w = window(n * 10, n * 10 + 9, node=f"cc:m:{name}")
        commit_one(opened.con, w, report_to_items(report(f"{name} decided {n}"), w), CTX)
"""


def test_two_shared_writers_committing_at_once_lose_nothing(tmp_path, any_lake):
    """Two processes (as two server workers, or two machines on a Postgres catalog) commit
    windows as fast as they can: every losing commit runs again, none is lost or doubled."""
    import os

    with Lake(any_lake, writer=True):
        pass
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writers = [subprocess.Popen([sys.executable, "-c", SHARED_WRITER, str(any_lake), name, "25"],
                                stderr=subprocess.PIPE, env=env, cwd=ROOT) for name in ("a", "b")]
    for writer in writers:
        _, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err.decode()[-3000:]
    with Lake(any_lake) as lake:
        con = lake.con
        assert con.execute("SELECT count(*), count(DISTINCT attempt_id) FROM attempts").fetchone() == (50, 50)
        assert con.execute("SELECT count(*), count(DISTINCT content) FROM memories").fetchone() == (50, 50)
        marks = dict(con.execute("SELECT node_id, last_seq FROM watermarks").fetchall())
    assert marks == {"cc:m:a": 249, "cc:m:b": 249}
