"""The library API behind the CLI: one function per command."""

from __future__ import annotations

import logging
from typing import Any

from ingest.discover import discover
from ingest.errors import AllowlistRequired, NodeNotFound, UnreadableTrail, UsageError
from ingest.nodes import Allowlist, Discovery
from jobs.progress import ConsoleProgress, NullProgress
from jobs.settings import Settings

log = logging.getLogger(__name__)

def discover_nodes(settings: Settings, *, explicit_roots: set[str] = frozenset(),
                   pushed: bool = False) -> Discovery:
    """The nodes this run may read. Projects are denied until allowed (`--projects GLOB` or
    `--all-projects`), as in the reference client. `pushed`: the lake holds pushed windows, so
    a machine with no project allowed (a server's) still has work: no error, no nodes."""
    allow = Allowlist(tuple(settings.projects), settings.all_projects)
    found = discover(settings.roots(), allow, include_subagents=settings.include_subagents,
                     since_hours=settings.since_hours, explicit=explicit_roots)
    if allow.empty and not pushed:
        listed = "\n".join(f"  {source}: {project}" for source, project in sorted(found.denied_projects))
        raise AllowlistRequired(
            "no project is allowed yet: pass --projects GLOB (repeatable) or --all-projects.\n"
            + (f"Projects found:\n{listed}" if listed else "No projects were found under the roots.")
        )
    return found


def run_nodes(settings: Settings, *, console: bool = False, backend_factory=None, progress=None,
              explicit_roots: set[str] = frozenset(), now=None, period_hours: int | None = None, kind="run",
              node: str | None = None, require_allowlist: bool = True):
    """`node`: only the nodes whose id matches this glob, or whose trail is this file.
    `require_allowlist` False (a configured tenant's nightly run): no project allowed means no
    trail is read, only the tenant's inbox; never the "no project is allowed" refusal."""
    from jobs.driver import Driver

    no_project = Allowlist(tuple(settings.projects), settings.all_projects).empty
    pushed = node is None and no_project and (not require_allowlist
                                              or bool(inbox_waiting(settings)))
    found = discover_nodes(settings, explicit_roots=explicit_roots, pushed=pushed)
    if no_project and found.denied_projects and not require_allowlist:
        log.warning("tenant %s: no project is allowed (tenants.%s.projects or all_projects in the "
                    "config), so %d project(s) under its roots were not read: %s",
                    settings.tenant_id, settings.tenant_id, len(found.denied_projects),
                    ", ".join(sorted(f"{s}: {p}" for s, p in found.denied_projects)[:5]))
    if node is not None:
        chosen = matching_nodes(found.nodes, node)
        if not chosen:
            raise NodeNotFound(
                f"no node matches --node {node} ({len(found.nodes)} nodes under the allowed "
                "projects; `interview status` lists them, `--projects` / `--all-projects` allow more)")
        found.nodes = chosen
    progress = progress or (ConsoleProgress() if console else NullProgress())
    with Driver(settings, progress=progress, backend_factory=backend_factory, now=now,
                period_hours=period_hours, kind=kind) as driver:
        for reject in found.rejects:
            driver.reject(reject)
        return driver.run(found.nodes)


def inbox_waiting(settings: Settings) -> int:
    """Pushed windows of this tenant not interviewed yet (0 when there is no lake)."""
    from sinks.inbox import inbox_counts
    from sinks.lake import Lake

    if not settings.inbox_jobs_per_run or not settings.lake_location.exists():
        return 0
    with Lake(settings.lake_location, create=False) as lake:
        counts = inbox_counts(lake.con, settings.tenant_id)
    return counts.get("pending", 0) + counts.get("processing", 0)


def submit_window(settings: Settings, body: Any, *, backend_factory=None):
    """One window body through the submit contract; a rejected body writes nothing, and does not
    even create the lake."""
    from ingest.validate import validate_submit
    from jobs.driver import Driver
    from jobs.node_plan import mask_window

    mask_window(validate_submit(body, default_tenant=settings.tenant_id,
                                enabled_tenants=settings.enabled_tenant_ids()))
    with Driver(settings, backend_factory=backend_factory, kind="submit") as driver:
        return driver.submit(body)


