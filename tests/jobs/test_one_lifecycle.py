"""Every way in runs the same window lifecycle: a submitted window is counted and fails exactly as
the same window does in a run, and `backfill --dry-run` plans exactly what the run then commits."""

import pytest

from jobs.api import backfill, discover_nodes, dry_run_plan
from jobs.driver import Driver
from jobs.node_plan import plan_node
from jobs.planning import plan_options
from jobs.settings import load_settings
from sinks.lake import Lake
from tests import scripted

COUNTS = ("windows", "memories_written", "duplicates", "item_errors", "parked", "retrying",
          "deferred", "chunks", "timestamps_dropped", "instructions_dropped")


def settings_for(lake_dir, trail_root, **over):
    values = dict(lake=lake_dir, claude_code_roots=[str(trail_root)], flush=True, max_windows=50,
                  backend="llamacpp", sources=["claude-code"], all_projects=True, since_hours=0,
                  max_window_chars=8000)
    values.update(over)
    return load_settings(**values)


def one_window_node(settings):
    """The `short` sample: one node that plans to exactly one window."""
    [node] = [n for n in discover_nodes(settings).nodes if n.node_id.endswith(":short")]
    [window] = plan_node(node, -1, plan_options(settings)).windows
    return node, window


def counts(summary):
    return {name: getattr(summary, name) for name in COUNTS}


def parked_rows(lake_dir):
    with Lake(lake_dir) as lake:
        return lake.con.execute(
            "SELECT node_id, cursor_from, cursor_to, attempts, status, reason FROM parked").fetchall()


@pytest.mark.parametrize("answer", [scripted.echo_report, lambda prompt: "not JSON at all"],
                         ids=["answers", "fails"])
def test_submit_counts_and_fails_like_a_run(ray_cluster, tmp_path, trail_root, answer):
    run_settings = settings_for(tmp_path / "run-lake", trail_root)
    node, window = one_window_node(run_settings)
    with Driver(run_settings, backend_factory=scripted.factory(answer)) as driver:
        ran = driver.run([node])

    submit_settings = settings_for(tmp_path / "submit-lake", trail_root)
    with Driver(submit_settings, backend_factory=scripted.factory(answer), kind="submit") as driver:
        result = driver.submit(window.to_body())
        submitted = driver.summary

    assert counts(submitted) == counts(ran)
    assert parked_rows(tmp_path / "submit-lake") == parked_rows(tmp_path / "run-lake")
    if answer is scripted.echo_report:
        assert result.status == "committed" and result.memories_written == ran.memories_written
    else:
        assert result.status == "failed" and ran.retrying == 1
        [(*_, reason)] = parked_rows(tmp_path / "submit-lake")
        assert reason.startswith("1 of 1 chunks failed: ")
    with Lake(tmp_path / "submit-lake") as lake:  # the submit has its run record, as a run does
        assert lake.con.execute("SELECT kind, status FROM runs").fetchall() == [("submit", "finished")]


def test_dry_run_prints_exactly_what_the_run_commits_under_a_binding_budget(ray_cluster, tmp_path):
    from jobs.cli.shared import SAMPLES, _demo_flags

    lake_dir = tmp_path / "lake"
    # Four sources, small windows, a budget far below the plan, and one node parked first.
    settings = load_settings(lake=lake_dir, backend="llamacpp", flush=True, max_window_chars=3000,
                             retry_budget=1, max_windows=1, **_demo_flags())
    nodes = discover_nodes(settings).nodes
    parked_node = next(n for n in nodes if n.source == "claude-code")
    backfill(settings.model_copy(update={"max_windows": 1}), node_glob=parked_node.node_id,
             backend_factory=scripted.factory(lambda prompt: "never JSON"))
    assert [row[4] for row in parked_rows(lake_dir)] == ["parked"]

    settings = settings.model_copy(update={"max_windows": 7})
    plan = dry_run_plan(settings, nodes)
    assert plan["windows"] == 7 and parked_node.node_id not in {n["node_id"] for n in plan["per_node"]}
    assert len({n["node_id"].split(":")[0] for n in plan["per_node"]}) == 4  # every source gets some

    summary = backfill(settings, backend_factory=scripted.factory())
    with Lake(lake_dir) as lake:
        committed = [row[0] for row in lake.con.execute(
            "SELECT attempt_id FROM attempts WHERE status <> 'failed' ORDER BY committed_at").fetchall()]
    assert sorted(committed) == sorted(plan["attempts"])
    assert summary.windows == plan["windows"]
    assert SAMPLES.is_dir()
