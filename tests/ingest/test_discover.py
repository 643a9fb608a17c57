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


def test_a_link_inside_a_root_is_followed_and_one_leaving_every_root_is_refused(tmp_path,
                                                                                caplog):
    """Issue 41 item 7: `/etc/passwd` linked as a trail is never read as a node; a project
    folder linked from elsewhere under the root (people link them) still is."""
    root = tmp_path / "projects"
    project = root / "proj"
    project.mkdir(parents=True)
    session = next((SAMPLES / "todo-app").glob("*.jsonl"))
    (root / "stash").mkdir()
    (root / "stash" / "kept.jsonl").write_bytes(session.read_bytes())
    (project / "inside.jsonl").symlink_to(root / "stash" / "kept.jsonl")
    (project / "passwd.jsonl").symlink_to("/etc/passwd")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "s.jsonl").write_bytes(session.read_bytes())
    (root / "linked-project").symlink_to(root / "stash", target_is_directory=True)
    (root / "foreign-project").symlink_to(outside, target_is_directory=True)
    found = discover({"claude-code": [str(root)]}, ALL)
    paths = sorted(os.path.relpath(node.path, root) for node in found.nodes)
    assert paths == ["linked-project/kept.jsonl"]  # the first path to it; one file, one node
    reasons = {os.path.relpath(reject.path, root): reject.reason for reject in found.rejects}
    assert set(reasons) == {"proj/passwd.jsonl", "foreign-project/s.jsonl", "proj/inside.jsonl",
                            "stash/kept.jsonl"}
    assert reasons["stash/kept.jsonl"].startswith(f"the same trail as {root}/linked-project/")
    assert reasons["proj/passwd.jsonl"].startswith("a link to /etc/passwd, outside every trail root")
    assert "outside every trail root" in caplog.text
    both = discover({"claude-code": [str(root)], "codex": [str(outside)]}, ALL)  # a root of any source
    assert "foreign-project/s.jsonl" in {os.path.relpath(n.path, root) for n in both.nodes}


def test_a_file_name_with_a_control_character_gets_a_clean_stable_node_id(tmp_path):
    """Issue 41 item 9: a trail named with a newline becomes a node whose id is printable and
    the same on every run; the name stays data (its path)."""
    from ingest.validate import plain_id

    project = tmp_path / "projects" / "proj"
    project.mkdir(parents=True)
    session = next((SAMPLES / "todo-app").glob("*.jsonl"))
    for name in ("odd\nname.jsonl", "odd\rname.jsonl", "plain.jsonl"):
        (project / name).write_bytes(session.read_bytes())
    found = discover({"claude-code": [str(tmp_path / "projects")]}, ALL)
    ids = {os.path.basename(node.path): node.node_id for node in found.nodes}
    assert ids["plain.jsonl"] == node_id("cc", "plain")  # printable names keep their id
    odd = [ids["odd\nname.jsonl"], ids["odd\rname.jsonl"]]
    assert all(plain_id(value) == value for value in odd) and odd[0] != odd[1]
    assert odd[0].startswith(node_id("cc", "odd_name~"))
    again = discover({"claude-code": [str(tmp_path / "projects")]}, ALL)
    assert {os.path.basename(n.path): n.node_id for n in again.nodes} == ids