def read_node_watermark(settings: Settings, node_id: str) -> dict:
    from sinks.lake import Lake
    from sinks.watermarks import read_watermark, watermark_doc_id

    missing = {"node_id": node_id, "tenant_id": settings.tenant_id, "last_seq": -1,
               "last_interview_at": None, "doc_id": watermark_doc_id(node_id)}
    if not settings.lake_location.exists():
        return missing
    with Lake(settings.lake_location, create=False) as lake:
        document = read_watermark(lake.con, settings.tenant_id, node_id)
    if document is None:
        return missing
    return {**document, "doc_id": watermark_doc_id(node_id)}


def query_lake(settings: Settings, query: str, *, allow_files: bool = False,
               max_rows: int | None = None, timeout: float | None = None,
               memory_limit: str | None = None):
    """One read statement over the lake, in the sandbox of `sinks.query`: its first `max_rows`
    rows (a `QueryResult`; `more` says rows were left out), stopped after `timeout` seconds."""
    import tempfile

    from sinks import query as sql
    from sinks.lake import Lake

    sql.check_read_only(query)  # refused before the lake is even opened
    with (tempfile.TemporaryDirectory(prefix="interview-sql-") as scratch,
          Lake(settings.lake_location, create=False) as lake):
        sql.sandbox(lake.con, lake.readable, scratch, allow_files=allow_files,
                    memory_limit=memory_limit or sql.DEFAULT_MEMORY_LIMIT)
        return sql.run_query(lake.con, query, max_rows=max_rows or sql.DEFAULT_MAX_ROWS,
                             timeout=timeout or sql.DEFAULT_TIMEOUT)


def retry_parked(settings: Settings, node_glob: str = "*") -> list[tuple[str, int, int]]:
    """Re-queue parked windows and parked inbox jobs (all, or of nodes matching a glob)."""
    from sinks.inbox import requeue_failed_jobs
    from sinks.lake import Lake
    from sinks.parked import requeue_parked

    with Lake(settings.lake_location, writer=True, create=False) as lake:
        return (requeue_parked(lake.con, settings.tenant_id, node_glob)
                + requeue_failed_jobs(lake.con, settings.tenant_id, node_glob))


def compact_lake(settings: Settings, keep_hours: float = 24.0):
    from jobs import faults
    from sinks.lake import Lake
    from sinks.maintenance import compact

    with Lake(settings.lake_location, writer=True, create=False) as lake:
        return compact(lake, keep_hours=keep_hours, grace_seconds=settings.merged_files_grace_seconds,
                       crash_hook=faults.crash_point)


def recall(settings: Settings, text: str, *, types=(), since=None, until=None, k: int = 10,
           history: bool = False):
    """The tenant's current memories (`history`: all of them) that best match `text` (BM25
    fused with embedding similarity)."""
    if not text.strip():
        raise UsageError("the recall query is empty: give the words or the question to search for")
    from sinks.lake import Lake
    from sinks.recall import RecallFilter, search
    from synth.embeddings import EMBEDDING_MODEL, shared_embedder

    options = settings.embeddings
    vector = None
    if options.enabled:
        vector = shared_embedder(options.threads, options.batch_size).embed([text])[0]
    where = RecallFilter(settings.tenant_id, tuple(types), since, until, history=history)
    with Lake(settings.lake_location, create=False) as lake:
        return search(lake.con, text, vector, where, model=EMBEDDING_MODEL, k=k)


def embed_memories(settings: Settings, *, all_tenants: bool = False, limit: int | None = None,
                   console: bool = False):
    """Embed the memories that have no embedding for the current model (a backfill)."""
    from jobs import faults
    from sinks.lake import Lake
    from sinks.vectors import EmbedResult, count_missing, embed_missing
    from synth.embeddings import EMBEDDING_MODEL, shared_embedder

    options = settings.embeddings
    tenant = None if all_tenants else settings.tenant_id
    progress = ConsoleProgress(unit="memories embedded") if console else NullProgress()
    with Lake(settings.lake_location, writer=True, create=False) as lake:
        todo = count_missing(lake.con, EMBEDDING_MODEL, tenant)
        if not todo:
            return EmbedResult()
        progress.planned(0, todo if limit is None else min(todo, limit))
        try:
            return embed_missing(lake.con, shared_embedder(options.threads, options.batch_size),
                                 tenant_id=tenant, limit=limit, batch_size=options.batch_size,
                                 on_batch=progress.advance,
                                 crash_hook=faults.crash_point)
        finally:
            progress.close()


