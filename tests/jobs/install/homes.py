"""A temporary HOME holding real-format Claude Code, Cursor and Codex files: their config files
as the current clients write them, and one session of each copied from the shipped samples."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from tests.serving import ROOT

SAMPLES = ROOT / "jobs" / "samples"
CC_SESSION = "4d5611e5-241a-462a-8d15-5122611a9569"
CURSOR_SESSION = "cursor-session"
CODEX_THREAD = "019a9b3e-7c41-7d20-9f3a-2b8e51c0d4a7"

# What the clients had before we came: a person's own settings, hooks and MCP servers, which
# install must keep and uninstall must give back byte for byte.
CLAUDE_SETTINGS = {
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "permissions": {"allow": ["Bash(npm run test:*)"]},
    "hooks": {"PostToolUse": [{"matcher": "Edit|Write",
                               "hooks": [{"type": "command",
                                          "command": "npx prettier --write ."}]}]},
}
CLAUDE_JSON = {"numStartups": 12, "mcpServers": {"github": {
    "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
    "env": {}}}}
CURSOR_HOOKS = {"version": 1, "hooks": {"afterFileEdit": [{"command": "./hooks/format.sh"}]}}
CURSOR_MCP = {"mcpServers": {"docs": {"url": "https://example.org/mcp"}}}
CODEX_CONFIG = '''model = "gpt-5-codex"
approval_policy = "on-request"

[mcp_servers.context7]
command = "npx"
args = ["-y", "@upstash/context7-mcp"]

[projects."/home/me/repo"]
trust_level = "trusted"
'''


def make_home(root: Path) -> dict[str, Path]:
    """A HOME under `root` with the three clients' files; the paths by name."""
    home = root / "home"
    files = {
        "claude_settings": home / ".claude" / "settings.json",
        "claude_json": home / ".claude.json",
        "cursor_hooks": home / ".cursor" / "hooks.json",
        "cursor_mcp": home / ".cursor" / "mcp.json",
        "codex_config": home / ".codex" / "config.toml",
    }
    for key, value in (("claude_settings", CLAUDE_SETTINGS), ("claude_json", CLAUDE_JSON),
                       ("cursor_hooks", CURSOR_HOOKS), ("cursor_mcp", CURSOR_MCP)):
        files[key].parent.mkdir(parents=True, exist_ok=True)
        files[key].write_text(json.dumps(value, indent=2) + "\n")
    files["codex_config"].parent.mkdir(parents=True, exist_ok=True)
    files["codex_config"].write_text(CODEX_CONFIG)
    # The project folder a session's `cwd` names, and its Claude Code project (the path with
    # every other character as `-`, as Claude Code names it).
    workspace = root / "work" / "spotter"
    workspace.mkdir(parents=True)
    files["workspace"] = workspace
    cc = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(workspace.resolve()))
    cc.mkdir(parents=True)
    shutil.copy(SAMPLES / "claude-code" / "spotter" / f"{CC_SESSION}.jsonl", cc)
    files["cc_session"] = cc / f"{CC_SESSION}.jsonl"
    cursor = home / ".cursor" / "projects" / "home-me-claude-mem"
    shutil.copytree(SAMPLES / "cursor" / "projects" / "claude-mem" / "agent-transcripts",
                    cursor / "agent-transcripts")
    transcripts = cursor / "agent-transcripts" / CURSOR_SESSION
    files["cursor_session"] = transcripts / f"{CURSOR_SESSION}.jsonl"
    shutil.copytree(SAMPLES / "codex" / "sessions", home / ".codex" / "sessions")
    files["codex_session"] = next((home / ".codex" / "sessions").rglob("*.jsonl"))
    files["home"] = home
    return files


def home_env(root: Path) -> dict[str, str]:
    """The environment of a process of that person: HOME and the XDG folders under `root`, the
    model cache of the real one (the models are not fetched again)."""
    from synth.model_store import cache_dir

    home = root / "home"
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("INTERVIEW_", "XDG_", "CODEX_HOME", "CLAUDE_CONFIG_DIR"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_STATE_HOME=str(home / ".local" / "state"),
               XDG_DATA_HOME=str(home / ".local" / "share"),
               INTERVIEW_MODEL_CACHE=str(cache_dir()), INTERVIEW_MACHINE_ID="test-machine",
               PYTHONPATH=str(ROOT))
    return env


def use_home(monkeypatch, root: Path) -> None:
    """This process as that person (for in-process calls)."""
    for key, value in home_env(root).items():
        monkeypatch.setenv(key, value)
    for key in ("CODEX_HOME", "CLAUDE_CONFIG_DIR"):
        monkeypatch.delenv(key, raising=False)
