import json
from pathlib import Path

import pytest

from jobs.api import run_nodes
from jobs.progress import CountingProgress
from jobs.settings import load_settings
from sinks.lake import Lake
from tests import scripted


def settings_for(lake_dir, trail_root, **over):
    values = dict(lake=lake_dir, claude_code_roots=[str(trail_root)], flush=True, max_windows=50,
                  backend="none", sources=["claude-code"], all_projects=True, since_hours=0)
    values.update(over)
    return load_settings(**values)


def rows(lake_dir, sql):
    with Lake(lake_dir) as lake:
        return lake.con.execute(sql).fetchall()


def test_run_then_rerun_writes_nothing_new(ray_cluster, lake_dir, trail_root):
    settings = settings_for(lake_dir, trail_root, backend="llamacpp")
    progress = CountingProgress()
    first = run_nodes(settings, backend_factory=scripted.factory(), progress=progress)
    assert first.nodes == 6 and first.windows == 6
    assert first.memories_written > 0 and first.parked == 0
    assert progress.done == 6
    second = run_nodes(settings, backend_factory=scripted.factory())
    assert (second.windows, second.memories_written) == (0, 0)
    assert second.skipped == {"no new lines": 6}
    [(ledger,)] = rows(lake_dir, "SELECT count(*) FROM attempts")
    assert ledger == 6


def test_appended_lines_are_interviewed_from_the_watermark(ray_cluster, lake_dir, trail_root):
    settings = settings_for(lake_dir, trail_root)
    run_nodes(settings)
    path = trail_root / "spotter" / "short.jsonl"
    lines_before = path.read_bytes().count(b"\n")
    record = {"type": "user", "sessionId": "S2", "timestamp": "2026-03-01T09:00:00.000Z",
              "message": {"role": "user", "content": "Now add a regression test for the scroll bug " * 3}}
    with open(path, "a") as handle:
        handle.write(json.dumps(record) + "\n")
    again = run_nodes(settings)
    assert again.windows == 1
    [(cursor_from, cursor_to)] = rows(
        lake_dir, "SELECT cursor_from, cursor_to FROM attempts WHERE node_id LIKE '%:short' "
                  "ORDER BY cursor_from DESC LIMIT 1")
    assert (cursor_from, cursor_to) == (lines_before, lines_before)


def test_unsynthesized_episode_when_no_model(ray_cluster, lake_dir, trail_root):
    run_nodes(settings_for(lake_dir, trail_root))
    types = rows(lake_dir, "SELECT DISTINCT memory_type, content LIKE '%unsynthesized%' FROM memories")
    assert types == [("episode", True)]
    [(missing,)] = rows(lake_dir, "SELECT count(*) FROM memories WHERE ts_valid_start IS NULL")
    assert missing == 0


def test_invented_timestamps_never_reach_the_lake(ray_cluster, lake_dir, trail_root):
    def inventing(prompt):
        line = next(line for line in prompt.user.splitlines() if line.startswith("["))
        return json.dumps({"decisions": [{"summary": "Adopt: " + line.split(": ", 1)[-1][:60],
                                          "rationale": None, "ts": "1999-01-01T00:00:00Z",
                                          "evidence": scripted.cited(line)}]})

    run_nodes(settings_for(lake_dir, trail_root, backend="llamacpp"),
              backend_factory=scripted.factory(inventing))
    found = rows(lake_dir, "SELECT count(*), count(ts_valid_start), "
                           "count(*) FILTER (WHERE ts_valid_start < TIMESTAMPTZ '2000-01-01') "
                           "FROM memories")
    assert found[0][0] >= 1 and found[0][1] == found[0][0]  # the cited event's time instead
    assert found[0][2] == 0

    found = rows(lake_dir, "SELECT count(*), count(ts_valid_start), min(ts_valid_start) "
                           "FROM memories")
    # The invented time is dropped; the memory is dated by the event it cites instead.
    assert found[0][0] >= 1 and found[0][1] == found[0][0] and found[0][2].year > 2000
    [(dropped,)] = rows(lake_dir, "SELECT sum(timestamps_dropped) FROM attempts")
    assert dropped >= 1


