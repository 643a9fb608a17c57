"""What the CLI's commands share: settings from flags, the error guard, common options and the
renderers of summaries and rows. No business logic: that is in `jobs.api` and the stages."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ingest.sources import all_sources, source_names
from synth.backends import backend_names

SAMPLES = Path(__file__).parent.parent / "samples"

EXIT_REJECTED = 2
EXIT_NOT_FOUND = 4


def _settings(ctx: click.Context, **flags):
    from ingest.errors import SettingsError
    from jobs.settings import load_settings

    flags.setdefault("lake_data", ctx.meta.get("lake_data"))
    try:
        settings = load_settings(ctx.obj.get("config"), **flags)
    except SettingsError as error:
        raise click.ClickException(str(error)) from None
    if ctx.meta.get("ray_address"):
        settings.ray.address = ctx.meta["ray_address"]
    return settings


def _into_context(key: str):
    """A callback keeping an option's value in `ctx.meta[key]`, where `_settings` reads it."""
    def keep(ctx, _param, value):
        if value is not None:
            ctx.meta[key] = value

    return keep


def _address_option(command):
    """--address: run on an existing Ray cluster."""
    return click.option(
        "--address", metavar="HOST:PORT", expose_value=False, callback=_into_context("ray_address"),
        help="Run on an existing Ray cluster (its GCS address, or 'auto' on one of its nodes); "
             "start the driver on a node that sees the trails: planning runs there, model "
             "actors anywhere. Default: a local Ray on loopback.")(command)


def _lake_option(command):
    """--lake and --lake-data (the data path reaches `_settings` through the context)."""
    command = click.option(
        "--lake-data", metavar="PATH", expose_value=False, callback=_into_context("lake_data"),
        help="Data path of a new Postgres-catalog lake: a folder every node reads, or "
             "s3://bucket/prefix (keys, endpoint and region from the AWS_* environment).")(command)
    return click.option(
        "--lake", metavar="FOLDER|CATALOG",
        help="Lake folder (default ./lake), or 'ducklake:postgres:dbname=... host=...' for a "
             "Postgres catalog (password from PGPASSWORD or ~/.pgpass).")(command)


_backend_option = click.option(
    "--backend", help=f"Model backend: {', '.join(backend_names())} (default embedded).")


def _roots_param(source) -> str:
    return source.cli_flag.lstrip("-").replace("-", "_")


