"""`interview`: the command line. A thin shell: parse flags, build settings, call the library,
turn our errors into exit codes and one clear message. Heavy imports wait until a command runs.
The lake and model commands are in `jobs.cli.lake`; what commands share is in `jobs.cli.shared`."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import click

from jobs.cli import agents as cli_agents
from jobs.cli import install as cli_install
from jobs.cli import lake as cli_lake
from jobs.cli import memories as cli_memories
from jobs.cli import serve as cli_serve
from jobs.cli import ui as cli_ui
from jobs.cli.shared import (
    EXIT_NOT_FOUND,
    EXIT_REJECTED,
    _address_option,
    _backend_option,
    _demo_flags,
    _explicit_roots,
    _guard,
    _lake_option,
    _print_summary,
    _settings,
    _source_flags,
    _source_options,
)


def _setup_logging(verbose: int) -> None:
    level = logging.WARNING - 10 * verbose
    logging.basicConfig(level=max(level, logging.DEBUG), stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("interview.progress").setLevel(logging.INFO)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--config", type=click.Path(dir_okay=False, path_type=Path),
              envvar="INTERVIEW_CONFIG", help="TOML settings file (see configs/default.toml).")
@click.option("-v", "--verbose", count=True, help="More log lines on stderr (-vv for debug).")
@click.pass_context
def main(ctx: click.Context, config: Path | None, verbose: int) -> None:
    """Turn AI coding-agent trails into typed memories in a DuckLake.

    \b
    Quick start:
      interview run --demo                  interview the shipped sample trails
      interview sql "select memory_type, count(*) from memories group by 1"

    Settings come from --config (TOML), then INTERVIEW_* environment variables, then flags.
    """
    from jobs import faults

    ctx.ensure_object(dict)
    ctx.obj["config"] = config
    _setup_logging(verbose)
    faults.arm_from_environment()


@main.command()
@click.option("--demo", is_flag=True, help="Interview the sample trails shipped with the package.")
@_source_options
@_lake_option
@_address_option
@_backend_option
@click.option("--tenant", "tenant_id", help="Tenant the memories belong to (default local).")
@click.option("--max-windows", type=click.IntRange(min=1), help="Windows per run, all nodes (default 8).")
@click.option("--max-windows-per-node", type=click.IntRange(min=1),
              help="Windows per node per run (default: what fits --max-windows).")
@click.option("--node", "node", metavar="GLOB|PATH",
              help="Only the node whose id matches GLOB, or whose trail is the file PATH "
                   "(a SessionEnd hook passes the transcript it just closed).")
@click.option("--flush", is_flag=True, default=None, help="Interview small tails too.")
@click.option("--replay", is_flag=True, default=None,
              help="Read nodes from line 0, not the watermark: committed windows come back as "
                   "duplicates, without a model call. --demo implies it.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_context
def run(ctx, demo, lake, backend, tenant_id, max_windows, max_windows_per_node, node, flush, replay,
        as_json, **source_flags):
    """Interview the new activity of every node under the trail roots.

    Each node (a session file, a Cursor conversation, the OpenClaw buffer or task trail) is read
    from its watermark, cut into windows, masked, and interviewed by the model; each window's
    memories, ledger row and watermark are committed together. Rerunning is always safe:
    committed windows are never written twice.

    \b
    Examples:
      interview run --demo
      interview run --projects 'my-repo*' --max-windows 20
      interview run --source cursor --all-projects --since-hours 0
      interview run --all-projects --node ~/.claude/projects/-my-repo/SESSION.jsonl --flush
    """
    flags = dict(lake=lake, backend=backend, tenant_id=tenant_id, max_windows=max_windows,
                 max_windows_per_node=max_windows_per_node, flush=flush, replay=replay,
                 **_source_flags(**source_flags))
    if demo:
        # The samples never change: replaying them shows a rerun resolving as duplicates.
        flags.update(_demo_flags())
        flags["flush"] = True if flush is None else flush
        flags["replay"] = True if replay is None else replay
        # Under 2 minutes on 2 cores (bench/demo.py): one small window per source, and one short
        # item per section from the embedded model (it writes ~40 tokens/s; its second items were
        # mostly dropped as unsupported).
        flags["max_windows"] = max_windows or 4
        flags["max_window_chars"] = 4000
    settings = _settings(ctx, **flags)
    if demo:
        settings.llamacpp.max_items, settings.llamacpp.max_item_chars = 1, 120
    from jobs.api import run_nodes, run_tenants
    from jobs.summary import tenant_counts

    if settings.tenants and not demo:
        if source_flags.get("projects") or source_flags.get("all_projects"):
            click.echo("note: with [tenants.*] in the config, each tenant reads the projects its "
                       "own allowlist names (tenants.NAME.projects or all_projects); --projects "
                       "and --all-projects are not applied to them", err=True)
        results = _guard(lambda: run_tenants(settings, console=not as_json))
        counts = {name: tenant_counts(s) if s else {"enabled": False} for name, s in results.items()}
        if as_json:
            click.echo(json.dumps(counts, indent=2))
        else:
            for name, values in counts.items():
                click.echo(f"tenant {name}: " + " ".join(f"{k}={v}" for k, v in values.items()))
        return
    explicit = _explicit_roots(source_flags)
    summary = _guard(lambda: run_nodes(settings, console=not as_json, explicit_roots=explicit,
                                       node=node))
    _print_summary(summary, settings.lake_location.describe(), as_json)


@main.command()
@_source_options
@_lake_option
@_address_option
@_backend_option
@click.option("--tenant", "tenant_id", help="Tenant the memories belong to (default local).")
@click.option("--node", "node_glob", default="*", show_default=True, metavar="GLOB",
              help="Only nodes whose id matches GLOB (e.g. 'cc:*:4d5611e5*').")
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), help="Only trails modified on or after DATE.")
@click.option("--until", type=click.DateTime(["%Y-%m-%d"]), help="Only trails modified before DATE.")
@click.option("--max-windows", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Windows this backfill interviews at most.")
@click.option("--dry-run", is_flag=True, help="Print the plan (nodes, windows, characters, tokens); no model.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary or plan as JSON.")
@click.pass_context
def backfill(ctx, lake, backend, tenant_id, node_glob, since, until, max_windows, dry_run, as_json,
             **source_flags):
    """Interview old trails from each node's watermark, whatever their dueness.

    Claude Code deletes transcripts after 30 days by default: backfill early. Stop it at any
    moment (Ctrl-C, kill) and start it again: committed windows are never redone.

    \b
    Examples:
      interview backfill --all-projects --dry-run
      interview backfill --source claude-code --projects 'my-repo*' --since 2026-10-01
    """
    from datetime import UTC

    from jobs.api import backfill as run_backfill

    flags = _source_flags(**source_flags)
    flags["since_hours"] = flags["since_hours"] if flags["since_hours"] is not None else 0
    settings = _settings(ctx, lake=lake, backend=backend, tenant_id=tenant_id, max_windows=max_windows,
                         flush=True, **flags)
    since = since.replace(tzinfo=UTC) if since else None
    until = until.replace(tzinfo=UTC) if until else None
    result = _guard(lambda: run_backfill(settings, node_glob=node_glob, since=since, until=until,
                                         dry_run=dry_run, console=not as_json))
    if dry_run:
        if as_json:
            click.echo(json.dumps(result, indent=2))
        else:
            click.echo(f"plan: {result['nodes_with_work']} of {result['nodes']} nodes have work; "
                       f"{result['windows']} windows, {result['events']} events, {result['chars']:,} chars, "
                       f"~{result['estimated_prompt_tokens']:,} prompt tokens")
            for node in result["per_node"][:50]:
                click.echo(f"  {node['node_id']}: {node['windows']} windows from seq {node['from']}, "
                           f"{node['chars']:,} chars")
        return
    _print_summary(result, settings.lake_location.describe(), as_json)


@main.command()
@_source_options
@_lake_option
@click.option("--tenant", "tenant_id", help="Tenant (default local).")
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@click.pass_context
def status(ctx, lake, tenant_id, as_json, **source_flags):
    """List nodes per source with lines, cursor and pending, the inbox of pushed windows, parked
    windows and recent runs."""
    from jobs.status import node_status

    settings = _settings(ctx, lake=lake, tenant_id=tenant_id, **_source_flags(**source_flags))
    report = _guard(lambda: node_status(settings))
    if as_json:
        click.echo(json.dumps(report, indent=2, default=str))
        return
    for source, nodes in report["sources"].items():
        click.echo(f"{source}: {len(nodes)} nodes, {sum(n['pending'] for n in nodes)} pending")
        for node in nodes:
            click.echo(f"  {node['project']}/{node['name']}: lines={node['lines']} "
                       f"cursor={node['cursor']} pending={node['pending']}"
                       + (f" noise={node['noise']}" if node["noise"] else "")
                       + (f"  [{node['note']}]" if node.get("note") else ""))
    if report["inbox"]:
        counts = report["inbox"]
        click.echo("inbox (pushed windows): " + ", ".join(
            f"{counts[status]} {status}" for status in sorted(counts))
            + ("; `interview run` interviews the pending ones" if counts.get("pending") else ""))
    if report["parked"]:
        click.echo(f"parked windows: {len(report['parked'])} (re-queue with `interview retry`)")
        for item in report["parked"]:
            click.echo(f"  {item['node_id']} {item['cursor_from']}..{item['cursor_to']} "
                       f"{item['status']} after {item['attempts']} attempts: {item['reason']}")
    for run in report["runs"]:
        click.echo(f"run {run['run_id']} {run['kind']} {run['status']} {run['started_at']}")
    if report["denied_projects"]:
        click.echo(f"projects not allowed, not read: {len(report['denied_projects'])} "
                   "(allow them with --projects GLOB or --all-projects)")
        for project in report["denied_projects"][:50]:
            click.echo(f"  {project}")
    if report["rejects"]:
        click.echo(f"skipped paths: {len(report['rejects'])}")
        for reject in report["rejects"]:
            click.echo(f"  {reject['path']}: {reject['reason']}")


@main.command()
@click.option("--node", "node_glob", default="*", show_default=True, metavar="GLOB",
              help="Only windows of nodes matching GLOB.")
@_lake_option
@click.option("--tenant", "tenant_id", help="Tenant (default local).")
@click.pass_context
def retry(ctx, node_glob, lake, tenant_id):
    """Re-queue parked windows (and parked pushed windows, contract §2.10) with a fresh retry
    budget; the next `interview run` takes them."""
    from jobs.api import retry_parked

    settings = _settings(ctx, lake=lake, tenant_id=tenant_id)
    requeued = _guard(lambda: retry_parked(settings, node_glob))
    for node, start, end in requeued:
        click.echo(f"re-queued {node} {start}..{end}")
    click.echo(f"{len(requeued)} parked window(s) re-queued")


@main.command()
@click.argument("window_file", type=click.File("rb"))
@_lake_option
@_backend_option
@click.option("--tenant", "tenant_id", help="Tenant when the body has none (default local).")
@click.pass_context
def submit(ctx, window_file, lake, backend, tenant_id):
    """Interview one window given as the JSON submit body (use - for stdin).

    Prints {status, watermark, memories_written, errors}. A window the contract rejects prints
    {"status_code": 422, "detail": ...} to stderr, exits 2, and writes nothing.
    """
    from jobs.api import submit_window

    settings = _settings(ctx, lake=lake, backend=backend, tenant_id=tenant_id)
    raw = window_file.read()
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        click.echo(json.dumps({"status_code": 422, "detail": f"body is not JSON: {error}"}), err=True)
        sys.exit(EXIT_REJECTED)
    result = _guard(lambda: submit_window(settings, body))
    click.echo(json.dumps(result.to_json()))


@main.command()
@click.argument("node_id")
@_lake_option
@click.option("--tenant", "tenant_id", help="Tenant of the node (default local).")
@click.pass_context
def watermark(ctx, node_id, lake, tenant_id):
    """Print a node's watermark document as JSON (exit 4, last_seq -1, if never interviewed)."""
    from jobs.api import read_node_watermark

    settings = _settings(ctx, lake=lake, tenant_id=tenant_id)
    document = _guard(lambda: read_node_watermark(settings, node_id))
    click.echo(json.dumps(document))
    if document["last_seq"] < 0:
        sys.exit(EXIT_NOT_FOUND)



for command in (cli_lake.COMMANDS + cli_serve.COMMANDS + cli_agents.COMMANDS + cli_ui.COMMANDS
                + cli_memories.COMMANDS + cli_install.COMMANDS):
    main.add_command(command)
