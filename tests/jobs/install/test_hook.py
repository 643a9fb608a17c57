"""`interview hook`: each client's payload, the detached work that interviews the session it
names, the allowlist, and a hook that always exits 0 at once, whatever it is given."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from jobs.agents.hook import HookInputError, parse_payload
from tests.jobs.install.homes import CODEX_THREAD, home_env, make_home

PARSE_ROWS = [
    # (payload, client given, client, event, selector (its end), session end)
    ({"session_id": "s1", "transcript_path": "/h/.claude/projects/-p/s1.jsonl", "cwd": "/p",
      "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"}, None,
     "claude-code", "SessionEnd", "s1.jsonl", True),
    ({"session_id": "s1", "transcript_path": "/h/s1.jsonl", "cwd": "/p", "hook_event_name": "Stop",
      "stop_hook_active": False}, None, "claude-code", "Stop", "s1.jsonl", False),
    ({"conversation_id": "c1", "generation_id": "g1", "hook_event_name": "sessionEnd",
      "transcript_path": "/h/.cursor/projects/p/agent-transcripts/c1/c1.jsonl",
      "workspace_roots": ["/p"], "cursor_version": "2.1.0"}, None, "cursor", "sessionEnd",
     "c1.jsonl", True),
    ({"conversation_id": "c1", "hook_event_name": "sessionEnd", "transcript_path": None},
     "cursor", "cursor", "sessionEnd", None, True),
    ({"type": "agent-turn-complete", "thread-id": "t-1", "turn-id": "u-1", "cwd": "/p",
      "input-messages": ["hi"], "last-assistant-message": "done"}, None, "codex",
     "agent-turn-complete", "codex:*t-1", False),
]


@pytest.mark.parametrize("payload, given, client, event, selector, end", PARSE_ROWS)
def test_each_clients_payload(payload, given, client, event, selector, end):
    parsed = parse_payload(json.dumps(payload), given)
    assert (parsed.client, parsed.event, parsed.session_end) == (client, event, end)
    if selector is None:
        assert parsed.selector is None
    else:
        assert parsed.selector.endswith(selector)


@pytest.mark.parametrize("text, message", [
    ("{not json", "not JSON"), ("[1, 2]", "JSON list, not an object"),
])
def test_bad_payload_says_why(text, message):
    with pytest.raises(HookInputError, match=message):
        parse_payload(text)


def _hook(env, payload: str, *args, argv_payload: bool = False) -> float:
    command = [sys.executable, "-m", "jobs.cli", "hook", *args]
    started = time.monotonic()
    done = subprocess.run(command + ([payload] if argv_payload else []), env=env,
                          input=None if argv_payload else payload, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return time.monotonic() - started


def _log_lines(home, count: int, timeout: float = 120) -> list[dict]:
    path = home / ".local" / "state" / "trail-interview" / "hook.log"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.is_file():
            lines = [json.loads(line) for line in path.read_text().splitlines()
                     if line.startswith("{")]
            if len(lines) >= count:
                return lines
        time.sleep(0.3)
    raise AssertionError(f"hook log has not {count} lines: "
                         f"{path.read_text() if path.is_file() else 'no log'}")


def test_hook_returns_at_once_and_the_detached_work_interviews_the_session(tmp_path):
    files = make_home(tmp_path)
    env = home_env(tmp_path)
    lake = tmp_path / "lake"
    payload = json.dumps({"session_id": "x", "transcript_path": str(files["cc_session"]),
                          "cwd": "/home/me/spotter", "hook_event_name": "SessionEnd",
                          "reason": "other"})
    seconds = _hook(env, payload, "--client", "claude-code", "--lake", str(lake),
                    "--backend", "none", "--projects", "*spotter*")
    assert seconds < 10  # the interview itself takes longer: it ran detached
    # Codex's notify passes its JSON as the last argument; its project is not allowed here.
    codex = json.dumps({"type": "agent-turn-complete", "thread-id": CODEX_THREAD, "cwd": "/x"})
    _hook(env, codex, "--lake", str(lake), "--backend", "none", "--projects", "*spotter*",
          argv_payload=True)
    _hook(env, "{broken", "--lake", str(lake))  # still exit 0; the log says why
    lines = {line.get("client") or "none": line for line in _log_lines(files["home"], 3)}
    assert lines["claude-code"]["outcome"] == "interviewed", lines
    assert lines["claude-code"]["windows"] >= 1
    assert lines["codex"]["outcome"] == "not_allowed"
    assert lines["none"]["outcome"] == "error" and "not JSON" in lines["none"]["error"]
    from jobs.api import read_node_watermark
    from jobs.settings import load_settings

    node = lines["claude-code"]["run_id"]
    assert node.startswith("run_")
    settings = load_settings(None, lake=str(lake))
    from sinks.lake import Lake

    with Lake(lake, create=False) as opened:
        rows = opened.con.execute("SELECT node_id, cursor_to FROM attempts").fetchall()
    assert rows and all(r[0].startswith("cc:") for r in rows)
    assert read_node_watermark(settings, rows[0][0])["last_seq"] >= 0
