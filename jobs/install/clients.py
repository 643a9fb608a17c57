"""The entries `interview install` adds to each client's own config files, as pure edits: the
file's text before (None: no file) → its text after, and the reverse edit that takes out only
ours (used by uninstall when the person edited the file since).

Formats followed (the clients' current documentation, December 2026):
- Claude Code `~/.claude/settings.json`: `hooks.<Event>: [{matcher, hooks: [{type: "command",
  command, timeout}]}]` for `SessionEnd` and `SessionStart`; user MCP servers in `~/.claude.json`
  `mcpServers.<name>: {type: "stdio", command, args, env}`.
- Cursor `~/.cursor/hooks.json`: `{version: 1, hooks: {sessionEnd: [{command}]}}`; MCP servers in
  `~/.cursor/mcp.json` `mcpServers.<name>: {command, args}`.
- Codex `$CODEX_HOME/config.toml`: top-level `notify = [program, args...]` (Codex appends the
  notification JSON as the last argument) and `[mcp_servers.<name>]` with `command` and `args`.
A JSON file we change is written back with two-space indents; a file we do not need to change is
never rewritten. Ours are recognised by the installation's config path in their command.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from jobs.install.paths import MARKER

SERVER_NAME = "trail-memories"
BEGIN, END = f"# >>> {MARKER}", f"# <<< {MARKER}"


@dataclass(frozen=True)
class Commands:
    """What the clients call: argv lists (JSON and TOML take lists; a hook's `command` is a
    shell line, `shell` makes it)."""
    hook: list[str]  # + ["--client", NAME]
    context: list[str]
    mcp: list[str]
    tag: str  # a string every command of ours contains (the installation's config path)

    @staticmethod
    def shell(argv: list[str]) -> str:
        import shlex

        return shlex.join(argv)

    def hook_line(self, client: str) -> str:
        return self.shell([*self.hook, "--client", client])

    def ours(self, command) -> bool:
        text = command if isinstance(command, str) else json.dumps(command)
        return isinstance(text, str) and self.tag in text


@dataclass(frozen=True)
class FileEdit:
    """One client file: how to add our entries, how to take them out again."""
    client: str
    path: Path
    add: Callable[[str | None, Commands], tuple[str | None, list[str]]]  # → (text, notes)
    remove: Callable[[str, Commands], str | None]  # None: nothing of the person's is left


def _load_json(text: str | None, path_name: str) -> dict:
    if text is None or not text.strip():
        return {}
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"{path_name}: a JSON object was expected, found {type(data).__name__}")
    return data


def _dump(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _json_edit(change):
    """An `add` from `change(data, commands) -> notes`: unchanged data keeps the text as it was."""
    def add(text, commands):
        data = _load_json(text, "config")
        before = json.dumps(data, sort_keys=True)
        notes = change(data, commands)
        if json.dumps(data, sort_keys=True) == before:
            return text, notes
        return _dump(data), notes
    return add


def _claude_hooks(data: dict, commands: Commands) -> list[str]:
    hooks = data.setdefault("hooks", {})
    wanted = {"SessionEnd": commands.hook_line("claude-code"),
              "SessionStart": commands.shell(commands.context)}
    for event, line in wanted.items():
        groups = hooks.setdefault(event, [])
        if not any(h.get("command") == line for g in groups for h in g.get("hooks", [])):
            groups.append({"matcher": "", "hooks": [{"type": "command", "command": line,
                                                     "timeout": 30}]})
    return []


def _drop_claude_hooks(data: dict, commands: Commands) -> None:
    hooks = data.get("hooks", {})
    for event in list(hooks):
        groups = []
        for group in hooks[event]:
            kept = [h for h in group.get("hooks", []) if not commands.ours(h.get("command"))]
            if kept:
                groups.append({**group, "hooks": kept})
        if groups:
            hooks[event] = groups
        else:
            del hooks[event]
    if "hooks" in data and not hooks:
        del data["hooks"]


def _mcp_entry(with_type: bool):
    def change(data: dict, commands: Commands) -> list[str]:
        servers = data.setdefault("mcpServers", {})
        entry = {"command": commands.mcp[0], "args": commands.mcp[1:]}
        if with_type:
            entry = {"type": "stdio", **entry, "env": {}}
        present = servers.get(SERVER_NAME)
        if present is not None and not commands.ours(present):
            return [f"an MCP server named {SERVER_NAME} is already configured and not ours: kept"]
        servers[SERVER_NAME] = entry
        return []
    return change


def _drop_mcp(data: dict, commands: Commands) -> None:
    servers = data.get("mcpServers", {})
    if commands.ours(servers.get(SERVER_NAME)):
        del servers[SERVER_NAME]


def _cursor_hooks(data: dict, commands: Commands) -> list[str]:
    data.setdefault("version", 1)
    groups = data.setdefault("hooks", {}).setdefault("sessionEnd", [])
    line = commands.hook_line("cursor")
    if not any(h.get("command") == line for h in groups):
        groups.append({"command": line})
    return []


def _drop_cursor_hooks(data: dict, commands: Commands) -> None:
    hooks = data.get("hooks", {})
    for event in list(hooks):
        hooks[event] = [h for h in hooks[event] if not commands.ours(h.get("command"))]
        if not hooks[event]:
            del hooks[event]


def _json_remove(drop):
    def remove(text: str, commands: Commands) -> str | None:
        data = _load_json(text, "config")
        before = json.dumps(data, sort_keys=True)
        drop(data, commands)
        return text if json.dumps(data, sort_keys=True) == before else _dump(data)
    return remove


def _toml_list(items: list[str]) -> str:
    return "[" + ", ".join(json.dumps(item) for item in items) + "]"


def codex_add(text: str | None, commands: Commands) -> tuple[str | None, list[str]]:
    """`notify` as the file's first line (always top-level) and an `[mcp_servers]` block at its
    end, each marked; a `notify` of the person's own is kept (Codex takes one program)."""
    text = text or ""
    parsed = tomllib.loads(text)
    notes, out = [], text
    notify = [*commands.hook, "--client", "codex"]
    if "notify" not in parsed:
        out = f"notify = {_toml_list(notify)}  # {MARKER}\n" + out
    elif not commands.ours(parsed["notify"]):
        notes.append("Codex already has a `notify` program, kept: the scheduled run covers Codex "
                     "sessions (or call `interview hook --client codex` from that program)")
    if SERVER_NAME not in parsed.get("mcp_servers", {}):
        block = (f"{BEGIN}\n[mcp_servers.{SERVER_NAME}]\ncommand = {json.dumps(commands.mcp[0])}\n"
                 f"args = {_toml_list(commands.mcp[1:])}\n{END}\n")
        out = out + ("" if not out or out.endswith("\n\n") else "\n" if out.endswith("\n")
                     else "\n\n") + block
    elif not commands.ours(parsed["mcp_servers"][SERVER_NAME]):
        notes.append(f"Codex already has an MCP server named {SERVER_NAME}, not ours: kept")
    tomllib.loads(out)  # what we wrote still parses
    return (text or None) if out == text else out, notes


