"""The library API behind the CLI: one function per command."""

from __future__ import annotations

from typing import Any

from ingest.discover import TrailRootError, discover_claude_code
from jobs.progress import ConsoleProgress, NullProgress
from jobs.settings import Settings, SettingsError


def user_errors() -> tuple[type[Exception], ...]:
    """Errors that carry a message for the user (not a traceback)."""
    from sinks.lake import LakeError
    from synth.backends import EngineDead, MissingDependency
    from synth.model_store import ModelMissing

    return (LakeError, TrailRootError, SettingsError, EngineDead, MissingDependency, ModelMissing)


def run_nodes(settings: Settings, *, console: bool = False, backend_factory=None, progress=None):
    from jobs.driver import Driver

    nodes = discover_claude_code(settings.roots)
    progress = progress or (ConsoleProgress() if console else NullProgress())
    with Driver(settings, progress=progress, backend_factory=backend_factory) as driver:
        return driver.run(nodes)


def submit_window(settings: Settings, body: Any, *, backend_factory=None):
    from jobs.driver import Driver

    with Driver(settings, backend_factory=backend_factory, kind="submit") as driver:
        return driver.submit(body)


def read_node_watermark(settings: Settings, node_id: str) -> dict:
    from sinks.lake import CATALOG_FILE, Lake
    from sinks.watermarks import read_watermark, watermark_doc_id

    missing = {"node_id": node_id, "tenant_id": settings.tenant_id, "last_seq": -1,
               "last_interview_at": None, "doc_id": watermark_doc_id(node_id)}
    if not (settings.lake / CATALOG_FILE).exists():
        return missing
    with Lake(settings.lake, create=False) as lake:
        document = read_watermark(lake.con, settings.tenant_id, node_id)
    if document is None:
        return missing
    return {**document, "doc_id": watermark_doc_id(node_id)}


def query_lake(settings: Settings, query: str) -> tuple[list[str], list[tuple]]:
    import duckdb

    from sinks.lake import Lake, LakeError

    with Lake(settings.lake, create=False) as lake:
        try:
            cursor = lake.con.execute(query)
        except duckdb.Error as error:
            raise LakeError(f"query failed: {error}") from None
        if cursor.description is None:
            return [], []
        columns = [column[0] for column in cursor.description]
        return columns, cursor.fetchall()
