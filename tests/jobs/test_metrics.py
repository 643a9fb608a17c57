"""`/metrics` of a real `interview serve` on loopback: the Prometheus text format parses with
`prometheus_client`'s own parser, its counters move with a submit, and each key sees only what
it may read."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.serving import Server, body, write_config


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("metrics")
    server = Server(write_config(folder / "server.toml", folder / "lake"))
    yield server
    server.stop()


def scrape(server, who: str) -> dict[tuple, float]:
    with server.client(who) as http:
        answer = http.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_counters_move_with_a_submit(served):
    before = scrape(served, "reader")
    with served.client("writer") as http:
        assert http.post("/api/v1/interview/submit", json=body("n:metrics", 0)).status_code == 200
        refused = http.post("/api/v1/interview/submit", json={**body("n:bad", 5), "cursor_to": 4})
        assert refused.status_code == 422
    after = scrape(served, "reader")
    assert value(after, "interview_windows_accepted_total", tenant="acme") == \
        value(before, "interview_windows_accepted_total", tenant="acme") + 1
    assert value(after, "interview_windows_rejected_total", tenant="acme", reason="invalid") == \
        value(before, "interview_windows_rejected_total", tenant="acme", reason="invalid") + 1
    assert value(after, "interview_inbox_depth", tenant="acme", status="pending") == \
        value(before, "interview_inbox_depth", tenant="acme", status="pending") + 1
    assert value(after, "interview_inbox_oldest_age_seconds", tenant="acme") >= 0
    assert value(after, "interview_submit_seconds_count") >= 2
    assert ("interview_memories_written_total", (("tenant", "acme"),)) in after
    assert ("interview_parked_windows", (("tenant", "acme"), ("way", "pushed"))) in after


def test_each_key_sees_what_it_may_read(served):
    with served.client("writer") as http:
        assert http.post("/api/v1/interview/submit", json=body("n:m2", 0)).status_code == 200
    with served.client("beta") as http:
        assert http.post("/api/v1/interview/submit", json=body("n:m3", 0)).status_code == 200
    beta = scrape(served, "beta")
    assert {dict(labels).get("tenant") for _, labels in beta} <= {None, "beta"}
    assert value(beta, "interview_windows_accepted_total", tenant="beta") >= 1
    assert not any(name == "interview_model_seconds_total" for name, _ in beta)
    admin = scrape(served, "admin")
    tenants = {dict(labels).get("tenant") for _, labels in admin}
    assert {"acme", "beta"} <= tenants
    assert any(name == "interview_model_seconds_total" for name, _ in admin)
    with served.client("writer") as http:  # refused without a key, as every read
        http.headers.pop("X-API-Key")
        assert http.get("/metrics").status_code == 401
