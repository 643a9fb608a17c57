"""Finding nodes under trail roots, for every source in the registry (`ingest.sources`).

Projects are denied by default, as in the reference client: a project is discovered only when it
matches an allowlist glob, or when every project is allowed explicitly.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from ingest.errors import TrailRootError
from ingest.nodes import Allowlist, DiscoverOptions, Discovery
from ingest.sources import get_source


def default_roots(source: str) -> list[str]:
    return get_source(source).default_roots()


def discover(
    roots: dict[str, list[str]],
    allow: Allowlist,
    *,
    include_subagents: bool = False,
    since_hours: float = 0,
    explicit: frozenset[str] | set[str] = frozenset(),
) -> Discovery:
    """Nodes of every source in `roots` (source → root folders). Missing default roots are
    skipped; a missing root of a source whose roots the user named (`explicit`) is an error."""
    options = DiscoverOptions(include_subagents,
                              time.time() - since_hours * 3600 if since_hours else None)
    found = Discovery(roots=tuple(os.path.realpath(Path(root).expanduser())
                                  for source_roots in roots.values() for root in source_roots))
    for name, source_roots in roots.items():
        source = get_source(name)
        for root in source_roots:
            base = Path(root).expanduser()
            if not base.is_dir():
                if name in explicit:
                    raise TrailRootError(f"{name} root {base} is not a folder")
                continue
            source.discover(base, allow, options, found)
    return found
