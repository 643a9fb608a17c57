"""The commands that set one person up: `interview hook` (what the agents' hooks call),
`interview install` / `uninstall` (hooks, MCP entries and the scheduled run in the clients' own
config files) and `interview doctor` (is all of it working, and what fixes what is not)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from jobs.cli.shared import _settings

CLIENT_CHOICES = ("claude-code", "cursor", "codex")


@click.command()
@click.argument("payload", required=False)
@click.option("--client", type=click.Choice(CLIENT_CHOICES),
              help="Which agent calls (default: inferred from the payload's shape).")
@click.option("--lake", metavar="FOLDER|CATALOG", help="Lake folder or catalog (default: the config's).")
@click.option("--backend", help="Model backend (default: the config's).")
@click.option("--projects", multiple=True, metavar="GLOB",
              help="Allow projects matching GLOB (repeatable; default: the config's allowlist).")
@click.option("--server", "server_url", metavar="URL",
              help="Push the session to this server instead of interviewing it here "
                   "(default: INTERVIEW_SERVER of the env file).")
@click.option("--env-file", type=click.Path(dir_okay=False, path_type=Path),
              help="KEY='value' file with INTERVIEW_SERVER and INTERVIEW_API_KEY "
                   "(default: the one `interview install` writes).")
@click.option("--foreground", is_flag=True, help="Do the work in this process (the detached "
              "child does; for debugging).")
@click.option("--payload-file", type=click.Path(dir_okay=False, path_type=Path), hidden=True)
@click.pass_context
def hook(ctx, payload, client, lake, backend, projects, server_url, env_file, foreground,
         payload_file):
    """Interview the session an agent just ended; for the agents' session-end hooks.

    Reads the hook's JSON from stdin (Claude Code SessionEnd or Stop, Cursor sessionEnd) or as
    the last argument (Codex `notify`), finds the node by its transcript (Codex: by its
    thread-id), and, within the project allowlist, interviews up to two windows of it (a
    session's end flushes its small tail) or, with a server, pushes it there. The work runs
    detached: this command returns at once and always exits 0. What became of each call is a
    line in ~/.local/state/trail-interview/hook.log, which `interview doctor` shows.

    \b
    Installed by `interview install`; by hand, Claude Code (~/.claude/settings.json):
      {"hooks": {"SessionEnd": [{"matcher": "", "hooks": [{"type": "command",
        "command": "interview hook --client claude-code"}]}]}}
    """
    from jobs.agents import hook as hooks

    try:
        if payload_file is not None:
            text = payload_file.read_text(encoding="utf-8")
            payload_file.unlink(missing_ok=True)
        elif payload is not None:
            text = payload
        else:
            text = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read()
        if not foreground:
            argv = [*hooks.current_python_command(), *_global_args(ctx), "hook", "--foreground",
                    *_passed("--client", client), *_passed("--lake", lake),
                    *_passed("--backend", backend), *_passed("--server", server_url),
                    *_passed("--env-file", env_file)]
            for glob in projects:
                argv += ["--projects", glob]
            hooks.spawn_detached(argv, text)
            return
        _hook_foreground(ctx, hooks, text, client, lake, backend, projects, server_url, env_file)
    except Exception as error:  # noqa: BLE001 - a hook never fails its agent; the log says why
        try:
            hooks.record("error", None, error=f"{type(error).__name__}: {error}")
        except OSError:
            pass
    sys.exit(0)


def _hook_foreground(ctx, hooks, text, client, lake, backend, projects, server_url, env_file):
    from jobs.install import paths

    event = None
    try:
        event = hooks.parse_payload(text, client)
        env = hooks.read_env_file(env_file or paths.env_file())
        server = server_url or env.get("INTERVIEW_SERVER")
        flags = dict(lake=lake, backend=backend, projects=list(projects) or None)
        settings = _settings(ctx, **flags)
        outcome = hooks.run_hook(settings, event, server=server,
                                 api_key=env.get("INTERVIEW_API_KEY"))
        hooks.record(outcome.pop("outcome"), event, **outcome)
    except BaseException as error:  # noqa: BLE001 - SystemExit of a click error included
        if isinstance(error, SystemExit) and not error.code:
            raise
        hooks.record("error", event, error=f"{type(error).__name__}: {error}")


def _passed(flag: str, value) -> list[str]:
    return [] if value is None else [flag, str(value)]


def _global_args(ctx: click.Context) -> list[str]:
    config = (ctx.obj or {}).get("config")
    return ["--config", str(Path(config).resolve())] if config else []


COMMANDS = (hook,)
