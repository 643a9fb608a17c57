"""`interview serve` over real HTTP: every error row of contract §1.1, the async path, watermark
documents, the scheduler and its commands, and a batch run draining the inbox while it serves."""

from __future__ import annotations

import pytest

from jobs.api import run_nodes
from jobs.settings import load_settings
from sinks.lake import Lake
from sinks.watermarks import watermark_doc_id
from tests.serving import Server, body, write_config


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    config = write_config(folder / "server.toml", folder / "lake")
    server = Server(config)
    yield server, folder / "lake", config
    server.stop()


def lake_rows(lake, sql, params=()):
    with Lake(lake, create=False) as opened:
        return opened.con.execute(sql, list(params)).fetchall()


def accepted_count(server) -> int:
    with server.client() as http:
        return http.get("/healthz").json()["accepted_windows"]


def _big(node):
    window = body(node, 0, 1)
    window["events"][0]["content"] = "x" * 8000
    return {**window, "padding": "y" * 1_100_000}


ERROR_ROWS = [
    # (key, body or raw bytes, status, detail (a part of it))
    (None, body("n:auth", 0), 401, "Missing API key"),
    ("ti_wrong", body("n:auth", 0), 401, "Invalid API key"),
    ("reader", body("n:ro", 0), 403,
     "This API key is read-only and cannot perform write operations."),
    ("writer", body("n:t", 0, tenant_id="beta"), 403, "API key is not authorized for tenant 'beta'"),
    ("writer", {**body("n:c", 5), "cursor_to": 4}, 422, "cursor_to must be >= cursor_from"),
    ("writer", {**body("n:s", 0), "events": body("n:s", 0)["events"][:2] * 2}, 422,
     "events must be strictly seq-ascending (no duplicates)"),
    ("writer", {**body("n:r", 0), "cursor_from": 3}, 422,
     "event seq range must lie within [cursor_from, cursor_to]"),
    ("gamma", body("n:g", 0), 403, "interviewer is not enabled for this tenant"),
    ("writer", {**body("n:ts", 0), "events": [{k: v for k, v in e.items() if k != "ts"}
                                               for e in body("n:ts", 0)["events"]]}, 422,
     "events.0.ts: Field required"),
    ("writer", {**body("n:e", 0), "events": []}, 422, "events: List should have at least 1"),
    ("writer", body("n:many", 0, 501), 422, "events: List should have at most 500"),
    ("writer", {**body("n:long", 0, 1), "events": [{**body("n:long", 0, 1)["events"][0],
                                                    "content": "x" * 8001}]}, 422,
     "events.0.content: String should have at most 8000"),
    ("writer", {**body("n:node", 0), "node_id": ""}, 422, "node_id: String should have at least 1"),
    # Issue 28 items 5 and 10: ids are printable and hold nothing the mask would hide.
    ("writer", body("n:nul\x00", 0), 422, "node_id: control character U+0000 at position 5"),
    ("writer", {**body("n:ctl", 0), "agent_id": "a\x1fb"}, 422, "agent_id: control character"),
    ("writer", body("n:ctl", 0, fleet_id="f\n"), 422, "fleet_id: control character U+000A"),
    ("writer", body("n:ctl", 0, command_id="c\x7f"), 422, "command_id: control character"),
    ("writer", {**body("n:ctl", 0), "events": [{**body("n:ctl", 0)["events"][0],
                                                "session_id": "s\x00"}]}, 422,
     "events.0.session_id: control character U+0000"),
    ("writer", body("jane.doe@example.com", 0), 422, "node_id: holds what the masking layer hides"),
    ("writer", {**body("n:id", 0), "agent_id": "ghp_" + "a1" * 18}, 422,
     "agent_id: holds what the masking layer hides («API_KEY»)"),
    ("writer", body("n:id", 0, command_id="sk-ant-api03-" + "x" * 30), 422, "command_id: holds"),
    ("writer", body("n:id", 0, fleet_id="AKIAABCDEFGHIJKLMNOP"), 422, "fleet_id: holds"),
    # Item 4: seqs and cursors stop at 2**53 - 1 (every JSON client keeps it exact).
    ("writer", body("n:seq", 2**63 - 1, 1), 422, "cursor_from: Input should be less than or equal"),
    ("writer", {**body("n:seq", 0), "cursor_to": 2**53}, 422, "cursor_to: Input should be less"),
    ("writer", b'{"node_id": "n:json", "agent_id": ', 422, "not valid JSON or UTF-8 at line 1"),
    ("writer", b'{"node_id": "n:\xff\xfe"}', 422, "not valid JSON or UTF-8"),
    ("writer", b"[1, 2]", 422, "body: Input should be a JSON object"),
    ("writer", _big("n:big"), 413, "over the 1000000-byte limit"),
]


@pytest.mark.parametrize("key, payload, status, detail", ERROR_ROWS,
                         ids=[f"{row[2]}-{row[3][:40]}" for row in ERROR_ROWS])
