"""The connection guard's counts and limits, without a server (the server-level attacks are in
tests/jobs/test_server_misuse.py)."""

from __future__ import annotations

import logging
import resource

from jobs.http.guard import ConnectionGuard
from jobs.settings import ServerSettings


def test_caps_per_client_and_in_total_and_release():
    guard = ConnectionGuard(header_seconds=1, body_seconds=2, total=3, per_client=2)
    assert guard.admit("a", 1) is None and guard.admit("a", 2) is None
    assert "2 connections from a are open" in guard.admit("a", 3)
    assert guard.admit("b", 3) is None
    assert "the most this server holds" in guard.admit("c", 4)
    for address in ("a", "a", "a", "b", "c"):
        guard.release(address)
    assert guard.open_by_client == {}
    assert ConnectionGuard(1, 2, total=3, per_client=0).admit("a", 3) is None  # 0: no cap


def test_the_total_is_at_most_half_the_open_file_limit(monkeypatch):
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (512, 4096))
    guard = ConnectionGuard.of(ServerSettings(max_connections=1024, body_read_seconds=30))
    assert (guard.total, guard.body_seconds) == (256, 35)
    assert "at most 256 connections, 128 per client address" in guard.describe()
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (resource.RLIM_INFINITY,) * 2)
    assert ConnectionGuard.of(ServerSettings(max_connections=100)).total == 100


def test_an_attack_logs_one_line_per_kind_per_interval(caplog, monkeypatch):
    clock = iter([100.0, 101.0, 102.0, 111.0])
    monkeypatch.setattr("jobs.http.guard.time.monotonic", lambda: next(clock))
    guard = ConnectionGuard(1, 2, total=3, per_client=2)
    with caplog.at_level(logging.WARNING, logger="jobs.http.guard"):
        for _ in range(4):
            guard.note("refused", "refused a connection from %s", "10.0.0.9")
    assert [record.getMessage() for record in caplog.records] == [
        "refused a connection from 10.0.0.9",
        "refused a connection from 10.0.0.9 (and 2 more like it in the last 11s)"]
