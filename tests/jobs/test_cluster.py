"""`interview run --address` on a real two-node Ray cluster on this one machine, every node on
loopback. The worker node runs in its own mount namespace with an empty tmpfs over the trails
folder, as a node of a real cluster that cannot see the driver's disk: planning must run on the
driver's node (the head, declared with no CPUs, as head nodes often are), the model actors on the
worker, and every line of every trail must still be covered."""

from __future__ import annotations

import ipaddress
import json
import os
import random
import signal
import subprocess
import sys
import time

import psutil
import pytest

from tests.jobs.test_kill_rerun import ROOT, check_invariants, make_trails
from tests.processes import kill_session

ENV = {**os.environ, "PYTHONPATH": str(ROOT), "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
       "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}


def can_hide_a_folder() -> bool:
    probe = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                            "mount -t tmpfs tmpfs /mnt"], capture_output=True)
    return probe.returncode == 0


def start_node(argv: list[str], log) -> tuple[subprocess.Popen, str]:
    """A node helper (tests/ray_node.py); its first stdout line once the node is up."""
    with open(log, "w") as err:  # a file, not a pipe: a node that logs much never blocks
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, env=ENV, cwd=ROOT,
                                   start_new_session=True, text=True)
    line = process.stdout.readline().strip()
    if not line:
        stop_node(process)
        raise RuntimeError(f"the Ray node did not start: {open(log).read()[-3000:]}")
    return process, line


def stop_node(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            kill_session(process.pid)
            process.wait()
    process.stdout.close()


def tree(pid: int) -> list[psutil.Process]:
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def loopback(ip: str) -> bool:
    address = ipaddress.ip_address(ip)
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:127.0.0.1, an IPv6 socket's peer
    return (mapped or address).is_loopback


def non_loopback_sockets(pids: list[int]) -> set[str]:
    """Every address a process of these trees talks to or listens on that is not 127.0.0.0/8
    (a socket bound to 0.0.0.0 or :: listens on every interface: it counts too)."""
    found = set()
    for process in (p for pid in pids for p in tree(pid)):
        try:
            connections = process.net_connections(kind="inet")
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        for conn in connections:
            for address in (conn.laddr, conn.raddr):
                if address and not loopback(address.ip):
                    found.add(f"{process.name()}[{process.pid}] {address.ip}:{address.port}")
    return found


def actors_by_node(address: str) -> dict[str, list[str]]:
    """Class names of the cluster's actors (dead ones too) by the node they ran on."""
    script = (
        "import json, ray\n"
        f"ray.init(address={address!r}, log_to_driver=False)\n"
        "table = ray._private.state.state.actor_table(None)\n"
        "by = {}\n"
        "for actor in table.values():\n"
        "    by.setdefault(actor['Address']['NodeID'], []).append(actor['ActorClassName'])\n"
        "print(json.dumps(by))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=ENV, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_local_run_keeps_ray_on_loopback(tmp_path):
    """The local cluster a run starts (no --address) neither listens on nor dials any address
    but 127.0.0.0/8, even where Ray's own default is the machine's routable address."""
    trails = make_trails(tmp_path / "trails", random.Random(3), nodes=2, lines=60)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAY_", "INTERVIEW_"))}
    driver = subprocess.Popen(
        [sys.executable, "-m", "jobs.cli", "run", "--roots", str(trails), "--source", "claude-code",
         "--all-projects", "--since-hours", "0", "--backend", "none", "--flush", "--max-windows",
         "10000", "--lake", str(tmp_path / "lake"), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, text=True, start_new_session=True,
        env={**env, "PYTHONPATH": str(ROOT), "INTERVIEW_MAX_WINDOW_EVENTS": "4"})
    try:
        talked, seen = set(), set()
        while driver.poll() is None:
            seen |= {p.name() for p in tree(driver.pid) if p.is_running()}
            talked |= non_loopback_sockets([driver.pid])
            time.sleep(0.2)
        out, err = driver.communicate()
    finally:
        kill_session(driver.pid)
    assert driver.returncode == 0, err[-3000:]
    assert {"gcs_server", "raylet"} <= seen, f"Ray never started: {sorted(seen)}"
    assert talked == set(), f"Ray left loopback: {sorted(talked)}"


@pytest.mark.model
@pytest.mark.skipif(not can_hide_a_folder(), reason="needs unshare --mount and tmpfs (root)")
def test_a_run_on_two_nodes_plans_where_the_trails_are(tmp_path):
    trails = make_trails(tmp_path / "trails", random.Random(7), nodes=3, lines=30)
    lake = tmp_path / "lake"
    head, address = start_node([sys.executable, "-m", "tests.ray_node", "head", "0"],
                               tmp_path / "head.log")
    worker = None
    try:
        worker, worker_id = start_node([
            "unshare", "--mount", "--propagation", "private", "sh", "-c",
            f"mount -t tmpfs tmpfs {trails} && exec {sys.executable} -m tests.ray_node worker "
            f"{address} 2"], tmp_path / "worker.log")
        hidden = subprocess.run(["nsenter", "-t", str(worker.pid), "-m", "ls", "-A", str(trails)],
                                capture_output=True, text=True)
        assert hidden.returncode == 0 and hidden.stdout == "", "the worker node sees the trails"

        driver = subprocess.Popen(
            [sys.executable, "-m", "jobs.cli", "run", "--address", address, "--roots", str(trails),
             "--source", "claude-code", "--all-projects", "--since-hours", "0", "--backend",
             "none", "--flush", "--max-windows", "10000", "--lake", str(lake), "--json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**ENV, "INTERVIEW_MAX_WINDOW_EVENTS": "4"},
            cwd=ROOT, text=True)
        talked = set()
        while driver.poll() is None:
            talked |= non_loopback_sockets([head.pid, worker.pid, driver.pid])
            time.sleep(0.5)
        out, err = driver.communicate()
        assert driver.returncode == 0, err[-3000:]
        summary = json.loads(out)
        assert summary["windows"] > 0 and not summary.get("failed_nodes"), summary
        check_invariants(lake, trails)  # every complete line of every trail is covered
        assert talked == set(), f"Ray left loopback: {sorted(talked)}"

        # The real embedded model, on a replay (every window a duplicate, no generation): its
        # actor starts where the CPUs are, the worker node, while planning stays on the head.
        replay = subprocess.run(
            [sys.executable, "-m", "jobs.cli", "run", "--address", address, "--roots", str(trails),
             "--source", "claude-code", "--all-projects", "--since-hours", "0", "--backend",
             "llamacpp", "--flush", "--replay", "--max-windows", "3", "--lake", str(lake), "--json"],
            capture_output=True, text=True, env={**ENV, "INTERVIEW_MAX_WINDOW_EVENTS": "4"},
            cwd=ROOT, timeout=300)
        assert replay.returncode == 0, replay.stderr[-3000:]
        assert json.loads(replay.stdout)["duplicates"] == 3
        placed = actors_by_node(address)
        assert placed == {worker_id: ["ModelWorker"]}, placed
    finally:
        if worker is not None:
            stop_node(worker)
        stop_node(head)
