"""`interview hook`: the session-end entry point of the agents' own hooks.

One command for Claude Code (`SessionEnd`, also `Stop`: JSON on stdin with `transcript_path`),
Cursor (`sessionEnd`: JSON on stdin, `transcript_path` may be null) and Codex (its `notify`
program: JSON as the last argument, `thread-id` names the rollout). The payload is parsed here
(pure), the node is found by its trail, and the work is one of the existing ways in: `run_nodes`
on that node (bounded as the reference's hook mode: two windows, flush at a session's end) or
`push` of that node to the configured server. No window lifecycle of its own.

The CLI forks the work into a detached process so that the agent never waits, and always exits
0; what happened, good or bad, is one line in the hook log (`jobs.install.paths.hook_log`),
which `interview doctor` reads.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from jobs.install import paths

log = logging.getLogger(__name__)

CLIENTS = ("claude-code", "cursor", "codex")
HOOK_WINDOWS = 2  # per hook call, as the reference client's hook mode
LAKE_BUSY_WAIT_SECONDS = 600  # detached: waiting for another writer of the lake costs no one
# Events that close a session: its small tail is interviewed too (flush). Per-turn events
# (Claude Code's Stop, Codex's agent-turn-complete) keep the dribble gate, or every turn would
# become a window of its own.
SESSION_ENDS = {"SessionEnd", "sessionEnd"}


@dataclass(frozen=True)
class HookEvent:
    client: str
    event: str  # hook_event_name, or Codex's notification type
    transcript: str | None  # the trail file the client names
    selector: str | None  # what `matching_nodes` takes: the transcript, or a node-id glob
    cwd: str | None
    session_id: str | None

    @property
    def session_end(self) -> bool:
        return self.event in SESSION_ENDS


class HookInputError(ValueError):
    """A payload this command cannot use: logged, never raised to the agent."""


def parse_payload(text: str, client: str | None = None) -> HookEvent:
    """The hook's JSON (stdin, or Codex's last argument) as a `HookEvent`; `client` when the
    installed command names it, else inferred from the payload's shape."""
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as error:
        raise HookInputError(f"hook input is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise HookInputError(f"hook input is a JSON {type(data).__name__}, not an object")
    client = client or _infer_client(data)
    if client not in CLIENTS:
        raise HookInputError(f"unknown client {client!r}; one of {', '.join(CLIENTS)}")
    if client == "codex":
        thread = data.get("thread-id") or data.get("thread_id")
        transcript = data.get("transcript_path")
        selector = transcript or (f"codex:*{thread}" if thread else None)
        return HookEvent(client, str(data.get("type") or data.get("hook_event_name") or ""),
                         transcript, selector, data.get("cwd"), thread)
    transcript = data.get("transcript_path") or None
    cwd = data.get("cwd")
    if not cwd and isinstance(data.get("workspace_roots"), list) and data["workspace_roots"]:
        cwd = data["workspace_roots"][0]
    session = data.get("session_id") or data.get("conversation_id")
    return HookEvent(client, str(data.get("hook_event_name") or ""), transcript, transcript, cwd,
                     session)


def _infer_client(data: dict) -> str:
    if "thread-id" in data or data.get("type") == "agent-turn-complete":
        return "codex"
    name = str(data.get("hook_event_name") or "")
    if "conversation_id" in data or "cursor_version" in data or name[:1].islower():
        return "cursor"
    return "claude-code"


def record(outcome: str, event: HookEvent | None, **details) -> None:
    """One JSON line in the hook log: when, what came in, what became of it."""
    path = paths.hook_log()
    path.parent.mkdir(parents=True, exist_ok=True)
    line = {"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "outcome": outcome,
            **(asdict(event) if event else {}), **details}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(line, default=str) + "\n")


def last_records(limit: int = 5) -> list[dict]:
    """The newest lines of the hook log (for `interview doctor`), newest last."""
    path = paths.hook_log()
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()[-limit:]
    out = []
    for line in lines:
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            out.append({"outcome": "unreadable", "line": line[:200]})
    return out


def spawn_detached(argv: list[str], payload: str) -> int:
    """Start `argv` (the same command with `--foreground`) in a session of its own, with the
    payload on a file it deletes, its output appended to the hook log; return its pid at once."""
    import tempfile

    folder = paths.state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix="hook-", suffix=".json", dir=folder)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(payload)
    with open(paths.hook_log(), "ab") as sink:
        process = subprocess.Popen([*argv, "--payload-file", name], stdin=subprocess.DEVNULL,
                                   stdout=sink, stderr=sink, start_new_session=True,
                                   close_fds=True)
    return process.pid


def run_hook(settings, event: HookEvent, *, server: str | None = None,
             api_key: str | None = None) -> dict:
    """Interview (or push) the node the hook names; the outcome as a dict for the log. Our
    errors are raised; the CLI logs them."""
    from ingest.errors import AllowlistRequired, NodeNotFound

    if event.selector is None:
        return {"outcome": "skipped", "reason": "no transcript in the hook input (Cursor with "
                "transcripts off sends transcript_path null); the scheduled run covers it"}
    settings = settings.model_copy(update={
        "max_windows": HOOK_WINDOWS, "flush": settings.flush or event.session_end,
        "since_hours": 0})
    if server:
        return _push(settings, event, server, api_key)
    from ingest.errors import LakeBusy
    from jobs.api import run_nodes

    deadline = time.monotonic() + LAKE_BUSY_WAIT_SECONDS
    while True:
        try:
            summary = run_nodes(settings, node=event.selector)
            break
        except (NodeNotFound, AllowlistRequired) as error:
            return {"outcome": "not_allowed", "reason": str(error)}
        except LakeBusy:  # another hook or the scheduled run writes: one at a time
            if time.monotonic() > deadline:
                raise
            time.sleep(5)
    return {"outcome": "interviewed", "run_id": summary.run_id, "windows": summary.windows,
            "memories_written": summary.memories_written, "deferred": summary.deferred,
            "parked": summary.parked}


def _push(settings, event: HookEvent, server: str, api_key: str | None) -> dict:
    from ingest.errors import AllowlistRequired, UsageError
    from jobs.api import discover_nodes, matching_nodes
    from jobs.http.push import PushClient, push

    if not api_key:
        raise UsageError(f"push mode needs an API key for {server}: INTERVIEW_API_KEY in the env "
                         "file (`interview install --server URL --api-key KEY`)")
    try:
        found = discover_nodes(settings)
    except AllowlistRequired as error:
        return {"outcome": "not_allowed", "reason": str(error)}
    nodes = matching_nodes(found.nodes, event.selector)
    if not nodes:
        return {"outcome": "not_allowed", "reason": f"no node under the allowed projects is "
                f"{event.selector}"}
    summary = push(settings, nodes, PushClient(server, api_key))
    return {"outcome": "pushed", "server": server, "windows_sent": summary.windows_sent,
            "windows_accepted": summary.windows_accepted, "errors": summary.errors}


def read_env_file(path: Path) -> dict[str, str]:
    """KEY='value' lines of the installed env file (the format `install` writes)."""
    import shlex

    values = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, raw = line.removeprefix("export ").partition("=")
        parts = shlex.split(raw)
        values[key.strip()] = parts[0] if parts else ""
    return values


def current_python_command() -> list[str]:
    """How a hook calls this program: this interpreter and the CLI module, absolute (an agent's
    hook runs with its own PATH)."""
    return [sys.executable, "-m", "jobs.cli"]
