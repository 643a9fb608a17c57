"""A bench killed by a timeout's SIGTERM leaves no server or process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid

import psutil
import pytest

from tests.serving import ROOT
from tests.services import postgres_bin


def tagged(tag: str) -> list[tuple[int, str]]:
    """Every live process that inherited the environment variable BENCH_KILL_TAG=tag."""
    found = []
    for process in psutil.process_iter():
        try:
            if process.environ().get("BENCH_KILL_TAG") == tag:
                found.append((process.pid, process.name()))
        except psutil.Error:
            pass
    return found


@pytest.mark.slow
def test_a_sigterm_to_the_orchestration_bench_stops_its_postgres_and_ray(tmp_path):
    if postgres_bin("initdb") is None:
        pytest.skip("PostgreSQL is not installed")
    tag = uuid.uuid4().hex
    env = {**os.environ, "BENCH_KILL_TAG": tag, "BENCH_OUT": str(tmp_path)}
    bench = subprocess.Popen([sys.executable, str(ROOT / "bench" / "orchestration.py"), "--sizes",
                              "300", "--lake", "postgres"], env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any(n == "postgres" for _, n in tagged(tag)):
            time.sleep(0.5)
        assert any(name == "postgres" for _, name in tagged(tag)), "the bench's Postgres never started"
        time.sleep(3)
        os.killpg(bench.pid, signal.SIGTERM)
        assert bench.wait(60) == 128 + signal.SIGTERM
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and tagged(tag):
            time.sleep(0.5)
        assert tagged(tag) == []
    finally:
        for pid, _ in tagged(tag):
            os.kill(pid, signal.SIGKILL)
