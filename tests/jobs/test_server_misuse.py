"""Issue 28, the server under misuse, through real HTTP on loopback: what a stranger learns from
/healthz, ids and seqs at their limits, and the documented fleet flow on the server's machine
(tenants as in configs/server.toml, no trails on disk)."""

from __future__ import annotations

import contextlib
import json
import resource
import selectors
import socket
import time

import httpx
import pytest
from click.testing import CliRunner

from jobs.cli import main
from sinks.lake import Lake
from tests.serving import Server, body, write_config


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("misuse")
    config = write_config(folder / "server.toml", folder / "lake",
                          tail="[embeddings]\nenabled = false")
    server = Server(config)
    yield server, folder / "lake", config
    server.stop()


@pytest.fixture
def bare_machine(tmp_path, monkeypatch):
    """A server's machine: a home with no trails of any source."""
    monkeypatch.setenv("HOME", str(tmp_path / "empty-home"))
    for variable in ("CODEX_HOME", "OPENCLAW_STATE_DIR", "CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(variable, raising=False)


def invoke(config, *args):
    return CliRunner().invoke(main, ["--config", str(config), *[str(arg) for arg in args]])


def lake_rows(lake, sql):
    with Lake(lake, create=False) as opened:
        return opened.con.execute(sql).fetchall()


def test_healthz_tells_a_stranger_only_ok(served):
    """Item 15: the absolute lake path and write counters were given to anyone."""
    server, lake, _ = served
    for headers in ({}, {"X-API-Key": "ti_not_a_key"}):
        stranger = httpx.get(f"{server.url}/healthz", headers=headers)
        assert stranger.status_code == 200 and stranger.json() == {"status": "ok"}
        assert str(lake) not in stranger.text
    with server.client("reader") as http:
        known = http.get("/healthz").json()
    assert known["status"] == "ok" and known["lake"].endswith("lake")
    assert "accepted_windows" in known and "transactions" in known


def test_a_node_id_with_a_control_character_is_refused_on_every_way_in(served):
    """Item 5: a NUL node id was accepted (200), then its watermark document was a 500."""
    server, _, _ = served
    with server.client() as http:
        submitted = http.post("/api/v1/interview/submit", json=body("n:\x00nul", 0))
        polled = http.get("/api/v1/interview/commands", params={"node_id": "n:\x01"})
    assert submitted.status_code == 422
    assert submitted.json()["detail"] == ("node_id: control character U+0000 at position 2: ids "
                                          "are printable text")
    assert polled.status_code == 422 and polled.json()["detail"].startswith(
        "query: node_id: control character U+0001")


CREDENTIALS = ["hvs.CAESIJ1kYk9Xq2Lm8vB4nR8tW3zQ_pE7uYx0aS6dF9gH2jK",  # item 6: Vault,
               "MTA1NzQ4OTk5NjkxNTk4MDQ0OA.GyT3cA.Kq8Zr2LmX9vT4kP7wN1sBaC3dE5fG7hJ9kL",  # Discord,
               "hf_q8Zr2LmX9vT4kP7wN1sBaC3dE5fG7hJ9kL",  # Hugging Face, an OpenAI project key
               "sk-proj-" + "abcdefghij" * 6]


def test_session_ids_and_the_new_credential_shapes_are_stored_masked(served):
    """Item 10: an e-mail in an event's session id reached the inbox, memories and recall.
    Item 6: four credential shapes were stored in clear in the inbox."""
    server, lake, _ = served
    window = body("n:session-id", 0, len(CREDENTIALS))
    for event, secret in zip(window["events"], CREDENTIALS):
        event["session_id"] = "chat with jane.doe@example.com"
        event["content"] = f"export VAULT_TOKEN={secret}" if secret.startswith("hvs.") else (
            f"the token is {secret} for the bot")
    with server.client() as http:
        assert http.post("/api/v1/interview/submit", json=window).status_code == 200
    (stored,) = lake_rows(lake, "SELECT events FROM inbox_jobs WHERE node_id = 'n:session-id'")
    assert "jane.doe@example.com" not in str(stored) and "chat with «EMAIL»" in str(stored)
    assert [secret for secret in CREDENTIALS if secret in str(stored)] == []


def test_the_largest_seq_is_accepted_drained_and_shown_by_status(served, ray_cluster, bare_machine):
    """Item 4: a window ending at 2**63 - 1 was accepted, then `interview status` failed on an
    INT64 overflow. The largest seq now is 2**53 - 1; a window ending there goes all the way."""
    server, lake, config = served
    last = 2**53 - 1
    with server.client() as http:
        reply = http.post("/api/v1/interview/submit", json={**body("n:max-seq", last - 9, 10),
                                                            "cursor_from": 0})
        assert reply.status_code == 200 and reply.json()["watermark"] == last
        over = http.post("/api/v1/interview/submit", json=body("n:max-seq", last - 8, 10))
        assert over.status_code == 422 and "events.9.seq" in over.json()["detail"]
    assert invoke(config, "run", "--json").exit_code == 0
    assert lake_rows(lake, "SELECT cursor_from, cursor_to FROM attempts WHERE node_id = "
                           "'n:max-seq'") == [(0, last)]
    status = invoke(config, "status", "--json")
    assert status.exit_code == 0, status.output
    assert json.loads(status.stdout)["inbox"]["done"] >= 1


def test_the_fleet_flow_on_the_servers_machine(served, ray_cluster, bare_machine):
    """Item 8: `interview run` drained the inbox, then exited 2 with "no project is allowed yet
    ... --all-projects" (even with --all-projects): cron reported a failure every night. The same
    for `interview status` of a tenant with nothing pushed yet."""
    server, lake, config = served
    with server.client() as http:
        assert http.post("/api/v1/interview/submit", json=body("n:fleet", 0)).status_code == 200
    first = invoke(config, "run")
    assert first.exit_code == 0, first.output
    assert "tenant acme: " in first.stdout and "windows_committed=" in first.stdout
    assert lake_rows(lake, "SELECT status FROM inbox WHERE node_id = 'n:fleet'") == [("done",)]
    again = invoke(config, "run")  # nothing pending: the nightly cron job of the next night
    assert again.exit_code == 0, again.output
    flagged = invoke(config, "run", "--all-projects")
    assert flagged.exit_code == 0, flagged.output
    assert "each tenant reads the projects its own allowlist names" in flagged.stderr
    for tenant in ("acme", "beta"):  # beta has pushed nothing
        status = invoke(config, "status", "--tenant", tenant)
        assert status.exit_code == 0, status.output
    assert "no project is allowed" not in status.output


# -- Slowloris (item 3): half-sent requests were never timed out, nor connections capped ---------

def connect_from(server, source: str, count: int) -> list[socket.socket]:
    """`count` connections to the server from the loopback address `source` (127.0.0.0/8 is all
    loopback: each address is another client)."""
    host, port = server.url.removeprefix("http://").split(":")
    made = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind((source, 0))
        sock.connect((host, int(port)))
        made.append(sock)
    return made


def closed_within(socks, seconds: float) -> dict[socket.socket, bytes]:
    """The connections the server closed within `seconds`, with what it sent before."""
    got = {sock: b"" for sock in socks}
    closed: dict[socket.socket, bytes] = {}
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            selector.register(sock, selectors.EVENT_READ)
        while len(closed) < len(socks) and (left := deadline - time.monotonic()) > 0:
            for key, _ in selector.select(left):
                try:
                    chunk = key.fileobj.recv(65536)
                except ConnectionResetError:
                    chunk = b""
                if chunk:
                    got[key.fileobj] += chunk
                else:
                    closed[key.fileobj] = got[key.fileobj]
                    selector.unregister(key.fileobj)
    return closed


def test_slow_requests_are_timed_out_and_one_client_cannot_take_every_connection(tmp_path):
    config = write_config(tmp_path / "server.toml", tmp_path / "lake",
                          extra="header_read_seconds = 4\nbody_read_seconds = 1\n"
                                "max_connections_per_client = 5")
    server = Server(config)
    try:
        started = time.monotonic()
        attack = connect_from(server, "127.0.0.2", 10)  # opened, never written to
        refused = closed_within(attack, 2)
        assert len(refused) == 5, refused
        assert all(answer.startswith(b"HTTP/1.1 503") and b"max_connections_per_client: 5"
                   in answer for answer in refused.values())
        held = [sock for sock in attack if sock not in refused]
        for sock in held:  # a request line and half the headers, then nothing
            sock.sendall(b"POST /api/v1/interview/submit HTTP/1.1\r\nHost: x\r\nX-API-Key: ")
        with server.client() as http:  # another client is served meanwhile
            assert http.post("/api/v1/interview/submit", json=body("n:loris", 0)).status_code == 200
        timed_out = closed_within(held, 15)
        assert len(timed_out) == 5 and time.monotonic() - started >= 3.5
        assert all(answer.startswith(b"HTTP/1.1 408") and b"request headers not received within 4s"
                   in answer for answer in timed_out.values())
        # A body trickled to a route that never reads it: closed past body_read_seconds + grace.
        (slow,) = connect_from(server, "127.0.0.2", 1)
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
        started, closed = time.monotonic(), {}
        while not closed and time.monotonic() - started < 20:
            with contextlib.suppress(OSError):
                slow.sendall(b"x")
            closed = closed_within([slow], 0.5)
        assert closed and 5 <= time.monotonic() - started < 20
        for sock in attack + [slow]:
            sock.close()
    finally:
        server.stop()
    log = server.log.read_text()
    assert "refused a connection from 127.0.0.2: 5 connections from 127.0.0.2 are open" in log
    assert ("closed a connection from 127.0.0.2: request headers not received within 4s "
            "(server.header_read_seconds)") in log
    assert ("closed a connection from 127.0.0.2: request body not received within 6s "
            "(server.body_read_seconds)") in log


def test_connections_stop_at_half_the_open_file_limit_and_the_lake_keeps_working(tmp_path):
    """With the open-file limit at 512, 496 half-sent requests made every real submit fail for
    as long as they stayed. The cap keeps half the files for the lake; the deadline frees the
    rest."""
    config = write_config(tmp_path / "server.toml", tmp_path / "lake",
                          extra="header_read_seconds = 4\nmax_connections_per_client = 0")
    server = Server(config, preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE,
                                                                  (200, 200)))
    try:
        attack = connect_from(server, "127.0.0.2", 180)
        refused = closed_within(attack, 3)
        assert 75 <= len(attack) - len(refused) <= 100  # 100: half of 200
        assert all(b"server.max_connections" in answer for answer in refused.values() if answer)
        held = [sock for sock in attack if sock not in refused]
        for sock in held:
            sock.sendall(b"POST /api/v1/interview/submit HTTP/1.1\r\nHost: x\r\n")
        assert len(closed_within(held, 15)) == len(held)
        with server.client() as http:
            for start in (0, 10, 20):
                reply = http.post("/api/v1/interview/submit", json=body("n:fd", start))
                assert reply.status_code == 200, reply.text
        for sock in attack:
            sock.close()
    finally:
        server.stop()
    log = server.log.read_text()
    assert "the most this server holds (server.max_connections" in log
    assert "Too many open files" not in log
