"""The lake as `interview ui` reads it: one read-only connection in the query sandbox (no file
access outside the lake), one query at a time, opened at start-up so a missing lake is an error
before the page is served. Every read is a `sinks` function; a memory's evidence and forgetting
are the library calls `interview show` and `interview forget` make (`jobs.api`).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import threading

from jobs.settings import Settings


class UiReader:
    def __init__(self, settings: Settings) -> None:
        from sinks.lake import Lake
        from sinks.memory_browse import BrowseCache
        from sinks.query import sandbox
        from sinks.recall import RecallIndex
        from synth.embeddings import EMBEDDING_MODEL

        self.settings = settings
        self._lock = threading.Lock()
        self._lake = Lake(settings.lake_location, create=False)
        # The sandbox's spill folder: private and empty, removed when the reader closes.
        self._scratch = tempfile.mkdtemp(prefix="interview-ui-")
        atexit.register(shutil.rmtree, self._scratch, ignore_errors=True)
        sandbox(self._lake.con, self._lake.readable, self._scratch)
        self.index = RecallIndex(EMBEDDING_MODEL)  # both built again only when the lake changes
        self.browse = BrowseCache()
        self.where = self._lake.where

    def read(self, query, *args, **kwargs):
        """`query(con, *args, **kwargs)` on the one connection."""
        with self._lock:
            return query(self._lake.con, *args, **kwargs)

    def projects(self, tenant: str) -> list[dict]:
        from sinks.memory_browse import projects

        return self.read(lambda con: projects(self.browse.connection(con, tenant)))

    def project(self, tenant: str, where, *, limit: int, offset: int) -> dict:
        from sinks.memory_browse import memories_per_day, project_memories

        def both(con):
            scratch = self.browse.connection(con, tenant)
            rows, total = project_memories(scratch, where, limit=limit, offset=offset)
            return {"rows": rows, "total": total, "per_day": memories_per_day(scratch, where)}

        return self.read(both)

    def search(self, tenant: str, text: str, *, types=(), since=None, until=None, k: int = 20):
        """The hybrid recall of `interview recall` (BM25 fused with embedding similarity)."""
        from sinks.recall import RecallFilter, search

        vector = None
        options = self.settings.embeddings
        if options.enabled:
            from synth.embeddings import shared_embedder

            vector = shared_embedder(options.threads, options.batch_size).embed([text])[0]
        where = RecallFilter(tenant, tuple(types), since, until)
        return self.read(search, text, vector, where, model=self.index.model, k=k,
                         index=self.index)

    def operations(self, tenant: str, *, runs: bool) -> dict:
        from sinks.inbox import inbox_counts, parked_jobs
        from sinks.operations import last_runs, node_overview
        from sinks.parked import open_failures

        def gather(con):
            return {"nodes": node_overview(con, tenant), "inbox": inbox_counts(con, tenant),
                    "parked": open_failures(con, tenant) + parked_jobs(con, tenant),
                    "runs": last_runs(con) if runs else None}

        return self.read(gather)

    def memory(self, tenant: str, memory_id: str) -> dict:
        """A memory with its evidence events (masked) and their FILE:LINE, as `interview show`,
        and the memories around it (its session, else its node)."""
        from jobs.api import memory_with_evidence
        from sinks.memory_browse import neighbours

        def both(con):
            record = memory_with_evidence(con, tenant, memory_id)
            record["around"] = neighbours(self.browse.connection(con, tenant), memory_id)
            return record

        return self.read(both)

    def forget(self, tenant: str, selector, *, yes: bool):
        """`interview forget` without --purge: a preview (on the reader's connection), or the
        forget itself (it takes the lake's writer lock: refused while a run writes)."""
        from jobs.api import forget
        from sinks.forget import preview_forget

        if not yes:
            selector.check()
            return self.read(preview_forget, tenant, selector)
        return forget(self._for(tenant), selector, yes=True)[0]

    def _for(self, tenant: str) -> Settings:
        return self.settings.model_copy(update={"tenant_id": tenant})

    def close(self) -> None:
        with self._lock:
            self.index.close()
            self.browse.close()
            self._lake.close()
        shutil.rmtree(self._scratch, ignore_errors=True)