def forget(settings: Settings, selector, *, yes: bool = False, purge: bool = False):
    """Forget the tenant's memories `selector` picks: a preview unless `yes`; `purge` then makes
    them unrecoverable from the lake folder. Returns (ForgetResult, PurgeResult or None)."""
    from sinks.forget import forget_memories, preview_forget, purge_lake
    from sinks.lake import Lake

    selector.check()
    if not yes:
        with Lake(settings.lake_location, create=False) as lake:
            return preview_forget(lake.con, settings.tenant_id, selector), None
    with Lake(settings.lake_location, writer=True, create=False) as lake:
        result = forget_memories(lake.con, settings.tenant_id, selector, purge=purge)
        return result, purge_lake(lake, settings.merged_files_grace_seconds) if purge else None


def show_memory(settings: Settings, memory_id: str) -> dict:
    """One memory with its evidence: the events it cites (masked) and where each is in its trail
    (file and line, database and row) or in the inbox of pushed windows."""
    from sinks.lake import Lake

    with Lake(settings.lake_location, create=False) as lake:
        return memory_with_evidence(lake.con, settings.tenant_id, memory_id)


def memory_with_evidence(con, tenant_id: str, memory_id: str) -> dict:
    """`show_memory` on an open lake connection (`interview ui` keeps one)."""
    from ingest.nodes import NodeRef
    from ingest.sources import read_node
    from sinks.inbox import job_events
    from sinks.links import memory_chain
    from sinks.memory_read import memory_records
    from synth.masking import mask_text

    found = memory_records(con, tenant_id, [memory_id])
    if not found:
        raise NodeNotFound(f"no memory {memory_id} for tenant {tenant_id} (ids are in "
                           "`interview recall --json` and the memories table)")
    record = found[0]
    record["chain"] = memory_chain(con, tenant_id, memory_id)
    pushed = job_events(con, tenant_id, record["attempt_id"])
    seqs = list(record["evidence_seqs"] or [])
    record["evidence"] = []
    if not seqs:
        record["evidence_note"] = "written before evidence was recorded, or without a model"
        return record
    if pushed:
        events, where = pushed, "pushed window (inbox)"
    elif record["path"]:
        source, path = record["source"], record["path"]
        key = None if path.endswith(".jsonl") else record["node_id"].split(":", 2)[-1]
        node = NodeRef(source, record["node_id"], path, record["project"] or "", key=key)
        try:
            events, where = read_node(node, min(seqs))[0].events, path
        except (OSError, UnreadableTrail) as error:
            record["evidence_note"] = f"cannot read {path}: {getattr(error, 'strerror', None) or error}"
            return record
    else:
        record["evidence_note"] = "the node's trail is not known to this lake"
        return record
    line_based = where.endswith(".jsonl")
    for event in events:
        if event.seq in seqs:
            record["evidence"].append({
                "seq": event.seq, "ts": event.ts, "role": event.role, "kind": event.kind,
                "content": mask_text(event.content)[0],
                "where": f"{where}:{event.seq + 1}" if line_based else f"{where} (seq {event.seq})"})
    missing = set(seqs) - {item["seq"] for item in record["evidence"]}
    if missing:
        record["evidence_note"] = f"seqs {sorted(missing)} are no longer events of the trail"
    return record


def describe_lake(settings: Settings) -> dict:
    from sinks.lake import Lake
    from sinks.maintenance import lake_info

    with Lake(settings.lake_location, create=False) as lake:
        return lake_info(lake)


