"""`interview install all` in a temporary HOME holding real-format Claude Code, Cursor and Codex
files: each installed hook run as its client runs it interviews its session, the SessionStart
command prints the digest, the MCP entry starts a server the SDK's client lists, the crontab line
is there; installing again changes nothing; uninstall gives every file back byte for byte."""

from __future__ import annotations

import asyncio
import json
import shlex
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from tests.jobs.install.homes import CODEX_THREAD, home_env, make_home


def cli(env, *args, input=None, check=True) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "jobs.cli", *args], env=env, input=input,
                          capture_output=True, text=True, timeout=120)
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def snapshot(home: Path) -> dict[str, bytes]:
    """Every file and folder of the person's, but the trails (a run never writes those), the
    caches (onnxruntime's) and our logs (~/.local/state/trail-interview, kept by uninstall)."""
    return {str(p.relative_to(home)): p.read_bytes() if p.is_file() else b"<dir>"
            for p in sorted(home.rglob("*"))
            if not {"sessions", "projects"} & set(p.parts)
            and p.relative_to(home).parts[0] not in (".cache", ".local")}


def hook_lines(home: Path, count: int, timeout: float = 180) -> list[dict]:
    path = home / ".local" / "state" / "trail-interview" / "hook.log"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = [json.loads(x) for x in (path.read_text().splitlines() if path.is_file() else [])
                 if x.startswith("{")]
        if len(lines) >= count:
            return lines
        time.sleep(0.3)
    raise AssertionError(path.read_text() if path.is_file() else "no hook log")


def list_mcp_tools(command: str, args: list[str], env: dict) -> list[str]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=command, args=args, env=env)

    async def session():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return [tool.name for tool in (await client.list_tools()).tools]

    return asyncio.run(session())


@pytest.fixture
def person(tmp_path):
    files = make_home(tmp_path)
    return files, home_env(tmp_path), tmp_path / "lake"


