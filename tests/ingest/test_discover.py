import json
import os
import shutil
import sqlite3
import time

from ingest.content import cut_recalled, finish_content
from ingest.discover import discover
from ingest.machine import machine12, node_id
from ingest.nodes import Allowlist
from tests.conftest import SAMPLES
from tests.trails import fixture_path, fixture_trails

ALL = Allowlist(allow_all=True)


def test_node_ids_use_the_machine_hash():
    assert node_id("cc", "abc", identity="m") == f"cc:{machine12('m')}:abc"
    assert len(machine12("m")) == 12


def test_projects_are_denied_unless_allowed():
    roots = {"claude-code": [str(SAMPLES)]}
    denied = discover(roots, Allowlist())
    assert denied.nodes == [] and ("claude-code", "spotter") in denied.denied_projects
    some = discover(roots, Allowlist(("spot*",)))
    assert {n.project for n in some.nodes} == {"spotter"}
    assert len(discover(roots, ALL).nodes) == 6


def test_claude_code_subagent_layouts(tmp_path):
    project = tmp_path / "proj"
    nested = project / "4d5611e5-241a-462a-8d15-5122611a9569" / "subagents"
    nested.mkdir(parents=True)
    spotter = "claude-code/marot-spotter/4d5611e5-241a-462a-8d15-5122611a9569"
    shutil.copy(fixture_path(f"{spotter}.jsonl"), project)
    for sub in fixture_trails(f"{spotter}/subagents/").values():
        shutil.copy(sub, nested)
    shutil.copy(fixture_path("claude-code/tomjnsn-agentlogs/subagent.jsonl"), project / "inline.jsonl")
    shutil.copy(project / "inline.jsonl", project / "agent-flat01.jsonl")  # the v2.0.x flat layout
    plain = discover({"claude-code": [str(tmp_path)]}, ALL)
    assert sorted(n.kind for n in plain.nodes) == ["cc-session", "cc-session"]
    full = discover({"claude-code": [str(tmp_path)]}, ALL, include_subagents=True)
    kinds = sorted((n.kind, n.node_id.rsplit(":", 1)[-1]) for n in full.nodes)
    assert kinds == [("cc-session", "4d5611e5-241a-462a-8d15-5122611a9569"), ("cc-session", "inline"),
                     ("cc-sidechains", "sidechains"), ("cc-subagent", "agent-a2898e3"),
                     ("cc-subagent", "agent-flat01")]  # the compaction agent is never a node


def test_since_hours_filters_old_trails(tmp_path):
    shutil.copytree(SAMPLES / "spotter", tmp_path / "spotter")
    old = tmp_path / "spotter" / "short.jsonl"
    past = time.time() - 10 * 86400
    os.utime(old, (past, past))
    recent = discover({"claude-code": [str(tmp_path)]}, ALL, since_hours=24)
    assert "short.jsonl" not in {os.path.basename(n.path) for n in recent.nodes}
    assert len(recent.nodes) == 2


def test_cursor_and_openclaw_layouts(tmp_path):
    ws = tmp_path / "User" / "workspaceStorage" / "f87f6e0b"
    ws.mkdir(parents=True)
    shutil.copy(fixture_path("cursor/slevin48-cursor-history/state.vscdb"), ws)
    (ws / "workspace.json").write_text(json.dumps({"folder": "file:///c%3A/Users/y/ticketing"}))
    broken = tmp_path / "User" / "workspaceStorage" / "broken"
    broken.mkdir()
    (broken / "state.vscdb").write_bytes(b"not a database" * 50)
    found = discover({"cursor": [str(tmp_path / "User")]}, ALL)
    assert len(found.nodes) == 31 and {n.project for n in found.nodes} == {"ticketing"}
    assert all(n.node_id.startswith("cursor:") and n.kind == "cursor-db" for n in found.nodes)
    assert len(found.rejects) == 1 and "broken" in found.rejects[0].path

    state = tmp_path / "openclaw"
    (state / "agents" / "main" / "sessions").mkdir(parents=True)
    shutil.copy(fixture_path("openclaw/tomjnsn-agentlogs-pi/branched.jsonl"), state / "agents" / "main" / "sessions")
    (state / "agents" / "main" / "sessions" / "old.checkpoint.1.jsonl").write_text("{}\n")
    (state / "plugins" / "memclaw").mkdir(parents=True)
    (state / "plugins" / "memclaw" / "interview-buffer.jsonl").write_text("")
    (state / "tasks").mkdir()
    con = sqlite3.connect(state / "tasks" / "runs.sqlite")
    con.execute("CREATE TABLE task_runs (task_id, status, created_at, task)")
    con.close()
    sqlite3.connect(state / "other.sqlite").close()  # no task_runs table: not a node
    claw = discover({"openclaw": [str(state)]}, ALL)
    assert sorted(n.kind for n in claw.nodes) == ["openclaw-buffer", "openclaw-session", "openclaw-tasks"]
    assert {n.node_id.split(":")[0] for n in claw.nodes} == {"openclaw"}


def test_recall_guard_cuts_injected_memory():
    text = ("<memclaw-context>\n- user prefers tabs\n</memclaw-context>\nPlease refactor the parser"
            " <relevant-memories>old stuff</relevant-memories> today")
    assert cut_recalled(text) == "\nPlease refactor the parser  today"
    assert cut_recalled("keep <claude-mem-context>unclosed recall to the end") == "keep "
    assert cut_recalled("<my-recall>x</my-recall> y", ("my-recall",)) == " y"
    assert cut_recalled("<memclaw-context>x</memclaw-context>", ()) == "<memclaw-context>x</memclaw-context>"
    assert finish_content("<system-reminder>" + "r" * 100 + "</system-reminder>short") is None


def test_what_is_not_a_trail_file_is_reported_and_never_opened(tmp_path):
    """A FIFO would block the run if opened; loops and dangling links cannot be read; a folder is
    not a trail: each is a reject with its reason, and the real session is still found."""
    import os

    from ingest.discover import discover
    from ingest.nodes import Allowlist
    from tests.conftest import SAMPLES

    project = tmp_path / "projects" / "p1"
    project.mkdir(parents=True)
    session = next((SAMPLES / "todo-app").glob("*.jsonl"))
    (project / session.name).write_bytes(session.read_bytes())
    os.mkfifo(project / "fifo.jsonl")
    (project / "dangling.jsonl").symlink_to(project / "nowhere.jsonl")
    (project / "loop.jsonl").symlink_to(project / "loop.jsonl")
    (project / "dir.jsonl").mkdir()
    found = discover({"claude-code": [str(tmp_path / "projects")]}, Allowlist(allow_all=True))
    assert [node.path for node in found.nodes] == [str(project / session.name)]
    reasons = {os.path.basename(reject.path): reject.reason for reject in found.rejects}
    assert reasons == {
        "dangling.jsonl": "a symlink to a missing file; skipped",
        "dir.jsonl": "a folder named like a trail; skipped, never opened",
        "fifo.jsonl": "a FIFO named like a trail; skipped, never opened",
        "loop.jsonl": "cannot read: a symlink loop; skipped",
    }
