"""A reader beside a writing run, and two drivers on one lake."""

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


def test_a_second_driver_is_refused_with_a_clear_message(tmp_path):
    roots = make_trails(tmp_path / "trails", random.Random(2), nodes=2, lines=40)
    lake_dir = tmp_path / "lake"
    first = start_run(lake_dir, roots)
    try:
        for _ in range(200):  # wait until the first one holds the lake
            if (lake_dir / "writer.lock").exists() and (lake_dir / "writer.lock").read_text():
                break
            time.sleep(0.05)
        second = start_run(lake_dir, roots)
        _, err = second.communicate(timeout=120)
        assert second.returncode == 1
        assert "being written by another run" in err.decode() and "Traceback" not in err.decode()
    finally:
        _, first_err = first.communicate(timeout=180)
    assert first.returncode == 0, first_err.decode()[-2000:]
    check_invariants(lake_dir, roots)
