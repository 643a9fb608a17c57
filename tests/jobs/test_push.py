"""`interview push` as a subprocess against a real server: the first push sends the new windows,
the second nothing; a refused key stops it (exit 2); an unreachable server fails every file
(exit 1); --dry-run prints what it would send without a network."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from tests.serving import KEYS, ROOT, Server, write_config


@pytest.fixture
def server(tmp_path):
    running = Server(write_config(tmp_path / "server.toml", tmp_path / "lake"))
    yield running
    running.stop()


def push(trail_root, *args, key="writer"):
    command = [sys.executable, "-m", "jobs.cli", "push", "--roots", str(trail_root),
               "--source", "claude-code", "--all-projects", "--since-hours", "0", "--flush",
               "--max-windows", "50", *args]
    if key:
        command += ["--api-key", KEYS[key][0] if key in KEYS else key]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "INTERVIEW_MACHINE_ID": "test-machine"}
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)


def test_first_push_sends_the_new_windows_and_the_second_sends_nothing(server, trail_root, tmp_path):
    first = push(trail_root, "--server", server.url, "--json")
    assert first.returncode == 0, first.stderr
    sent = json.loads(first.stdout)
    assert sent["windows_sent"] > 0 and sent["windows_accepted"] == sent["windows_sent"]
    assert sent["files_failed"] == 0
    second = json.loads(push(trail_root, "--server", server.url, "--json").stdout)
    assert second["windows_sent"] == 0 and second["files_failed"] == 0
    with server.client() as http:
        assert http.get("/healthz").json()["accepted_windows"] == sent["windows_sent"]


def test_a_refused_key_stops_the_push_with_exit_2(server, trail_root):
    refused = push(trail_root, "--server", server.url, key="ti_not_a_key")
    assert refused.returncode == 2
    assert "refused the API key (401)" in refused.stderr
    read_only = push(trail_root, "--server", server.url, key="reader")
    assert read_only.returncode == 2 and "(403)" in read_only.stderr


def test_an_unreachable_server_fails_every_file_and_exits_1(trail_root):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = push(trail_root, "--server", f"http://127.0.0.1:{port}", "--json")
    assert result.returncode == 1
    summary = json.loads(result.stdout)
    assert summary["files_failed"] == summary["files_tried"] > 0
    assert all(error["status"] is None and "no response" in error["detail"]
               for error in summary["errors"])


def test_dry_run_lists_the_windows_and_sends_nothing(trail_root):
    result = push(trail_root, "--server", "http://127.0.0.1:9", "--dry-run", key=None)
    assert result.returncode == 0, result.stderr
    assert "would send cc:" in result.stdout and "nothing sent" in result.stdout


def scripted_client(statuses):
    """A PushClient whose server answers each submit with the next status of `statuses`."""
    import httpx

    from jobs.http.push import PushClient

    calls = []

    def answer(request):
        if request.method == "GET":
            return httpx.Response(404, json={"detail": "Document not found"})
        calls.append(request)
        status = statuses[min(len(calls) - 1, len(statuses) - 1)]
        if status == "drop":
            raise httpx.ConnectError("connection reset")
        reply = {"status": "accepted", "watermark": 1, "memories_written": 0, "errors": 0}
        return httpx.Response(status, json=reply if status < 300 else {"detail": f"status {status}"})

    client = PushClient("http://server", "key",
                        client=httpx.Client(transport=httpx.MockTransport(answer)))
    return client, calls


@pytest.mark.parametrize("statuses, sent, failed", [
    ([504, 200], 2, 0),  # 504: the same window once more
    (["drop", 200], 2, 0),  # no response: once more
    ([504, 504], 2, 1),  # twice: the file is skipped
    ([500], 1, 1),  # 500: recorded, skipped, never retried
    ([422], 1, 1),
    ([409], 1, 1),
    ([207], 1, 0),  # partial counts as progress
])
def test_the_failure_matrix_of_the_reference_runner(trail_root, statuses, sent, failed):
    from jobs.http.push import push as run_push
    from jobs.settings import load_settings

    client, calls = scripted_client(statuses)
    settings = load_settings(None, claude_code_roots=[str(trail_root)], sources=["claude-code"],
                             all_projects=True, since_hours=0, flush=True, max_windows=1)
    from jobs.api import discover_nodes

    nodes = discover_nodes(settings).nodes[:1]
    summary = run_push(settings, nodes, client)
    assert len(calls) == sent and summary.files_failed == failed
    assert summary.windows_accepted == (0 if failed else 1)


def test_a_refused_key_aborts_instead_of_skipping(trail_root):
    from jobs.api import discover_nodes
    from jobs.http.push import PushAuthError
    from jobs.http.push import push as run_push
    from jobs.settings import load_settings

    client, _ = scripted_client([403])
    settings = load_settings(None, claude_code_roots=[str(trail_root)], sources=["claude-code"],
                             all_projects=True, since_hours=0, flush=True)
    with pytest.raises(PushAuthError):
        run_push(settings, discover_nodes(settings).nodes, client)
