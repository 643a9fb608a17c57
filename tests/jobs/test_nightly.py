"""Tenants and due nodes: 3 tenants x 50 synthetic nodes, the nightly run twice with the clock
moved forward, and exactly the due nodes interviewed each time (contract §2.11)."""

import json
import os
import time
from datetime import UTC, datetime, timedelta

from jobs.api import run_tenants
from jobs.settings import load_settings
from jobs.summary import tenant_counts
from sinks.lake import Lake

T0 = datetime(2026, 12, 1, 2, 0, tzinfo=UTC)


def write_node(path, n, stamp):
    with open(path, "a") as handle:
        for i in range(2):
            handle.write(json.dumps({
                "type": "user" if i == 0 else "assistant", "sessionId": path.stem,
                "uuid": f"{path.stem}-{stamp}-{i}", "timestamp": stamp,
                "message": {"role": "user", "content": f"work item {n} at {stamp}: " + "detail " * 10}}) + "\n")


def make_tenant(root, name, count=50):
    project = root / name / "proj"
    project.mkdir(parents=True)
    for n in range(count):
        path = project / f"{name}-{n:02d}.jsonl"
        write_node(path, n, "2026-11-20T10:00:00.000Z")
        age = time.time() - n * 86400  # trails of different ages
        os.utime(path, (age, age))
    return project


def test_nightly_runs_take_exactly_the_due_nodes(ray_cluster, tmp_path):
    root = tmp_path / "trails"
    projects = {name: make_tenant(root, name) for name in ("acme", "blue", "cold")}
    tenants = {
        "acme": {"interviewer": {"enabled": True, "period_hours": 4}, "claude_code_roots": [str(root / "acme")],
                 "all_projects": True},
        "blue": {"interviewer": {"enabled": True, "period_hours": 12}, "claude_code_roots": [str(root / "blue")],
                 "all_projects": True},
        "cold": {"interviewer": {"enabled": False}, "claude_code_roots": [str(root / "cold")], "all_projects": True},
    }
    settings = load_settings(lake=tmp_path / "lake", backend="none", flush=True, max_windows=1000,
                             since_hours=0, sources=["claude-code"], tenants=tenants)

    first = run_tenants(settings, now=T0)
    assert first["cold"] is None
    assert tenant_counts(first["acme"])["windows_committed"] == 50
    assert tenant_counts(first["blue"])["windows_committed"] == 50

    for name in ("acme", "blue"):  # new activity on the even nodes
        for n in range(0, 50, 2):
            write_node(projects[name] / f"{name}-{n:02d}.jsonl", n, "2026-12-01T05:00:00.000Z")
    second = run_tenants(settings, now=T0 + timedelta(hours=6))
    acme, blue = tenant_counts(second["acme"]), tenant_counts(second["blue"])
    assert (acme["nodes_considered"], acme["skipped_not_due"], acme["windows_committed"]) == (50, 0, 25)
    assert (blue["nodes_considered"], blue["skipped_not_due"], blue["windows_committed"]) == (50, 50, 0)

    third = run_tenants(settings, now=T0 + timedelta(hours=13))
    blue = tenant_counts(third["blue"])
    assert (blue["skipped_not_due"], blue["windows_committed"]) == (0, 25)

    with Lake(tmp_path / "lake") as lake:
        per_tenant = dict(lake.con.execute(
            "SELECT tenant_id, count(DISTINCT node_id) FROM attempts GROUP BY 1").fetchall())
        crossed = lake.con.execute(
            "SELECT count(*) FROM attempts WHERE split_part(split_part(node_id, ':', 3), '-', 1) <> tenant_id"
        ).fetchone()[0]
    assert per_tenant == {"acme": 50, "blue": 50} and crossed == 0
