"""The server under faults, through real HTTP: SIGKILL at each write step and at random moments
under load loses no accepted window and never leaves a watermark ahead of a durable job; 8
clients sending overlapping and repeated windows while a batch run drains end with every
window's memories exactly once."""

from __future__ import annotations

import random
import threading
import time

import httpx
import pytest

from jobs.api import run_nodes
from jobs.settings import load_settings
from sinks.lake import Lake
from sinks.watermarks import watermark_doc_id
from tests.serving import Server, body, write_config


def rows(lake, sql):
    with Lake(lake, create=False) as opened:
        return opened.con.execute(sql).fetchall()


def marks_never_ahead_of_jobs(lake) -> None:
    """Every node's watermark is the cursor_to of one of its durable jobs (or of a log row)."""
    bad = rows(lake, """
        SELECT w.node_id, w.last_seq FROM watermarks w
        WHERE w.last_seq NOT IN (SELECT cursor_to FROM inbox_jobs j WHERE j.node_id = w.node_id)
          AND w.last_seq NOT IN (SELECT last_seq FROM watermark_log l WHERE l.node_id = w.node_id)""")
    assert bad == []


@pytest.mark.parametrize("point, durable", [("before_inbox", False), ("after_inbox", False),
                                            ("after_accept", True)])
def test_a_kill_at_each_write_step_loses_nothing_accepted(tmp_path, point, durable):
    config = write_config(tmp_path / "server.toml", tmp_path / "lake")
    dying = Server(config, env={"INTERVIEW_CRASH_AT": point})
    with dying.client() as http, pytest.raises(httpx.TransportError):
        http.post("/api/v1/interview/submit", json=body("n:kill", 0, 10))
    dying.process.wait(30)
    assert dying.process.returncode == -9
    dying.stop()
    server = Server(config)
    try:
        with server.client() as http:
            path = f"/api/v1/documents/{watermark_doc_id('n:kill')}"
            document = http.get(path, params={"tenant_id": "acme"})
            assert document.status_code == (200 if durable else 404)
            jobs = rows(tmp_path / "lake", "SELECT count(*) FROM inbox_jobs")[0][0]
            assert jobs == (1 if durable else 0)
            # The client heard nothing, so it sends the window again: one job, one mark.
            again = http.post("/api/v1/interview/submit", json=body("n:kill", 0, 10))
            assert again.status_code == 200 and again.json()["watermark"] == 9
        assert rows(tmp_path / "lake", "SELECT count(*) FROM inbox_jobs") == [(1,)]
        marks_never_ahead_of_jobs(tmp_path / "lake")
    finally:
        server.stop()


def test_sigkill_at_random_moments_under_load_loses_no_accepted_window(tmp_path):
    """Clients push each node's windows in order from the server's watermark, as `push` does;
    the server is killed at random moments and restarted. Every 200 is durable, no node has a
    gap below its watermark, and no window is stored twice."""
    config = write_config(tmp_path / "server.toml", tmp_path / "lake")
    lake = tmp_path / "lake"
    nodes = [f"n:load:{i}" for i in range(4)]
    acknowledged: dict[str, int] = {node: -1 for node in nodes}
    rng = random.Random(13)
    for cycle in range(4):
        server = Server(config)
        stop = threading.Event()

        def client(node: str) -> None:
            with server.client() as http:
                while not stop.is_set():
                    try:
                        document = http.get(f"/api/v1/documents/{watermark_doc_id(node)}",
                                            params={"tenant_id": "acme"})
                        start = document.json()["data"]["last_seq"] + 1 if (
                            document.status_code == 200) else 0
                        reply = http.post("/api/v1/interview/submit", json=body(node, start, 10))
                    except httpx.TransportError:
                        return
                    if reply.status_code == 200:
                        acknowledged[node] = max(acknowledged[node], reply.json()["watermark"])

        threads = [threading.Thread(target=client, args=(node,)) for node in nodes]
        before = dict(acknowledged)
        for thread in threads:
            thread.start()
        # the kill lands at a random moment once this server has acknowledged a window (of every
        # node in the first cycle): a slow machine must not kill it before it ever serves
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (
                all(acknowledged[n] > before[n] for n in nodes) if cycle == 0
                else any(acknowledged[n] > before[n] for n in nodes)):
            time.sleep(0.05)
        time.sleep(rng.uniform(0.3, 1.5))
        server.kill()
        stop.set()
        for thread in threads:
            thread.join()
    for node in nodes:
        jobs = rows(lake, f"SELECT cursor_from, cursor_to FROM inbox_jobs WHERE node_id = '{node}' "
                          "ORDER BY cursor_from")
        assert len(jobs) == len(set(jobs)), "a window stored twice"
        assert [start for start, _ in jobs] == list(range(0, 10 * len(jobs), 10)), "a gap"
        assert jobs and jobs[-1][1] >= acknowledged[node], "a 200 that was not durable"
    marks_never_ahead_of_jobs(lake)
    assert sum(acknowledged[node] >= 9 for node in nodes) == len(nodes)


