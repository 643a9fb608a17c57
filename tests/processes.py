"""Ending what a test's subprocess started, all of it."""

from __future__ import annotations

import contextlib
import glob
import os
import signal
import subprocess

import psutil


def terminate(process, grace: float = 30) -> None:
    """SIGTERM a child process and wait `grace` seconds for it, then kill it."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def kill_session(leader: int) -> None:
    """SIGKILL every process in the session of `leader` (a child started with
    `start_new_session=True`): its own process group, and Ray's workers, which the raylet puts in
    process groups of their own, so `os.killpg` alone leaves them running into the next test."""
    for process in psutil.process_iter():
        with contextlib.suppress(ProcessLookupError, PermissionError, psutil.Error):
            if os.getsid(process.pid) == leader:
                os.kill(process.pid, signal.SIGKILL)


def stderr_of(process, err: bytes) -> str:
    """A finished driver's stderr; where a signal other than the tests' own SIGKILL ended it, with
    the end of its Ray core-driver log (where Ray writes a fatal signal's stack) to say why."""
    text = err.decode()
    if process.returncode < 0 and process.returncode != -signal.SIGKILL:
        text += "\n--- Ray driver log ---\n" + _ray_driver_log(process.pid)
    return text


def _ray_driver_log(pid: int, chars: int = 4000) -> str:
    logs = glob.glob(f"/tmp/ray/session_*/logs/python-core-driver-*_{pid}.log")
    if not logs:
        return f"(no Ray driver log for pid {pid})"
    newest = max(logs, key=os.path.getmtime)
    with open(newest, errors="replace") as handle:
        return f"{newest}:\n{handle.read()[-chars:]}"
