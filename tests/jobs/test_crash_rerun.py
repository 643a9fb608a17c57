"""Kill -9 at each write step of the real CLI, rerun, and check the invariants."""

import json
import os
import signal
import subprocess
import sys

import pytest

from jobs import faults
from sinks.lake import Lake


def submit(lake_dir, body_path, crash_at=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("INTERVIEW_CRASH")}
    if crash_at:
        env["INTERVIEW_CRASH_AT"] = crash_at
    return subprocess.run(
        [sys.executable, "-m", "jobs.cli", "submit", str(body_path), "--lake", str(lake_dir),
         "--backend", "none", "--tenant", "t"],
        capture_output=True, text=True, env=env, timeout=120,
    )


def body(cursor_from, cursor_to):
    # One event per seq: the unsynthesized episode names the event count, so windows differ.
    return {"node_id": "cc:m:crash", "agent_id": "a", "cursor_from": cursor_from, "cursor_to": cursor_to,
            "events": [{"seq": seq, "ts": f"2026-01-01T10:00:{seq:02d}Z", "role": "user",
                        "kind": "prompt", "content": f"work item {seq}"}
                       for seq in range(cursor_from, cursor_to + 1)]}


@pytest.mark.parametrize("point", ["after_memories", "after_ledger", "before_watermark", "after_watermark"])
def test_kill_at_each_write_step_then_rerun(tmp_path, point, any_lake):
    assert point in faults.POINTS
    lake_dir = any_lake  # a folder lake, and a Postgres-catalog one
    first, second = tmp_path / "w1.json", tmp_path / "w2.json"
    first.write_text(json.dumps(body(0, 9)))
    second.write_text(json.dumps(body(10, 29)))
    assert submit(lake_dir, first).returncode == 0
    killed = submit(lake_dir, second, crash_at=point)
    assert killed.returncode == -signal.SIGKILL
    with Lake(lake_dir) as lake:
        mark = lake.con.execute("SELECT last_seq FROM watermarks").fetchall()
        memories = lake.con.execute("SELECT count(*) FROM memories").fetchone()[0]
    committed = point == "after_watermark"
    assert mark == [(29 if committed else 9,)]  # never past an uncommitted window
    assert memories == (2 if committed else 1)
    rerun = submit(lake_dir, second)
    assert rerun.returncode == 0, rerun.stderr
    assert json.loads(rerun.stdout)["memories_written"] == (0 if committed else 1)
    with Lake(lake_dir) as lake:
        assert lake.con.execute("SELECT last_seq FROM watermarks").fetchall() == [(29,)]
        per_item = lake.con.execute(
            "SELECT client_request_id, count(*) FROM memories GROUP BY 1 HAVING count(*) > 1").fetchall()
        assert per_item == []
        assert lake.con.execute("SELECT count(*) FROM memories").fetchone()[0] == 2
        # Embeddings are written in the same transaction: one per memory, never an orphan.
        assert lake.con.execute(
            "SELECT count(*), count(DISTINCT e.memory_id), count(m.memory_id) FROM memory_embeddings e "
            "LEFT JOIN memories m USING (memory_id)").fetchone() == (2, 2, 2)


def test_a_run_killed_with_sigkill_is_marked_abandoned_by_the_next(tmp_path):
    lake_dir = tmp_path / "lake"
    first, second = tmp_path / "w1.json", tmp_path / "w2.json"
    first.write_text(json.dumps(body(0, 9)))
    second.write_text(json.dumps(body(10, 29)))
    assert submit(lake_dir, first, crash_at="after_ledger").returncode == -signal.SIGKILL
    with Lake(lake_dir) as lake:
        assert lake.con.execute("SELECT status FROM runs").fetchall() == [("running",)]
    assert submit(lake_dir, second).returncode == 0
    with Lake(lake_dir) as lake:
        statuses = lake.con.execute("SELECT status FROM runs ORDER BY started_at").fetchall()
    assert statuses == [("abandoned",), ("finished",)]


def test_a_seq_beyond_bigint_is_a_422_not_a_crash(tmp_path):
    huge = body(0, 0)
    huge["cursor_to"] = huge["events"][0]["seq"] = 2**65
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(huge))
    result = submit(tmp_path / "lake", path)
    assert result.returncode == 2 and '"status_code": 422' in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "lake").exists()