def test_eight_clients_and_a_draining_run_write_every_window_exactly_once(tmp_path, ray_cluster):
    config = write_config(tmp_path / "server.toml", tmp_path / "lake")
    lake = tmp_path / "lake"
    server = Server(config)
    windows = [body(f"n:c:{n}", start, 10) for n in range(4) for start in (0, 10, 20, 30)]
    windows += [body("n:c:0", 0, 20), body("n:c:1", 5, 10)]  # overlapping cuts of the same seqs
    statuses: list[int] = []

    def client(seed: int) -> None:
        order = random.Random(seed)
        with server.client() as http:
            for _ in range(3):  # every client sends every window, three times, in its own order
                for payload in order.sample(windows, len(windows)):
                    statuses.append(http.post("/api/v1/interview/submit", json=payload).status_code)

    settings = load_settings(config, lake=lake, tenant_id="acme", projects=["none"],
                             sources=["claude-code"], claude_code_roots=[str(tmp_path / "none")],
                             inbox_jobs_per_run=7)
    try:
        threads = [threading.Thread(target=client, args=(seed,)) for seed in range(8)]
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            run_nodes(settings)  # drains while the clients send
        for thread in threads:
            thread.join()
        while run_nodes(settings).inbox_claimed:
            pass
    finally:
        server.stop()
    assert set(statuses) == {200}
    assert rows(lake, "SELECT status, count(*) FROM inbox GROUP BY 1") == [("done", len(windows))]
    per_window = rows(lake, "SELECT attempt_id, count(*) FROM memories GROUP BY 1")
    assert len(per_window) == len(windows) and {count for _, count in per_window} == {1}
    assert rows(lake, "SELECT count(*), count(DISTINCT job_id) FROM inbox_jobs") == [
        (len(windows), len(windows))]


def test_two_worker_processes_accept_every_window_once(tmp_path):
    config = write_config(tmp_path / "server.toml", tmp_path / "lake", extra="workers = 2")
    server = Server(config)
    windows = [body(f"n:w:{n}", start, 10) for n in range(4) for start in range(0, 100, 10)]
    statuses: list[int] = []

    def client(seed: int) -> None:
        with server.client() as http:
            for payload in random.Random(seed).sample(windows, len(windows)):
                statuses.append(http.post("/api/v1/interview/submit", json=payload).status_code)

    try:
        threads = [threading.Thread(target=client, args=(seed,)) for seed in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        server.stop()
    assert set(statuses) == {200}
    # Each worker remembers only its own jobs: a window sent to both may be stored twice, and
    # every reader (the inbox view, a run's claim) takes one row per job.
    assert rows(tmp_path / "lake", "SELECT count(DISTINCT job_id) FROM inbox_jobs") == [(40,)]
    assert rows(tmp_path / "lake", "SELECT count(*) FROM inbox") == [(40,)]
    assert rows(tmp_path / "lake", "SELECT node_id, last_seq FROM watermarks ORDER BY 1") == [
        (f"n:w:{n}", 99) for n in range(4)]
