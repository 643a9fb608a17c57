"""The source registry: one record per capture source, and the reads that dispatch on it.

A source is one module under `ingest/sources/` that registers a `Source`: its name (`--source`),
node id prefix, settings key for its roots, default roots, how to find its nodes under a root, and
how to read a node from a seq (parsed events, and the node's size in seq units, which the planner
compares with the watermark to notice a trail that shrank). Settings fields, CLI flags, discovery
and reading all come from this registry; adding a source is adding a module (imported by
`ingest/sources/__init__.py`, which is where the rest of the code reads the registry from).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ingest.events import ParsedTrail
from ingest.lines import count_complete_lines, read_trail_bytes
from ingest.nodes import Allowlist, DiscoverOptions, Discovery, NodeRef, ReadOptions

# (node, first seq, options, per-run cache of shared files) → (parsed trail, size in seq units)
Reader = Callable[[NodeRef, int, ReadOptions, dict], tuple[ParsedTrail, int]]


@dataclass(frozen=True)
class Source:
    name: str  # as in --source and the nodes table
    prefix: str  # node ids are "<prefix>:<machine12>:<stem>"
    settings_key: str  # the settings field (and TOML key) listing its roots
    cli_flag: str  # the flag that names its roots
    roots_help: str
    default_roots: Callable[[], list[str]]
    discover: Callable[[Path, Allowlist, DiscoverOptions, Discovery], None]
    read: Reader
    size: Callable[[NodeRef, dict], int]  # the node's size in seq units, without parsing events


_REGISTRY: dict[str, Source] = {}


def register_source(source: Source) -> Source:
    _REGISTRY[source.name] = source
    return source


def all_sources() -> tuple[Source, ...]:
    return tuple(_REGISTRY.values())


def source_names() -> tuple[str, ...]:
    return tuple(_REGISTRY)


def get_source(name: str) -> Source:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown source {name!r}; choose from {', '.join(_REGISTRY)}") from None


def read_node(node: NodeRef, start: int, options: ReadOptions = ReadOptions(),
              cache: dict | None = None) -> tuple[ParsedTrail, int]:
    """Parse `node` from seq `start`. Raises OSError / UnreadableTrail for unreadable trails."""
    return get_source(node.source).read(node, start, options, {} if cache is None else cache)


def node_size(node: NodeRef, cache: dict | None = None) -> int:
    return get_source(node.source).size(node, {} if cache is None else cache)


def jsonl_size(node: NodeRef, cache: dict | None = None) -> int:
    """The size of a JSONL trail in seq units: its complete lines."""
    return count_complete_lines(read_trail_bytes(Path(node.path)))