def test_bad_answers_are_retried_then_parked_and_the_watermark_stays(ray_cluster, lake_dir, trail_root):
    settings = settings_for(lake_dir, trail_root, backend="llamacpp", retry_budget=2)
    bad = scripted.factory(lambda prompt: "I cannot answer in JSON, sorry")
    first = run_nodes(settings, backend_factory=bad)
    assert (first.windows, first.retrying, first.parked) == (0, 6, 0)
    second = run_nodes(settings, backend_factory=bad)
    assert second.parked == 6
    assert rows(lake_dir, "SELECT count(*) FROM watermarks") == [(0,)]
    statuses = rows(lake_dir, "SELECT DISTINCT status, attempts FROM parked")
    assert statuses == [("parked", 2)]
    third = run_nodes(settings, backend_factory=scripted.factory())
    assert third.windows == 0 and third.skipped == {"parked at seq": 6}
    from jobs.api import retry_parked
    from jobs.status import node_status

    report = node_status(settings)
    assert len(report["parked"]) == 6 and "chunks failed" in report["parked"][0]["reason"]
    assert len(retry_parked(settings, "cc:*:short")) == 1
    fourth = run_nodes(settings, backend_factory=scripted.factory())
    assert fourth.windows == 1 and fourth.memories_written > 0
    assert len(retry_parked(settings)) == 5
    assert run_nodes(settings, backend_factory=scripted.factory()).windows == 5
    assert rows(lake_dir, "SELECT DISTINCT status FROM parked") == [("recovered",)]
    assert rows(lake_dir, "SELECT count(*) FROM watermarks") == [(6,)]


def test_max_windows_is_shared_across_nodes(ray_cluster, lake_dir, trail_root):
    summary = run_nodes(settings_for(lake_dir, trail_root, max_windows=2))
    assert summary.windows == 2


def test_dribble_gate_defers_small_tails(ray_cluster, lake_dir, trail_root):
    summary = run_nodes(settings_for(lake_dir, trail_root, flush=False))
    assert summary.windows == 1  # only the 67-event session passes the gate of 10 events
    assert summary.deferred == 5


@pytest.mark.parametrize("bad", [b'{"type":"user","message":{"content":"\xff\xfe"}}\n', b'{"type":"user","sessionId":"S"}\n'])
def test_bad_lines_are_reported_and_the_run_goes_on(ray_cluster, lake_dir, trail_root, bad):
    with open(trail_root / "spotter" / "short.jsonl", "ab") as handle:
        handle.write(bad)
    summary = run_nodes(settings_for(lake_dir, trail_root))
    assert summary.windows == 6
    assert len(summary.rejects) == 1
    assert summary.rejects[0]["path"].endswith("short.jsonl") and summary.rejects[0]["line"] == 16


def test_replay_resolves_committed_windows_as_duplicates_without_the_model(ray_cluster, lake_dir, trail_root):
    settings = settings_for(lake_dir, trail_root, backend="llamacpp", replay=True)
    first = run_nodes(settings, backend_factory=scripted.factory())
    calls_before = first.chunks
    again = run_nodes(settings, backend_factory=scripted.factory(lambda prompt: "never called"))
    assert (again.windows, again.memories_written, again.chunks) == (6, 0, 0)
    assert again.duplicates == first.memories_written + first.duplicates
    assert calls_before > 0


def test_window_budget_is_dealt_one_per_node_per_round():
    from ingest.nodes import NodeRef
    from jobs.node_plan import NodePlan
    from jobs.planning import share_window_budget

    plans = [NodePlan(NodeRef("claude-code", f"n{i}", "p", "x"), -1, heads=list(range(n)))
             for i, n in enumerate([5, 1, 3])]
    share_window_budget(plans, 6)
    assert [p.heads for p in plans] == [[0, 1, 2], [0], [0, 1]]


