"""The dev/test split shared by every labelled set of the project (quality stories, the support
set): a story (a project or scenario name) is in TEST iff its SHA-1, read as an integer, is
divisible by 3; every other story is DEV. Thresholds are chosen on dev; tables report test.
"""

from __future__ import annotations

import hashlib

SPLITS = ("dev", "test")


def split_of(story: str) -> str:
    """`test` or `dev` for a story name, by the shared rule (never change it: sets rely on it)."""
    return "test" if int(hashlib.sha1(story.encode()).hexdigest(), 16) % 3 == 0 else "dev"
