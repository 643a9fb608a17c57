"""The commands that keep memories current: `interview consolidate` (duplicates, superseded
decisions, closed tasks, over a lake filled before, or by runs with consolidation off).
Registered on `interview` by `jobs.cli`."""

from __future__ import annotations

import json

import click

from jobs.cli.shared import _backend_option, _guard, _lake_option, _settings


@click.command()
@click.option("--project", "project_glob", default="*", show_default=True, metavar="GLOB",
              help="Only the projects whose name matches GLOB (as `nodes.project` names them).")
@_lake_option
@_backend_option
@click.option("--tenant", "tenant_id", help="Tenant whose memories to consolidate (default local).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def consolidate(ctx, project_glob, lake, backend, tenant_id, as_json):
    """Link the memories no consolidation has looked at to their project's: a restated
    statement becomes a duplicate of one canonical memory, a later decision or preference on the
    same subject supersedes the earlier one (which gets its ts_valid_end), an outcome closes the
    task it resolves. `current_memories` then holds what is true now; recall, MCP and
    `interview context` read it.

    Runs after every `interview run` on its own; this is for a backfilled lake. Deterministic and
    idempotent: a second call writes nothing, and a killed one is rerun. With --backend openai or
    vllm the model decides each candidate pair; otherwise rules and the embedder do.

    \b
    Examples:
      interview consolidate
      interview consolidate --project 'api*' --json
    """
    from jobs.consolidation import consolidate_now

    settings = _settings(ctx, lake=lake, tenant_id=tenant_id, backend=backend)
    result = _guard(lambda: consolidate_now(settings, project_glob=project_glob))
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
        return
    links = result.links
    click.echo(f"consolidated {result.looked_at} memories of {result.projects} projects in "
               f"{result.seconds:.1f}s ({result.judge}): {links.get('duplicate', 0)} duplicates "
               f"linked, {links.get('supersedes', 0)} superseded, {links.get('resolves', 0)} "
               f"tasks closed, {links.get('distinct', 0)} kept as they are")


COMMANDS = (consolidate,)
