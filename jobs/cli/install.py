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
@click.option("--lake", metavar="FOLDER|CATALOG",
              help="Lake folder or catalog (default: the config's).")
@click.option("--backend", help="Model backend (default: the config's).")
@click.option("--projects", multiple=True, metavar="GLOB",
              help="Allow projects matching GLOB (repeatable; default: the config's allowlist).")
@click.option("--server", "server_url", metavar="URL",
              help="Push the session to this server instead of interviewing it here "
                   "(default: INTERVIEW_PUSH_SERVER of the env file).")
@click.option("--env-file", type=click.Path(dir_okay=False, path_type=Path),
              help="KEY='value' file with INTERVIEW_PUSH_SERVER and INTERVIEW_API_KEY "
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
        server = server_url or env.get("INTERVIEW_PUSH_SERVER")
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



@click.command()
@click.argument("client", type=click.Choice(("all", *CLIENT_CHOICES)), default="all")
@click.option("--projects", multiple=True, metavar="GLOB",
              help="Allow projects matching GLOB (repeatable; '*' for every one). Asked for when "
                   "not given; nothing is allowed by default.")
@click.option("--lake", metavar="FOLDER|CATALOG",
              help="Lake of the installed commands (default ~/.local/share/trail-interview/lake).")
@click.option("--backend",
              help="Model backend of the installed runs (default: the settings' default).")
@click.option("--interval", default="30m", show_default=True,
              help="Scheduled run every Nm (1-59), 1h or Nh (2-23).")
@click.option("--scheduler", type=click.Choice(("auto", "systemd", "launchd", "cron", "none")),
              default="auto", show_default=True,
              help="auto: launchd on macOS, a systemd user timer where systemd runs, else crontab.")
@click.option("--server", "server_url", metavar="URL",
              help="Push sessions to this `interview serve` instead of interviewing them here.")
@click.option("--api-key", envvar="INTERVIEW_API_KEY", help="The server's key (push mode; kept "
              "in an env file of mode 0600).")
@click.option("--crontab-file", type=click.Path(dir_okay=False, path_type=Path),
              help="Keep the managed crontab line in this file instead of the `crontab` program's "
                   "table (a cron that reads a user file; tests).")
@click.option("--dry-run", is_flag=True, help="Print every change as a diff; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print what changed as JSON.")
def install(client, projects, lake, backend, interval, scheduler, server_url, api_key,
            crontab_file, dry_run, as_json):
    """Set this user up: session-end hooks, the SessionStart digest, the MCP server and a
    scheduled run, in each client's own config files.

    \b
    Claude Code  ~/.claude/settings.json  SessionEnd → interview hook, SessionStart → context
                 ~/.claude.json           mcpServers.trail-memories → interview mcp
    Cursor       ~/.cursor/hooks.json     sessionEnd → interview hook
                 ~/.cursor/mcp.json       mcpServers.trail-memories
    Codex        $CODEX_HOME/config.toml  notify → interview hook, [mcp_servers.trail-memories]
    Scheduler    a systemd user timer, a launchd agent (macOS), or a managed crontab line

    Each edited file is backed up first (~/.local/state/trail-interview/backups); installing
    twice changes nothing; `interview uninstall` gives every file back as it was.

    \b
    Examples:
      interview install all --projects 'my-repo*' --dry-run
      interview install claude-code --projects '*' --interval 1h
      interview install --projects '*' --server https://memories.example.org --api-key KEY
    """
    from jobs.agents.hook import current_python_command
    from jobs.install import installer, paths
    from jobs.install.clients import client_present

    chosen = list(CLIENT_CHOICES) if client == "all" else [client]
    projects = list(projects)
    if not projects and sys.stdin.isatty():
        answer = click.prompt("Projects to allow (globs, comma-separated; '*' for every one)",
                              default="", show_default=False)
        projects = [p.strip() for p in answer.split(",") if p.strip()]
    if client != "all" and not client_present(client, Path.home(), paths.codex_home()):
        click.echo(f"note: {client} has no config folder for this user yet", err=True)
    options = installer.InstallOptions(
        clients=chosen, projects=projects, program=current_python_command(),
        lake=str(Path(lake).expanduser().resolve()) if lake and "ducklake:" not in lake
        else lake or str(paths.data_dir() / "lake"),
        backend=backend, interval=interval, scheduler=scheduler, server=server_url,
        api_key=api_key, crontab_file=crontab_file.resolve() if crontab_file else None)
    plan = _guarded(lambda: installer.plan_install(options))
    changed = [c for c in plan.changes if c.changed]
    for note in plan.notes:
        click.echo(f"note: {note}", err=True)
    if dry_run:
        if as_json:
            click.echo(json.dumps({"scheduler": plan.scheduler, "changes": [
                {"target": c.target, "client": c.client, "diff": c.diff()} for c in changed],
                "enable": plan.enable, "notes": plan.notes}, indent=2))
            return
        for change in changed:
            click.echo(change.diff(), nl=False)
        click.echo(f"{len(changed)} change(s) (scheduler {plan.scheduler}); nothing written "
                   "(--dry-run)")
        return
    written = _guarded(lambda: installer.apply(plan, options))
    if as_json:
        click.echo(json.dumps({"scheduler": plan.scheduler, "written": [c.target for c in written],
                               "notes": plan.notes}, indent=2))
        return
    for change in written:
        click.echo(f"{'updated' if change.before is not None else 'created'} {change.target}")
    click.echo(f"{len(written)} change(s); scheduler {plan.scheduler} every {interval}"
               + ("" if written else " (already installed)")
               + "; `interview doctor` checks it all")


@click.command()
@click.option("--keep-env", is_flag=True, help="Keep the env file (server and key).")
@click.option("--json", "as_json", is_flag=True, help="Print what was restored as JSON.")
def uninstall(keep_env, as_json):
    """Remove what `interview install` added: each file it edited comes back byte for byte (a
    file you edited since keeps your edits; only our entries go), the scheduler is stopped.
    The lake and the logs stay."""
    from jobs.install import installer

    done = _guarded(lambda: installer.uninstall(keep_env=keep_env))
    if as_json:
        click.echo(json.dumps([vars(d) for d in done], indent=2))
        return
    for item in done:
        click.echo(f"{item.how.replace('_', ' ')}: {item.target}")
    click.echo(f"{len(done)} target(s) given back" if done else "nothing was installed")


@click.command()
@click.option("--lake", metavar="FOLDER|CATALOG",
              help="Lake to check (default: the installed one).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def doctor(ctx, lake, as_json):
    """Check this user's setup: the models (cached, hash-checked), the lake (readable, its
    catalog, the last run's age and counts), the installed hooks and scheduled run (and when
    they last ran, from their logs), the push server and its key, and the projects found but
    not allowed. Each problem comes with the command that fixes it; exit 1 if there is one.

    Reads the installed settings (~/.config/trail-interview/config.toml) unless --config."""
    from jobs.doctor import diagnose
    from jobs.install import paths

    if not (ctx.obj or {}).get("config") and paths.config_file().is_file():
        ctx.obj["config"] = paths.config_file()
    settings = _settings(ctx, lake=lake)
    report = diagnose(settings)
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        models = report["models"]
        click.echo("models   " + ", ".join(
            f"{name} {'ok' if m['hash_ok'] else 'missing' if m['path'] is None else 'BAD HASH'}"
            for name, m in models.items()))
        lake_state = report["lake"]
        run = lake_state["last_run"]
        click.echo(f"lake     {lake_state['where']} ({lake_state['catalog']}): "
                   + ("readable" if lake_state["readable"] else "not readable")
                   + (f"; last run {run['status']} {run['age_seconds'] / 3600:.1f} h ago "
                      f"{run['counts']}" if run else ""))
        hooks = report["hooks"]
        click.echo("hooks    " + (", ".join(f"{c} {'ok' if s['installed'] else 'MISSING'}"
                                            for c, s in hooks["clients"].items()) or "none")
                   + (f"; last call {hooks['last'].get('at')} {hooks['last'].get('outcome')}"
                      if hooks["last"] else ""))
        timer = report["scheduler"]
        click.echo(f"schedule {timer['backend'] or 'none'}"
                   + (f" every {timer['interval']}" if timer["interval"] else "")
                   + (f", installed, last ran {timer['last_ran'] or 'never'}"
                      if timer["installed"] else ""))
        server = report["server"]
        if server["url"]:
            click.echo(f"server   {server['url']}: "
                       + ("key accepted" if server["key_ok"] else "NOT OK"))
        projects = report["projects"]
        click.echo(f"projects {len(projects['not_allowed'])} found but not allowed; "
                   f"{projects['nodes']} nodes allowed")
        for problem in report["problems"]:
            click.echo(f"problem  {problem['check']}: {problem['detail']}\n  fix: {problem['fix']}")
        click.echo("all good" if report["ok"] else f"{len(report['problems'])} problem(s)")
    if not report["ok"]:
        sys.exit(1)


def _guarded(call):
    from ingest.errors import UsageError

    try:
        return call()
    except UsageError as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(2)


COMMANDS = (hook, install, uninstall, doctor)
