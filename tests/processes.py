"""Ending what a test's subprocess started, all of it."""

from __future__ import annotations

import contextlib
import os
import signal

import psutil


def kill_session(leader: int) -> None:
    """SIGKILL every process in the session of `leader` (a child started with
    `start_new_session=True`): its own process group, and Ray's workers, which the raylet puts in
    process groups of their own, so `os.killpg` alone leaves them running into the next test."""
    for process in psutil.process_iter():
        with contextlib.suppress(ProcessLookupError, PermissionError, psutil.Error):
            if os.getsid(process.pid) == leader:
                os.kill(process.pid, signal.SIGKILL)