def test_a_dead_engine_stops_the_run_after_committing_what_finished(ray_cluster, lake_dir, trail_root):
    import os

    import pytest

    from ingest.errors import EngineDead

    calls = {"n": 0}

    def dying(prompt):
        calls["n"] += 1  # counted inside the actor process
        if calls["n"] > 2:
            os._exit(1)  # the engine process dies, as on a CUDA fault
        return scripted.echo_report(prompt)

    settings = settings_for(lake_dir, trail_root, backend="llamacpp")
    settings.ray.max_inflight_windows = 1
    with pytest.raises(EngineDead, match="model actor died"):
        run_nodes(settings, backend_factory=scripted.factory(dying))
    [(committed,)] = rows(lake_dir, "SELECT count(*) FROM attempts")
    [(marks,)] = rows(lake_dir, "SELECT count(*) FROM watermarks")
    assert committed >= 1 and marks == committed  # finished windows kept, nothing half-written
    [(status,)] = rows(lake_dir, "SELECT status FROM runs")
    assert status == "failed"


def test_the_driver_holds_window_heads_and_the_windows_wait_in_the_object_store(
        ray_cluster, lake_dir, trail_root):
    from jobs.api import discover_nodes
    from jobs.node_plan import plan_node
    from jobs.planning import NodeQueue, load_windows, plan_on_ray, plan_options

    settings = settings_for(lake_dir, trail_root, max_window_events=4)
    nodes = discover_nodes(settings).nodes
    plans = [plan for plan in plan_on_ray(settings, nodes, {}) if plan.heads]
    assert plans and all(plan.windows == [] and plan.stored for plan in plans)
    for plan in plans:
        local = plan_node(plan.node, -1, plan_options(settings))
        assert [head.attempt_id for head in plan.heads] == [w.attempt_id for w in local.windows]
        assert load_windows(plan) == local.windows
    longest = max(plans, key=lambda plan: len(plan.heads))
    assert len(longest.heads) > 2
    longest.heads = longest.heads[1:-1]  # replayed at the front, cut by the budget at the back
    queue = NodeQueue(longest)
    taken = list(queue)
    assert [w.attempt_id for w in taken] == [head.attempt_id for head in longest.heads]
    assert longest.stored is None and not queue  # the object ref is let go once loaded


def test_no_model_windows_with_equal_event_counts_each_get_their_episode(ray_cluster, lake_dir, tmp_path):
    """Two windows of one node with the same number of events: before the placeholder named its
    window, the second was a content duplicate of the first and the node lost its memory."""
    project = tmp_path / "projects" / "p"
    project.mkdir(parents=True)
    record = {"type": "user", "sessionId": "S", "message": {"role": "user", "content": "Work item " + "w" * 80}}
    lines = [json.dumps({**record, "timestamp": f"2026-01-0{day}T10:00:00.000Z"}) for day in (1, 2)]
    (project / "twice.jsonl").write_text(lines[0] + "\n")
    settings = settings_for(lake_dir, tmp_path / "projects")
    first = run_nodes(settings)
    with open(project / "twice.jsonl", "a") as handle:
        handle.write(lines[1] + "\n")
    second = run_nodes(settings)
    assert (first.memories_written, second.memories_written, second.duplicates) == (1, 1, 0)