def _source_options(command):
    """Where to look and what to allow: shared by run, backfill and status. The --source choices
    and one roots flag per source come from the source registry."""
    options = [
        click.option("--source", "sources", multiple=True, type=click.Choice(source_names()),
                     help=f"Read only this source (repeatable; default all: {', '.join(source_names())})."),
        *(click.option(source.cli_flag, _roots_param(source), multiple=True,
                       type=click.Path(file_okay=False), help=source.roots_help)
          for source in all_sources()),
        click.option("--projects", multiple=True, metavar="GLOB",
                     help="Allow projects matching GLOB (repeatable). Projects are denied by default."),
        click.option("--all-projects", is_flag=True, default=None, help="Allow every project."),
        click.option("--include-subagents", is_flag=True, default=None,
                     help="Interview Claude Code subagent transcripts as their own nodes."),
        click.option("--since-hours", type=click.FloatRange(min=0),
                     help="Only trails modified in the last N hours (0 = all; default 168)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _source_flags(sources, projects, all_projects, include_subagents, since_hours, **roots) -> dict:
    flags = dict(sources=list(sources) or None, projects=list(projects) or None,
                 all_projects=all_projects, include_subagents=include_subagents,
                 since_hours=since_hours)
    for source in all_sources():
        flags[source.settings_key] = list(roots[_roots_param(source)]) or None
    return flags


def _explicit_roots(source_flags: dict) -> set[str]:
    """The sources whose roots the user named on the command line: a missing one is an error."""
    return {source.name for source in all_sources() if source_flags[_roots_param(source)]}


# The shipped samples, per source (settings key → folders under jobs/samples).
DEMO_ROOTS = {
    "claude_code_roots": ["claude-code"],
    "cursor_roots": ["cursor/projects", "cursor/User"],
    "openclaw_roots": ["openclaw"],
    "codex_roots": ["codex"],
}


def _demo_flags() -> dict:
    roots = {key: [str(SAMPLES / folder) for folder in folders] for key, folders in DEMO_ROOTS.items()}
    return dict(**roots, all_projects=True, since_hours=0)


def _format_summary(summary, lake) -> str:
    lines = [
        f"run {summary.run_id} ({summary.backend}, model {summary.model}) in {summary.seconds:.1f}s",
        f"  nodes            {summary.nodes}",
        f"  windows          {summary.windows} committed, {summary.deferred} deferred "
        f"(dribble gate), {summary.retrying} to retry, {summary.parked} parked",
        f"  memories         {summary.memories_written} written, {summary.duplicates} duplicates, "
        f"{summary.item_errors} rejected",
        f"  model            {summary.chunks} chunks, {summary.model_seconds:.1f}s",
        f"  masked spans     {summary.masked_spans}; report timestamps dropped "
        f"{summary.timestamps_dropped}; instruction-like items dropped {summary.instructions_dropped}",
        f"  unsupported      {summary.unsupported_dropped} dropped (no evidence "
        f"{summary.dropped_no_evidence}, copied from the prompt {summary.dropped_prompt_copy}, "
        f"figures not in the events {summary.dropped_unsupported_figure}, words not in the events "
        f"{summary.dropped_unsupported_words}, opposite polarity {summary.dropped_polarity}, "
        f"figure with another subject {summary.dropped_figure_role}, change turned around "
        f"{summary.dropped_direction}, refuted hypothesis {summary.dropped_refuted}, "
        f"contradicted {summary.dropped_contradicted}, not addressed "
        f"{summary.dropped_not_addressed})",
    ]
    if summary.consolidated:
        links = summary.links
        lines.append(f"  consolidated     {summary.consolidated} memories: "
                     f"{links.get('duplicate', 0)} duplicates linked, {links.get('supersedes', 0)} "
                     f"superseded, {links.get('resolves', 0)} tasks closed")
    if summary.forgotten_dropped:
        lines.append(f"  forgotten        {summary.forgotten_dropped} items not written: their "
                     "events were forgotten (`interview forget`)")
    if summary.inbox_claimed or summary.inbox_parked or summary.inbox_already_done:
        lines.append(f"  inbox            {summary.inbox_claimed} pushed windows taken, "
                     f"{summary.inbox_parked} parked (out of attempts), "
                     f"{summary.inbox_already_done} already committed")
    if summary.skipped:
        lines.append("  skipped nodes    " + ", ".join(f"{v} {k}" for k, v in summary.skipped.items()))
    if summary.noise_lines or summary.bad_lines or summary.repaired_lines:
        repaired = (f", {summary.repaired_lines} repaired (not UTF-8: kept with U+FFFD)"
                    if summary.repaired_lines else "")
        lines.append(f"  lines read       {summary.noise_lines} noise (not conversation) and "
                     f"{summary.bad_lines} broken{repaired}, in {len(summary.lines_by_node)} "
                     "nodes (per node: --json lines_by_node)")
    if summary.rejects:
        lines.append(f"  bad input        {len(summary.rejects)} (first: {summary.rejects[0]['path']}:"
                     f"{summary.rejects[0]['line']}: {summary.rejects[0]['reason']})")
    lines.append(f"  lake             {lake}")
    return "\n".join(lines)


EXIT_STOPPED = 128 + 15  # halted by SIGTERM, as a shell reports a process it terminated


def _print_summary(summary, lake, as_json: bool) -> None:
    """A run's summary; a run halted by SIGTERM says so on stderr and exits 143."""
    if summary.stopped:
        import ray  # its processes go before the summary: nothing of theirs lands in --json

        if ray.is_initialized():
            ray.shutdown()
    click.echo(json.dumps(summary.to_json(), indent=2) if as_json else _format_summary(summary, lake))
    if summary.stopped:
        click.echo(f"stopped by SIGTERM: {summary.windows} windows committed, the run is recorded "
                   "`stopped`; rerun to continue from the watermarks", err=True)
        sys.exit(EXIT_STOPPED)


def _guard(call):
    """Run a library call; our errors become one clear message and exit 1. Exit 2, as the
    reference client: a missing allowlist, and a rejected window (its contract JSON on stderr)."""
    from ingest.errors import AllowlistRequired, InterviewError, NodeNotFound, SubmitRejected

    try:
        return call()
    except AllowlistRequired as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(EXIT_REJECTED)
    except NodeNotFound as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(EXIT_NOT_FOUND)
    except SubmitRejected as rejected:
        click.echo(json.dumps(rejected.to_json()), err=True)
        sys.exit(EXIT_REJECTED)
    except InterviewError as error:
        raise click.ClickException(str(error)) from None
    except Exception as error:
        from sinks.pg import catalog_lost

        if lost := catalog_lost(error):  # a read, outside any write transaction
            raise click.ClickException(str(lost)) from None
        raise


def _render(columns, rows, fmt) -> str:
    import csv
    import io

    if fmt == "json":
        return json.dumps([dict(zip(columns, row)) for row in rows], default=str, indent=2)
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(rows)
        return buffer.getvalue().rstrip("\n")
    cells = [[str(c) for c in columns]] + [["NULL" if v is None else str(v) for v in row] for row in rows]
    widths = [min(60, max(len(row[i]) for row in cells)) for i in range(len(columns))]
    out = []
    for n, row in enumerate(cells):
        out.append(" | ".join(cell[:60].ljust(widths[i]) for i, cell in enumerate(row)))
        if n == 0:
            out.append("-+-".join("-" * w for w in widths))
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out)