def test_every_error_row_of_the_contract_writes_nothing(served, key, payload, status, detail):
    server, lake, _ = served
    before = accepted_count(server)
    import httpx

    from tests.serving import KEYS

    headers = {} if key is None else {"X-API-Key": KEYS[key][0] if key in KEYS else key}
    if isinstance(payload, bytes):
        response = httpx.post(f"{server.url}/api/v1/interview/submit", content=payload,
                              headers={**headers, "content-type": "application/json"})
    else:
        response = httpx.post(f"{server.url}/api/v1/interview/submit", json=payload, headers=headers)
    assert response.status_code == status, response.text
    assert detail in response.json()["detail"]
    assert accepted_count(server) == before


def test_accept_is_durable_idempotent_and_forward_only(served):
    server, lake, _ = served
    with server.client() as http:
        first = http.post("/api/v1/interview/submit", json=body("n:ok", 0, 10, gap=5))
        assert first.status_code == 200
        assert first.json() == {"status": "accepted", "watermark": 14, "memories_written": 0,
                                "errors": 0}
        again = http.post("/api/v1/interview/submit", json=body("n:ok", 0, 10, gap=5))
        assert again.json()["watermark"] == 14
        stale = http.post("/api/v1/interview/submit", json=body("n:ok", 0, 5))
        assert stale.status_code == 200 and stale.json()["watermark"] == 14
        document = http.get(f"/api/v1/documents/{watermark_doc_id('n:ok')}",
                            params={"tenant_id": "acme", "collection": "interview_watermarks"})
    assert document.status_code == 200
    data = document.json()["data"]
    assert data["last_seq"] == 14 and data["node_id"] == "n:ok" and data["tenant_id"] == "acme"
    assert document.json()["doc_id"] == watermark_doc_id("n:ok")
    jobs = lake_rows(lake, "SELECT job_id, cursor_from, cursor_to, status FROM inbox "
                           "WHERE node_id = 'n:ok' ORDER BY cursor_to")
    assert [(start, end, status) for _, start, end, status in jobs] == [
        (0, 4, "pending"), (0, 14, "pending")]
    assert lake_rows(lake, "SELECT count(*) FROM inbox_jobs WHERE node_id = 'n:ok'") == [(2,)]


def test_documents_are_404_for_unknown_nodes_and_refused_across_tenants(served):
    server, _, _ = served
    path = f"/api/v1/documents/{watermark_doc_id('n:never')}"
    with server.client() as http:
        missing = http.get(path, params={"tenant_id": "acme", "collection": "interview_watermarks"})
        other = http.get(path, params={"tenant_id": "beta", "collection": "interview_watermarks"})
    assert missing.status_code == 404 and missing.json() == {"detail": "Document not found"}
    assert other.status_code == 403
    assert other.json()["detail"] == "API key is not authorized to read tenant 'beta'"


def test_the_scheduler_queues_one_command_per_due_node_and_a_submit_closes_it(served):
    server, _, _ = served
    with server.client() as node, server.client("admin") as admin, server.client("reader") as reader:
        assert node.get("/api/v1/interview/commands", params={"node_id": "n:sched"}).json()[
            "commands"] == []
        assert reader.post("/api/v1/admin/interview/schedule/run").json() == {
            "detail": "Admin access required"}
        first = admin.post("/api/v1/admin/interview/schedule/run").json()
        assert first["commands_queued"] >= 1 and first["tenants"] == 2
        second = admin.post("/api/v1/admin/interview/schedule/run").json()
        assert second["commands_queued"] == 0 and second["skipped_pending"] >= 1
        commands = node.get("/api/v1/interview/commands", params={"node_id": "n:sched"}).json()
        (command,) = commands["commands"]
        assert command["command"] == "interview_request"
        assert command["payload"] == {"node_id": "n:sched", "since_seq": 0,
                                      "template_id": "default-v1", "period_hours": 12}
        reply = node.post("/api/v1/interview/submit",
                          json=body("n:sched", 0, 10, command_id=command["id"]))
        assert reply.status_code == 200
        assert node.get("/api/v1/interview/commands", params={"node_id": "n:sched"}).json()[
            "commands"] == []
        third = admin.post("/api/v1/admin/interview/schedule/run").json()
    assert third["skipped_not_due"] >= 1  # interviewed just now: not due for 12 hours