def test_a_forgotten_node_is_not_interviewed_again_by_a_replay(ray_cluster, lake_dir, trail_root):
    """(Windows cut another way over forgotten events: tests/sinks/test_forget.py.)"""
    from sinks.forget import Selector, forget_memories

    settings = settings_for(lake_dir, trail_root, backend="llamacpp")
    run_nodes(settings, backend_factory=scripted.factory(), node="*:tool_heavy")
    [(node, written)] = rows(lake_dir, "SELECT node_id, count(*) FROM memories "
                                       "WHERE node_id LIKE '%:tool_heavy' GROUP BY 1")
    assert written > 0
    with Lake(lake_dir, writer=True) as lake:
        assert forget_memories(lake.con, "local", Selector(node_glob=node)).memories == written
    replay = settings_for(lake_dir, trail_root, backend="llamacpp", replay=True)
    again = run_nodes(replay, backend_factory=scripted.factory(), node="*:tool_heavy")
    assert (again.windows, again.chunks, again.memories_written) == (1, 0, 0)
    assert rows(lake_dir, f"SELECT count(*) FROM memories WHERE node_id = '{node}'") == [(0,)]


def test_show_prints_a_memory_with_its_evidence_events_and_their_lines(ray_cluster, lake_dir,
                                                                       trail_root):
    from click.testing import CliRunner

    from jobs.cli import main

    settings = settings_for(lake_dir, trail_root, backend="llamacpp")
    run_nodes(settings, backend_factory=scripted.factory(), node="*:tool_heavy")
    [(memory_id, content, seqs)] = rows(
        lake_dir, "SELECT memory_id, content, evidence_seqs FROM memories "
                  "WHERE content LIKE 'Worked on:%' AND node_id LIKE '%:tool_heavy'")
    shown = CliRunner().invoke(main, ["show", memory_id, "--lake", str(lake_dir), "--json"])
    record = json.loads(shown.output)
    [event] = record["evidence"]
    path, line = event["where"].rsplit(":", 1)
    assert event["seq"] == seqs[0] and int(line) == seqs[0] + 1
    assert path.endswith("tool_heavy.jsonl")
    trail_line = json.loads(Path(path).read_text().splitlines()[int(line) - 1])
    assert trail_line["type"] in ("user", "assistant")
    assert content.removeprefix("Worked on: ")[:40] in event["content"]
    text = CliRunner().invoke(main, ["show", memory_id, "--lake", str(lake_dir)])
    assert text.exit_code == 0 and f"tool_heavy.jsonl:{line}" in text.output
    missing = CliRunner().invoke(main, ["show", "no-such-id", "--lake", str(lake_dir)])
    assert missing.exit_code == 4 and "no memory no-such-id" in missing.output


def test_the_verify_pass_drops_what_the_model_judges_contradicted(ray_cluster, lake_dir,
                                                                  trail_root):
    """A backend with `verify` on (openai, vllm) gets one more call per window: the items the
    rules kept, numbered; the ones it judges contradicted are dropped and counted."""
    calls = []

    def judging(prompt):
        if prompt.variant == "verify":
            calls.append(prompt.user)
            items = [line for line in prompt.user.splitlines()
                     if line[:1].isdigit() and ". (" in line]
            return json.dumps({"verdicts": [
                {"item": int(line.split(".", 1)[0]),
                 "verdict": "contradicted" if "(decisions)" in line else "supported"}
                for line in items]})
        return scripted.echo_report(prompt)

    # The consolidation stage's model judge would ask this script too: its rules decide here.
    settings = settings_for(lake_dir, trail_root, backend="openai",
                            consolidation={"judge": "rules"})
    summary = run_nodes(settings, backend_factory=scripted.factory(judging))
    assert summary.windows == 6 and summary.verify_calls == 6 and summary.verify_failed == 0
    assert summary.dropped_contradicted >= 1 and summary.verify_tokens > 0
    assert rows(lake_dir, "SELECT count(*) FROM memories WHERE memory_type = 'decision'") == [(0,)]
    assert rows(lake_dir, "SELECT count(*) FROM memories WHERE memory_type = 'episode'")[0][0] >= 1


def test_the_verify_pass_is_off_for_the_embedded_model(ray_cluster, lake_dir, trail_root):
    summary = run_nodes(settings_for(lake_dir, trail_root, backend="llamacpp"),
                        backend_factory=scripted.factory())
    assert summary.verify_calls == 0 and summary.memories_written > 0
