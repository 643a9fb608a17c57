"""The capture sources: the registry (`ingest.sources.registry`) and the built-in sources, which
register themselves as this package loads; their order is the order of discovery and --source."""

from ingest.sources import claude_code, codex, cursor, openclaw  # noqa: F401
from ingest.sources.registry import (
    Reader,
    Source,
    all_sources,
    get_source,
    jsonl_size,
    node_size,
    read_node,
    register_source,
    source_names,
)

__all__ = ["Reader", "Source", "all_sources", "get_source", "jsonl_size", "node_size", "read_node",
           "register_source", "source_names"]
