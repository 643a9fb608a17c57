"""Embedding backfill: `interview embed` fills what is missing, once, and survives a kill."""

import json
import os
import signal
import subprocess
import sys

from sinks.lake import Lake
from synth.embeddings import EMBEDDING_MODEL


def cli(*args, crash_at=None, env_extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("INTERVIEW_CRASH")}
    env.update(env_extra or {})
    if crash_at:
        env["INTERVIEW_CRASH_AT"] = crash_at
    return subprocess.run([sys.executable, "-m", "jobs.cli", *args], capture_output=True, text=True,
                          env=env, timeout=300)


def submit_windows(tmp_path, lake_dir, count):
    """`count` windows written with embeddings off, as an older lake would have them."""
    for n in range(count):
        body = {"node_id": f"cc:m:n{n}", "agent_id": "a", "cursor_from": 0, "cursor_to": n,
                "events": [{"seq": s, "ts": f"2026-01-0{1 + n % 9}T10:00:{s:02d}Z", "role": "user",
                            "kind": "prompt", "content": f"step {s}"} for s in range(n + 1)]}
        path = tmp_path / f"w{n}.json"
        path.write_text(json.dumps(body))
        done = cli("submit", str(path), "--lake", str(lake_dir), "--backend", "none", "--tenant", "t",
                   env_extra={"INTERVIEW_EMBEDDINGS__ENABLED": "false"})
        assert done.returncode == 0, done.stderr


def embedding_counts(lake_dir):
    with Lake(lake_dir, create=False) as lake:
        return lake.con.execute(
            "SELECT (SELECT count(*) FROM memories), count(*), count(DISTINCT memory_id) "
            "FROM memory_embeddings WHERE model = ?", [EMBEDDING_MODEL]).fetchone()


def test_embed_backfills_every_memory_once_even_after_a_kill(tmp_path):
    lake_dir = tmp_path / "lake"
    submit_windows(tmp_path, lake_dir, 5)
    assert embedding_counts(lake_dir) == (5, 0, 0)
    killed = cli("embed", "--lake", str(lake_dir), "--tenant", "t", crash_at="mid_embed",
                 env_extra={"INTERVIEW_EMBEDDINGS__BATCH_SIZE": "2"})
    assert killed.returncode == -signal.SIGKILL
    assert embedding_counts(lake_dir) == (5, 0, 0)  # the batch died with its transaction
    partial = cli("embed", "--lake", str(lake_dir), "--tenant", "t", "--limit", "2")
    assert partial.returncode == 0, partial.stderr
    assert "2 memories embedded" in partial.stdout and "3 still without" in partial.stdout
    rest = cli("embed", "--lake", str(lake_dir), "--tenant", "t")
    assert "3 memories embedded" in rest.stdout
    again = cli("embed", "--lake", str(lake_dir), "--tenant", "t")
    assert "0 memories embedded" in again.stdout
    assert embedding_counts(lake_dir) == (5, 5, 5)


def test_memories_are_embedded_as_they_are_written(tmp_path):
    lake_dir = tmp_path / "lake"
    body = tmp_path / "w.json"
    body.write_text(json.dumps({"node_id": "cc:m:x", "agent_id": "a", "cursor_from": 0, "cursor_to": 1,
                                "events": [{"seq": s, "ts": "2026-01-01T10:00:00Z", "role": "user",
                                            "kind": "prompt", "content": "hello"} for s in (0, 1)]}))
    assert cli("submit", str(body), "--lake", str(lake_dir), "--backend", "none").returncode == 0
    assert embedding_counts(lake_dir) == (1, 1, 1)