def codex_remove(text: str, commands: Commands) -> str | None:
    lines, out, inside = text.splitlines(keepends=True), [], False
    for line in lines:
        if line.rstrip("\n") == BEGIN:
            inside = True
            if out and out[-1] == "\n":
                out.pop()  # the blank line we put before the block
            continue
        if inside:
            inside = line.rstrip("\n") != END
            continue
        if line.rstrip("\n").endswith(f"# {MARKER}"):
            continue
        out.append(line)
    return "".join(out)


def client_files(home: Path, codex_home: Path) -> list[FileEdit]:
    return [
        FileEdit("claude-code", home / ".claude" / "settings.json", _json_edit(_claude_hooks),
                 _json_remove(_drop_claude_hooks)),
        FileEdit("claude-code", home / ".claude.json", _json_edit(_mcp_entry(True)),
                 _json_remove(_drop_mcp)),
        FileEdit("cursor", home / ".cursor" / "hooks.json", _json_edit(_cursor_hooks),
                 _json_remove(_drop_cursor_hooks)),
        FileEdit("cursor", home / ".cursor" / "mcp.json", _json_edit(_mcp_entry(False)),
                 _json_remove(_drop_mcp)),
        FileEdit("codex", codex_home / "config.toml", codex_add, codex_remove),
    ]


def client_present(client: str, home: Path, codex_home: Path) -> bool:
    """Whether the client is set up for this person (its config folder exists)."""
    return {"claude-code": (home / ".claude").is_dir() or (home / ".claude.json").is_file(),
            "cursor": (home / ".cursor").is_dir(), "codex": codex_home.is_dir()}[client]