def test_a_batch_run_drains_the_inbox_while_the_server_accepts(served, ray_cluster):
    server, lake, config = served
    with server.client() as http:
        for start in (0, 10, 20):
            assert http.post("/api/v1/interview/submit",
                             json=body("n:drain", start, 10)).status_code == 200
    settings = load_settings(config, lake=lake, tenant_id="acme", projects=["nothing-here"],
                             sources=["claude-code"],
                             claude_code_roots=[str(lake.parent / "no-trails")],
                             inbox_jobs_per_run=1000)
    summary = run_nodes(settings)
    assert summary.inbox_claimed >= 3 and summary.windows >= 3
    rows = lake_rows(lake, "SELECT status, count(*) FROM inbox WHERE node_id = 'n:drain' GROUP BY 1")
    assert rows == [("done", 3)]
    memories = lake_rows(lake, "SELECT attempt_id, count(*) FROM memories WHERE node_id = "
                               "'n:drain' GROUP BY 1")
    assert len(memories) == 3 and all(count == 1 for _, count in memories)
    with server.client() as http:  # a done window sent again: 200, no new job, no new memory
        again = http.post("/api/v1/interview/submit", json=body("n:drain", 10, 10))
    assert again.status_code == 200 and again.json()["watermark"] == 29
    assert run_nodes(settings).inbox_claimed == 0
    assert lake_rows(lake, "SELECT count(*) FROM memories WHERE node_id = 'n:drain'") == [(3,)]


def test_a_parked_job_is_refused_with_409_until_retried(served):
    from ingest.windows import attempt_id
    from sinks.inbox import Settled, job_id, requeue_failed_jobs, settle_jobs
    from sinks.lake import write_transaction

    server, lake, _ = served
    with server.client() as http:
        assert http.post("/api/v1/interview/submit", json=body("n:park", 0)).status_code == 200
        job = job_id(attempt_id("n:park", 0, 9))
        with Lake(lake, writer=True, exclusive=False) as shared:
            write_transaction(shared.con, lambda con: settle_jobs(
                con, "acme", [Settled(job, "failed_permanent", 3, "model failed 3 times")], "t"))
        refused = http.post("/api/v1/interview/submit", json=body("n:park", 0))
        assert refused.status_code == 409
        assert refused.json()["detail"] == ("interview job is permanently failed — operator "
                                            "intervention required")
        with Lake(lake, writer=True, exclusive=False) as shared:
            assert requeue_failed_jobs(shared.con, "acme", "n:park") == [("n:park", 0, 9)]
        assert http.post("/api/v1/interview/submit", json=body("n:park", 0)).status_code == 200


@pytest.mark.parametrize("budget, status", [("90", 200), ("0.001", 504)])
def test_the_inline_path_interviews_inside_the_request(tmp_path, budget, status):
    config = write_config(tmp_path / "server.toml", tmp_path / "lake",
                          extra=f"async_submit = false\nrequest_timeout_seconds = {budget}",
                          tail="[embeddings]\nenabled = false")
    server = Server(config)
    try:
        with server.client() as http:
            reply = http.post("/api/v1/interview/submit", json=body("n:inline", 0))
            assert reply.status_code == status, reply.text
            if status == 504:
                assert reply.json()["detail"] == ("interview exceeded its request budget; window "
                                                  "not consumed")
                return
            assert reply.json() == {"status": "committed", "watermark": 9, "memories_written": 1,
                                    "errors": 0}
            again = http.post("/api/v1/interview/submit", json=body("n:inline", 0))
            assert again.json() == {"status": "committed", "watermark": 9, "memories_written": 0,
                                    "errors": 0}
    finally:
        server.stop()
    assert lake_rows(tmp_path / "lake", "SELECT count(*) FROM memories") == [(1,)]
    assert lake_rows(tmp_path / "lake", "SELECT count(*) FROM inbox_jobs") == [(0,)]


def test_a_slow_client_gets_408_and_the_server_goes_on(tmp_path):
    import socket

    config = write_config(tmp_path / "server.toml", tmp_path / "lake", extra="body_read_seconds = 1")
    server = Server(config)
    try:
        host, port = server.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port))) as slow:
            slow.sendall(b"POST /api/v1/interview/submit HTTP/1.1\r\nHost: x\r\n"
                         b"X-API-Key: ti_writer_acme\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 1000\r\n\r\n{\"node_id\": ")
            slow.settimeout(10)
            answer = b""
            while b"within" not in answer:
                chunk = slow.recv(4096)
                if not chunk:
                    break
                answer += chunk
            answer = answer.decode()
        assert answer.startswith("HTTP/1.1 408") and "request body not received within 1s" in answer
        with server.client() as http:
            assert http.post("/api/v1/interview/submit", json=body("n:after", 0)).status_code == 200
    finally:
        server.stop()


def test_status_shows_the_inbox(served):
    from jobs.status import node_status

    server, lake, config = served
    with server.client() as http:
        assert http.post("/api/v1/interview/submit", json=body("n:status", 0)).status_code == 200
    settings = load_settings(config, lake=lake, tenant_id="acme", sources=["claude-code"],
                             claude_code_roots=[str(lake.parent / "no-trails")])
    report = node_status(settings)  # no project allowed: the inbox is still shown
    assert report["inbox"].get("pending", 0) + report["inbox"].get("done", 0) >= 1
