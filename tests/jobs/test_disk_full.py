"""Issue 28 item 7 on a real full disk: a batch run whose lake sits on a tmpfs with no room left
stops with one clear message (exit 1), without retrying for a minute and without a traceback.

The tmpfs is mounted in a private mount namespace (`unshare --mount`, with `--map-root-user`
when not root), so nothing outside the test's process tree sees it; where the kernel refuses
namespaces the test is skipped with the reason."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time

import pytest

from tests.conftest import ROOT, SAMPLES


def unshare_prefix() -> list[str]:
    prefix = ["unshare", "--mount"] + ([] if os.geteuid() == 0 else ["--map-root-user"])
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1) here")
    probe = subprocess.run([*prefix, "true"], capture_output=True, check=False)
    if probe.returncode:
        pytest.skip(f"no private mount namespace here: {probe.stderr.decode().strip()}")
    return prefix


def test_a_batch_run_on_a_full_disk_says_so_once(tmp_path):
    prefix = unshare_prefix()
    mount, trails = tmp_path / "small-disk", tmp_path / "projects"
    mount.mkdir()
    shutil.copytree(SAMPLES / "spotter", trails / "spotter")
    window = tmp_path / "window.json"
    window.write_text(json.dumps({
        "node_id": "n:first", "agent_id": "a", "cursor_from": 0, "cursor_to": 0,
        "events": [{"seq": 0, "ts": "2026-11-02T10:00:00Z", "role": "user", "kind": "prompt",
                    "content": "We chose DuckLake for the catalog."}]}))
    cli = f"{shlex.quote(sys.executable)} -m jobs.cli"
    lake, filler = shlex.quote(str(mount / "lake")), shlex.quote(str(mount / "filler"))
    script = f"""
        set -e
        mount -t tmpfs -o size=3m tmpfs {shlex.quote(str(mount))}
        {cli} submit {shlex.quote(str(window))} --lake {lake} > /dev/null
        free=$(df -k --output=avail {shlex.quote(str(mount))} | tail -1)
        dd if=/dev/zero of={filler} bs=1k count=$((free - 64)) 2>/dev/null
        set +e
        start=$(date +%s)
        {cli} run --lake {lake} --roots {shlex.quote(str(trails))} --all-projects \
            --since-hours 0 --flush --max-windows 20
        echo "exit=$? seconds=$(( $(date +%s) - start ))"
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT), "INTERVIEW_BACKEND": "none",
           "INTERVIEW_EMBEDDINGS__ENABLED": "false"}
    started = time.monotonic()
    done = subprocess.run([*prefix, "sh", "-c", script], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    output = done.stdout + done.stderr
    assert "exit=1 " in done.stdout, output
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and "disk holding the lake" in errors[0] and "is full" in errors[0]
    assert "free space and rerun" in errors[0] and "restore catalog.sqlite" not in errors[0]
    assert "Traceback" not in output
    assert time.monotonic() - started < 300  # not a minute of retries on top of the start-up
