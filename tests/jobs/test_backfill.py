"""Backfill: a plan without a model, and a kill half way that ends like one uninterrupted run."""

import json
import os
import random
import signal
import subprocess
import sys

from click.testing import CliRunner

from jobs.cli import main
from sinks.lake import Lake
from tests.jobs.test_kill_rerun import ROOT, check_invariants, make_trails
from tests.processes import kill_session, stderr_of


def backfill_cli(lake, roots, crash_at=None, **settings):
    env = {k: v for k, v in os.environ.items() if not k.startswith("INTERVIEW_CRASH")}
    env.update(INTERVIEW_MAX_WINDOW_EVENTS="4", INTERVIEW_COMMIT_EVERY_WINDOWS="3",
               INTERVIEW_MACHINE_ID="backfill", PYTHONPATH=str(ROOT), **settings)
    if crash_at:
        env["INTERVIEW_CRASH_AT"] = crash_at
    process = subprocess.Popen(
        [sys.executable, "-m", "jobs.cli", "backfill", "--roots", str(roots), "--source", "claude-code",
         "--all-projects", "--backend", "none", "--lake", str(lake), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT, start_new_session=True)
    out, err = process.communicate(timeout=300)
    kill_session(process.pid)
    return process.returncode, out.decode(), stderr_of(process, err)


def snapshot(lake_dir):
    with Lake(lake_dir) as lake:
        memories = lake.con.execute(
            "SELECT attempt_id, client_request_id, memory_type, content FROM memories ORDER BY 2").fetchall()
        marks = lake.con.execute("SELECT node_id, last_seq FROM watermarks ORDER BY 1").fetchall()
        ledger = lake.con.execute("SELECT attempt_id, cursor_from, cursor_to FROM attempts ORDER BY 1").fetchall()
    return memories, marks, ledger


def test_killed_backfill_ends_like_an_uninterrupted_one(tmp_path):
    roots = make_trails(tmp_path / "trails", random.Random(5), nodes=3, lines=40)
    code, out, err = backfill_cli(tmp_path / "reference", roots)
    assert code == 0, err[-1500:]
    assert json.loads(out)["windows"] > 10
    crashed = tmp_path / "crashed"
    code, _, err = backfill_cli(crashed, roots, crash_at="after_ledger:6")
    assert code == -signal.SIGKILL, err[-1500:]
    check_invariants(crashed)
    code, out, err = backfill_cli(crashed, roots)
    assert code == 0, err[-1500:]
    assert json.loads(out)["windows"] > 0  # it went on from the watermarks, not from scratch
    check_invariants(crashed, roots)
    assert snapshot(crashed) == snapshot(tmp_path / "reference")


def test_killed_while_merging_files_in_the_run_ends_like_an_uninterrupted_one(tmp_path):
    roots = make_trails(tmp_path / "trails", random.Random(7), nodes=3, lines=40)
    merge_often = {"INTERVIEW_MERGE_EVERY_COMMITS": "2", "INTERVIEW_MERGED_FILES_GRACE_SECONDS": "0"}
    code, out, err = backfill_cli(tmp_path / "reference", roots, **merge_often)
    assert code == 0, err[-1500:]
    crashed = tmp_path / "crashed"
    code, _, err = backfill_cli(crashed, roots, crash_at="mid_merge:2", **merge_often)
    assert code == -signal.SIGKILL, err[-4000:]
    check_invariants(crashed)
    code, out, err = backfill_cli(crashed, roots, **merge_often)
    assert code == 0, err[-1500:]
    check_invariants(crashed, roots)
    assert snapshot(crashed) == snapshot(tmp_path / "reference")
    with Lake(crashed) as lake:  # the merges ran: fewer live files than commits wrote
        files = lake.con.execute("SELECT count(*) FROM ducklake_list_files('lake', 'memories')").fetchone()[0]
        commits = lake.con.execute("SELECT count(*) FROM lake.snapshots()").fetchone()[0]
    assert files < commits / 4


def test_dry_run_plans_without_a_model_or_a_write(ray_cluster, tmp_path):
    roots = make_trails(tmp_path / "trails", random.Random(6), nodes=2, lines=20)
    lake = tmp_path / "lake"
    result = CliRunner().invoke(main, [
        "backfill", "--roots", str(roots), "--source", "claude-code", "--all-projects", "--dry-run",
        "--json", "--lake", str(lake), "--node", "*session-1"], catch_exceptions=False)
    plan = json.loads(result.stdout)
    assert plan["nodes"] == 1 and plan["windows"] == 1 and plan["chars"] > 0
    assert plan["estimated_prompt_tokens"] == round(plan["chars"] / 3.5)
    assert not lake.exists()