def test_install_all_wires_every_client_and_uninstall_gives_back_every_byte(person, ray_cluster):
    files, env, lake = person
    # The hooks' detached runs join the tests' local Ray (a Ray of their own each costs ~20 s).
    env["INTERVIEW_RAY__ADDRESS"] = ray_cluster.get_runtime_context().gcs_address
    home = files["home"]
    before = snapshot(home)
    crontab = home / "crontab"
    install = ["install", "all", "--projects", "*", "--lake", str(lake), "--backend", "none",
               "--crontab-file", str(crontab)]
    dry = cli(env, *install, "--dry-run")
    assert "+++ " in dry.stdout and "nothing written" in dry.stdout
    assert snapshot(home) == before  # a dry run writes nothing
    cli(env, *install)
    after_first = snapshot(home)
    assert cli(env, *install).stdout.startswith("0 change(s)")  # twice = once
    assert snapshot(home) == after_first

    # Claude Code runs a hook's command through a shell, its JSON on stdin.
    settings = json.loads(files["claude_settings"].read_text())
    assert settings["permissions"] == {"allow": ["Bash(npm run test:*)"]}  # the person's kept
    (end,) = [h["command"] for g in settings["hooks"]["SessionEnd"] for h in g["hooks"]]
    (start,) = [h["command"] for g in settings["hooks"]["SessionStart"] for h in g["hooks"]]
    started = time.monotonic()
    subprocess.run(end, shell=True, env=env, text=True, check=True, timeout=60, input=json.dumps(
        {"session_id": "s", "transcript_path": str(files["cc_session"]),
         "cwd": str(files["workspace"]),
         "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"}))
    assert time.monotonic() - started < 10
    hook_lines(home, 1)
    # Cursor: the same, from hooks.json.
    (cursor_end,) = [h["command"] for h in json.loads(files["cursor_hooks"].read_text())
                     ["hooks"]["sessionEnd"]]
    subprocess.run(cursor_end, shell=True, env=env, text=True, check=True, timeout=60,
                   input=json.dumps({"conversation_id": "cursor-session", "hook_event_name":
                                     "sessionEnd", "transcript_path": str(files["cursor_session"]),
                                     "workspace_roots": ["/x"], "cursor_version": "2.1.0"}))
    hook_lines(home, 2)
    # Codex: its notify program, the notification JSON as the last argument, no shell.
    codex = tomllib.loads(files["codex_config"].read_text())
    assert codex["model"] == "gpt-5-codex" and "context7" in codex["mcp_servers"]
    subprocess.run([*codex["notify"], json.dumps({
        "type": "agent-turn-complete", "thread-id": CODEX_THREAD, "turn-id": "1", "cwd": "/x",
        "input-messages": ["hi"], "last-assistant-message": "done"})], env=env, check=True,
        timeout=60)
    lines = {line["client"]: line for line in hook_lines(home, 3)}
    assert {c: lines[c]["outcome"] for c in lines} == {
        "claude-code": "interviewed", "cursor": "interviewed", "codex": "interviewed"}, lines
    assert lines["claude-code"]["windows"] >= 1 and lines["cursor"]["windows"] >= 1
    from sinks.lake import Lake

    with Lake(lake, create=False) as opened:
        sources = {row[0].split(":")[0] for row in opened.con.execute(
            "SELECT node_id FROM attempts").fetchall()}
    assert {"cc", "cursor"} <= sources

    # The SessionStart command prints the digest of the hook's cwd project (memories of a
    # second session there, by the scripted model: the `none` backend writes no decisions).
    _seed_decisions(files, lake)
    digest = subprocess.run(start, shell=True, env=env, text=True, capture_output=True, timeout=60,
                            input=json.dumps({"session_id": "n", "cwd": str(files["workspace"]),
                                              "hook_event_name": "SessionStart",
                                              "source": "startup"}))
    assert digest.returncode == 0, digest.stderr
    assert digest.stdout.startswith('<memory-context source="trail-interview"'), digest.stdout

    # Each MCP entry starts the server: the SDK's stdio client lists its tools.
    entry = json.loads(files["claude_json"].read_text())["mcpServers"]["trail-memories"]
    assert entry["type"] == "stdio"
    assert "search_memories" in list_mcp_tools(entry["command"], entry["args"], env)
    cursor_entry = json.loads(files["cursor_mcp"].read_text())["mcpServers"]
    assert set(cursor_entry) == {"docs", "trail-memories"}
    assert codex["mcp_servers"]["trail-memories"]["args"] == entry["args"]
    # The scheduled run: one managed crontab line.
    (line,) = crontab.read_text().splitlines()
    assert line.startswith("*/30 * * * * {") and line.endswith("# trail-interview (managed)")
    assert shlex.split(line.split("{ ", 1)[1].split(";")[0])[-1] == "run"

    report = json.loads(cli(env, "doctor", "--json", check=False).stdout)
    assert report["hooks"]["installed"] and report["scheduler"]["installed"]

    cli(env, "uninstall")
    assert snapshot(home) == before
    assert not crontab.exists()


def _seed_decisions(files, lake):
    import os
    import shutil

    from jobs.api import run_nodes
    from jobs.settings import load_settings
    from tests import scripted

    copy = files["cc_session"].with_name("seeded-session.jsonl")
    shutil.copy(files["cc_session"], copy)
    settings = load_settings(None, lake=str(lake), claude_code_roots=[str(copy.parent.parent)],
                             sources=["claude-code"], all_projects=True, since_hours=0,
                             flush=True, max_windows=50, embeddings={"enabled": False})
    os.environ.setdefault("INTERVIEW_MACHINE_ID", "test-machine")
    summary = run_nodes(settings, backend_factory=scripted.factory(), node=str(copy))
    assert summary.memories_written > 0


def test_install_refuses_without_an_allowlist_or_a_key(person):
    files, env, lake = person
    done = cli(env, "install", "all", "--lake", str(lake), check=False, input="")
    assert done.returncode == 2 and "--projects GLOB" in done.stderr
    done = cli(env, "install", "all", "--projects", "*", "--server", "http://127.0.0.1:9",
               check=False)
    assert done.returncode == 2 and "--api-key" in done.stderr
    assert not (files["home"] / ".config" / "trail-interview").exists()