def run_tenants(settings: Settings, *, now=None, console: bool = False, backend_factory=None) -> dict:
    """The nightly run: for each enabled tenant, its due nodes only (contract §2.11). Tenants
    never mix: each runs with its own id, roots and allowlist, one after the other."""
    results = {}
    for name, tenant in sorted(settings.tenants.items()):
        if not tenant.interviewer.enabled:
            results[name] = None
            continue
        # A tenant with no allowlist (a fleet server's: its windows are pushed) drains its inbox.
        results[name] = run_nodes(settings.for_tenant(name), console=console, now=now,
                                  backend_factory=backend_factory,
                                  period_hours=tenant.interviewer.period_hours, kind="nightly",
                                  require_allowlist=False)
    return results


def matching_nodes(nodes: list, selector: str) -> list:
    """Nodes whose id matches the glob `selector`, or whose trail file is the path `selector`."""
    import fnmatch
    import os

    if os.path.exists(selector):
        target = os.path.realpath(selector)
        return [n for n in nodes if os.path.realpath(n.path) == target]
    return [n for n in nodes if fnmatch.fnmatchcase(n.node_id, selector)]


def select_nodes(found: Discovery, node_glob: str = "*", since=None, until=None) -> list:
    """Backfill's node filter: node id glob, and trail modification time within [since, until]."""
    import fnmatch
    import os

    chosen = []
    for node in found.nodes:
        if not fnmatch.fnmatchcase(node.node_id, node_glob):
            continue
        try:
            mtime = os.stat(node.path).st_mtime
        except OSError:
            continue
        if since is not None and mtime < since.timestamp():
            continue
        if until is not None and mtime >= until.timestamp():
            continue
        chosen.append(node)
    return chosen


def backfill(settings: Settings, *, node_glob: str = "*", since=None, until=None, dry_run: bool = False,
             console: bool = False, backend_factory=None):
    """Walk old trails from each node's watermark, dueness ignored; stop and restart at will.
    `dry_run`: the plan only (nodes, windows, characters, estimated tokens), no model, no write."""
    from jobs.driver import Driver

    found = discover_nodes(settings)
    nodes = select_nodes(found, node_glob, since, until)
    if dry_run:
        return dry_run_plan(settings, nodes)
    progress = ConsoleProgress() if console else NullProgress()
    with Driver(settings, progress=progress, backend_factory=backend_factory, kind="backfill") as driver:
        for reject in found.rejects:
            driver.reject(reject)
        return driver.run(nodes)


def dry_run_plan(settings: Settings, nodes: list) -> dict:
    """What a run over `nodes` would interview, from the same `plan_run` the run uses."""
    from jobs.planning import plan_run
    from sinks.lake import Lake

    if settings.lake_location.exists():
        with Lake(settings.lake_location, create=False) as lake:
            plan = plan_run(settings, nodes, lake.con)
    else:
        plan = plan_run(settings, nodes, None)
    heads = [head for node_plan in plan.plans for head in node_plan.heads]
    chars = sum(head.chars for head in heads)
    return {"nodes": len(plan.plans), "nodes_with_work": sum(1 for p in plan.plans if p.heads),
            "windows": len(heads), "events": sum(head.events for head in heads), "chars": chars,
            "estimated_prompt_tokens": round(chars / 3.5),
            "attempts": [head.attempt_id for head in heads],
            "per_node": [{"node_id": p.node.node_id, "windows": len(p.heads), "from": p.last_seq + 1,
                          "chars": sum(h.chars for h in p.heads)} for p in plan.plans if p.heads]}


def session_digest(settings: Settings, project: str, *, max_chars: int = 4000,
                   days: float | None = None, history: bool = False) -> str:
    """`interview context`: the project's recent current decisions, open blockers and
    preferences (`history`: superseded and closed ones too), newest first, within `max_chars`;
    empty when the lake or the project has none."""
    from datetime import UTC, datetime, timedelta

    from jobs.agents.context import SECTIONS, project_globs, render_digest
    from sinks.lake import Lake
    from sinks.memory_read import recent_for_projects

    if not settings.lake_location.exists():
        return ""
    since = datetime.now(UTC) - timedelta(days=days) if days else None
    with Lake(settings.lake_location, create=False) as lake:
        rows = recent_for_projects(lake.con, settings.tenant_id, project_globs(project),
                                   tuple(kind for kind, _ in SECTIONS), since, history=history)
    return render_digest(rows, project, max_chars)
