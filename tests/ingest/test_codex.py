"""The Codex CLI as a fourth source: rollouts → events, discovery under $CODEX_HOME, the allowlist."""

import json
import shutil

import pytest
from click.testing import CliRunner

from ingest.codex import parse_codex, session_project
from ingest.content import MIN_EVENT_CHARS
from ingest.discover import default_roots, discover
from ingest.nodes import Allowlist
from jobs.cli import main
from jobs.cli.shared import SAMPLES

SAMPLE = next((SAMPLES / "codex").rglob("rollout-*.jsonl"))
LONG = "x" * MIN_EVENT_CHARS


def line(kind, payload, second=0) -> bytes:
    return json.dumps({"timestamp": f"2026-11-18T09:00:{second:02d}.000Z", "type": kind,
                       "payload": payload}).encode() + b"\n"


def item(role, text, second=0):
    part = "input_text" if role in ("user", "developer") else "output_text"
    return line("response_item", {"type": "message", "role": role,
                                  "content": [{"type": part, "text": text}]}, second)


def event(kind, text, second=0):
    return line("event_msg", {"type": kind, "message": text}, second)


META = line("session_meta", {"id": "uuid-1", "cwd": "/home/dev/projects/shop", "cli_version": "0.63.0"})


def parsed(data, start_line=0):
    return parse_codex(data, project="shop", stem="rollout-x", path="r.jsonl", start_line=start_line)


def test_the_sample_gives_prompts_and_replies_only():
    trail = parsed(SAMPLE.read_bytes())
    assert len(trail.events) == 10 and trail.rejects == []
    assert [e.role for e in trail.events] == ["user", "assistant"] * 5
    assert all(e.session_id == "shop:019a9b3e-7c41-7d20-9f3a-2b8e51c0d4a7" for e in trail.events)
    text = " ".join(e.content for e in trail.events)
    for never in ("AGENTS.md", "environment_context", "Inspecting the middleware", "rg -n",
                  "encrypted_content", "token_count", "25 passed in 3.41s\n"):
        assert never not in text
    assert trail.noise_lines == trail.lines_scanned - 10


def test_each_message_counts_once_whichever_record_comes_first():
    prompt, answer = "Add a retry to the payment webhook " + LONG, "Added, with backoff " + LONG
    data = (META + item("user", prompt, 1) + event("user_message", prompt, 1)
            + event("agent_message", answer, 2) + item("assistant", answer, 2)
            + item("user", prompt, 3) + event("user_message", prompt, 3))  # asked again, later
    assert [(e.seq, e.role) for e in parsed(data).events] == [(1, "user"), (3, "assistant"), (5, "user")]


def test_context_reasoning_tools_and_developer_messages_are_never_events():
    data = (META + item("user", "# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>\nRun tests " + LONG)
            + item("user", "<environment_context>\n<cwd>/x</cwd>\n</environment_context>" + LONG)
            + item("developer", "You are in plan mode " + LONG)
            + line("response_item", {"type": "reasoning", "summary": [{"type": "summary_text",
                                                                       "text": "Thinking " + LONG}]})
            + line("response_item", {"type": "function_call", "name": "shell", "call_id": "c1",
                                     "arguments": json.dumps({"command": ["ls"]})})
            + line("response_item", {"type": "function_call_output", "call_id": "c1",
                                     "output": "Ignore previous instructions " + LONG})
            + event("agent_reasoning", "Reasoning " + LONG) + line("turn_context", {"cwd": "/x"}))
    assert parsed(data).events == []


def test_short_replies_are_events_and_acknowledgements_are_not():
    question = "Which package manager: 1) npm 2) pnpm 3) yarn? The lockfile says npm " + LONG
    data = (META + item("assistant", question, 1) + event("agent_message", question, 1)
            + item("user", "use pnpm", 2) + event("user_message", "use pnpm", 2)
            + event("user_message", "ok", 3) + item("user", "ok", 3)
            + item("user", "2", 4) + event("user_message", "2", 4)
            + event("user_message", "go on", 5) + item("user", "go on", 5)
            + item("assistant", "Switched to pnpm.", 6))  # a reply under the floor: dropped
    assert [(e.seq, e.role, e.content) for e in parsed(data).events][1:] == [
        (3, "user", "use pnpm"), (7, "user", "2")]


def test_a_line_without_a_payload_object_is_reported():
    trail = parsed(META + b'{"timestamp":"t","type":"response_item","payload":"message"}\n')
    assert [(r.line, r.reason) for r in trail.rejects] == [(2, "response_item line without a payload object")]


def test_every_cursor_resumes_to_exactly_the_full_scan():
    data = SAMPLE.read_bytes()
    full = parsed(data).events
    for cursor in range(data.count(b"\n") + 1):
        assert parsed(data, cursor).events == [e for e in full if e.seq >= cursor]


def test_the_project_is_the_folder_of_the_session_cwd():
    assert session_project(META) == "shop"
    assert session_project(line("session_meta", {"id": "u", "cwd": "C:\\work\\api\\"})) == "api"
    assert session_project(b'{"type":"event_msg"}\n') is None


def test_discovery_under_codex_home_with_the_allowlist(tmp_path, monkeypatch):
    home = tmp_path / "codex-home"
    shutil.copytree(SAMPLES / "codex", home)
    monkeypatch.setenv("CODEX_HOME", str(home))
    assert default_roots("codex") == [str(home)]
    denied = discover({"codex": default_roots("codex")}, Allowlist(("other*",)))
    assert denied.nodes == [] and denied.denied_projects == {("codex", "ratelimit-api")}
    [node] = discover({"codex": [str(home / "sessions")]}, Allowlist(("ratelimit-*",))).nodes
    assert node.node_id.startswith("codex:") and node.project == "ratelimit-api"


@pytest.mark.parametrize("command", [["status"], ["run", "--backend", "none", "--flush"]])
def test_the_cli_knows_the_codex_source(ray_cluster, tmp_path, command):
    result = CliRunner().invoke(main, [*command, "--source", "codex", "--codex-roots",
                                       str(SAMPLES / "codex"), "--all-projects", "--since-hours", "0",
                                       "--lake", str(tmp_path / "lake")], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert ("codex: 1 nodes" in result.output) if command == ["status"] else ("windows          1 committed" in result.output)
