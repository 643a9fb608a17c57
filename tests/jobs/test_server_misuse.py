"""Issue 28, the server under misuse, through real HTTP on loopback: what a stranger learns from
/healthz, ids and seqs at their limits, and the documented fleet flow on the server's machine
(tenants as in configs/server.toml, no trails on disk)."""

from __future__ import annotations

import json

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


def test_a_session_id_is_stored_masked(served):
    """Item 10: an e-mail in an event's session id reached the inbox, memories and recall."""
    server, lake, _ = served
    window = body("n:session-id", 0)
    for event in window["events"]:
        event["session_id"] = "chat with jane.doe@example.com"
    with server.client() as http:
        assert http.post("/api/v1/interview/submit", json=window).status_code == 200
    (stored,) = lake_rows(lake, "SELECT events FROM inbox_jobs WHERE node_id = 'n:session-id'")
    assert "jane.doe@example.com" not in str(stored) and "chat with «EMAIL»" in str(stored)


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
