"""All three sources through the real driver, Ray and lake."""

import json
import shutil

from click.testing import CliRunner

from ingest.nodes import NodeRef
from jobs.api import run_nodes
from jobs.cli import main
from jobs.cli.shared import SAMPLES
from jobs.driver import Driver
from jobs.settings import load_settings
from sinks.lake import Lake
from tests import scripted

INJECTION = ("Predatory Merge", "Parental Alignment", "Identity Protection", "scavenge")


def parrot(prompt):
    """Copies every event line of the chunk into a memory: whatever reaches the prompt shows up."""
    lines = [line for line in prompt.user.splitlines() if line.startswith("[")]
    items = [{"summary": (line.split(": ", 1)[-1] + " (seen)")[:300], "ts_start": None, "ts_end": None,
              "session_id": None, "evidence": scripted.cited(line)} for line in lines]
    return json.dumps({"worked_on": items[:15]})


def demo_settings(lake_dir, **over):
    values = dict(lake=lake_dir, backend="none", flush=True, max_windows=100, all_projects=True,
                  since_hours=0, claude_code_roots=[str(SAMPLES / "claude-code")],
                  cursor_roots=[str(SAMPLES / "cursor" / "projects"), str(SAMPLES / "cursor" / "User")],
                  openclaw_roots=[str(SAMPLES / "openclaw")])
    values.update(over)
    return load_settings(**values)


def test_demo_covers_all_four_sources(ray_cluster, lake_dir):
    result = CliRunner().invoke(main, ["run", "--demo", "--backend", "none", "--lake", str(lake_dir),
                                       "--json"], catch_exceptions=False)
    summary = json.loads(result.stdout)
    assert summary["windows"] == 4
    with Lake(lake_dir) as lake:
        prefixes = {row[0] for row in lake.con.execute(
            "SELECT DISTINCT split_part(node_id, ':', 1) FROM attempts").fetchall()}
        sources = dict(lake.con.execute("SELECT source, count(*) FROM nodes GROUP BY 1").fetchall())
    assert prefixes == {"cc", "codex", "cursor", "openclaw"}
    assert sources == {"claude-code": 6, "codex": 1, "cursor": 32, "openclaw": 3}


def test_injected_tool_output_never_reaches_a_prompt_or_memory(ray_cluster, lake_dir):
    settings = demo_settings(lake_dir, backend="llamacpp", sources=["openclaw"])
    summary = run_nodes(settings, backend_factory=scripted.factory(parrot))
    assert summary.windows == 3 and summary.memories_written > 10
    with Lake(lake_dir) as lake:
        contents = "\n".join(row[0] for row in lake.con.execute("SELECT content FROM memories").fetchall())
        ledger = "\n".join(str(row) for row in lake.con.execute("SELECT * FROM attempts").fetchall())
    assert "はくあ" in contents  # the human's words did arrive
    for phrase in INJECTION:
        assert phrase not in contents and phrase not in ledger


def test_run_without_an_allowlist_lists_projects_and_exits_2(lake_dir):
    result = CliRunner().invoke(main, ["run", "--roots", str(SAMPLES / "claude-code"), "--source",
                                       "claude-code", "--lake", str(lake_dir)])
    assert result.exit_code == 2
    assert "--projects GLOB" in result.stderr and "claude-code: spotter" in result.stderr


def test_status_lists_nodes_per_source(lake_dir):
    result = CliRunner().invoke(main, [
        "status", "--json", "--all-projects", "--since-hours", "0", "--lake", str(lake_dir),
        "--roots", str(SAMPLES / "claude-code"), "--openclaw-roots", str(SAMPLES / "openclaw"),
        "--source", "claude-code", "--source", "openclaw"], catch_exceptions=False)
    report = json.loads(result.stdout)
    assert set(report["sources"]) == {"claude-code", "openclaw"}
    short = next(n for n in report["sources"]["claude-code"] if n["name"] == "short.jsonl")
    assert (short["lines"], short["cursor"], short["pending"]) == (15, -1, 15)


def test_bad_trails_are_reported_and_the_run_goes_on(ray_cluster, lake_dir, tmp_path):
    user = tmp_path / "User" / "workspaceStorage"
    (user / "good").mkdir(parents=True)
    shutil.copy(SAMPLES / "cursor" / "User" / "workspaceStorage" / "ionic-copilot" / "state.vscdb", user / "good")
    (user / "bad").mkdir()
    (user / "bad" / "state.vscdb").write_bytes(b"\x00garbage" * 200)
    settings = demo_settings(lake_dir, sources=["cursor"], cursor_roots=[str(tmp_path / "User")])
    summary = run_nodes(settings)
    assert summary.windows == 31
    assert any("bad/state.vscdb" in r["path"] for r in summary.rejects)


def test_vanished_and_shrunk_trails_are_skipped_with_a_reason(ray_cluster, lake_dir, tmp_path):
    trail = tmp_path / "proj" / "s.jsonl"
    trail.parent.mkdir()
    shutil.copy(SAMPLES / "claude-code" / "spotter" / "tool_heavy.jsonl", trail)
    settings = demo_settings(lake_dir, sources=["claude-code"], claude_code_roots=[str(tmp_path)])
    assert run_nodes(settings).windows == 1
    trail.write_bytes(b"\n".join(trail.read_bytes().split(b"\n")[:5]) + b"\n")  # rewritten shorter
    ghost = NodeRef("claude-code", "cc:x:ghost", str(tmp_path / "gone.jsonl"), "proj")
    with Driver(settings) as driver:
        from ingest.discover import discover
        from ingest.nodes import Allowlist
        nodes = discover({"claude-code": [str(tmp_path)]}, Allowlist(allow_all=True)).nodes
        summary = driver.run([*nodes, ghost])
    assert summary.windows == 0
    reasons = " | ".join(r["reason"] for r in summary.rejects)
    assert "shrank below watermark" in reasons and "deleted during the run" in reasons


def test_a_trail_named_with_a_newline_becomes_memories(ray_cluster, lake_dir, tmp_path):
    """Issue 41 item 9: the run derives a printable node id from the name (it was refused on
    every run: "node_id: control character U+000A"), so the conversation is interviewed."""
    project = tmp_path / "projects" / "proj"
    project.mkdir(parents=True)
    shutil.copy(SAMPLES / "claude-code" / "spotter" / "tool_heavy.jsonl", project / "odd\nname.jsonl")
    settings = demo_settings(lake_dir, sources=["claude-code"], backend="llamacpp",
                             claude_code_roots=[str(tmp_path / "projects")])
    summary = run_nodes(settings, backend_factory=scripted.factory(parrot))
    assert summary.windows == 1 and summary.memories_written > 0, summary.rejects
    assert not summary.parked and not summary.rejects
    with Lake(lake_dir) as lake:
        [(node,)] = lake.con.execute("SELECT DISTINCT node_id FROM memories").fetchall()
    assert node.endswith(":odd_name~" + node.rsplit("~", 1)[1]) and "\n" not in node
    assert run_nodes(settings, backend_factory=scripted.factory(parrot)).windows == 0  # once
