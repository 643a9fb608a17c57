"""The disk under the lake running out of room: told once, in words, never retried.

A full disk shows up in three voices: DuckDB writing a Parquet file ("No space left on device"),
the SQLite catalog committing ("database or disk is full", which DuckLake wraps in "Failed to
commit DuckLake transaction", the words of a lost commit race), and SQLite failing to open the
catalog's WAL index ("disk I/O error"). A race is worth running again; a full disk is not: the
transaction is all or nothing, so nothing was written, and the next run redoes it once there is
room.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ingest.errors import LakeError

SIGNS = ("No space left on device", "database or disk is full", "Disk quota exceeded",
         "SQLITE_FULL", "could not extend file")
ROOM_BYTES = 1 << 20  # less than this free under the catalog, and SQLite cannot even open it


def disk_full(error: BaseException) -> bool:
    text = str(error)
    return any(sign in text for sign in SIGNS)


def disk_full_error(error: BaseException) -> LakeError:
    """The one message for a write the full disk stopped."""
    detail = next((line for line in str(error).splitlines() if any(s in line for s in SIGNS)),
                  str(error).splitlines()[0] if str(error) else type(error).__name__)
    return LakeError("the disk holding the lake is full: nothing of this transaction was written "
                     f"(it is all or nothing); free space and rerun ({detail.strip()})")


def out_of_room(folder: Path) -> int | None:
    """The free bytes under `folder` when they are too few for SQLite to open a catalog there,
    else None (also when the folder cannot be measured)."""
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return None
    return free if free < ROOM_BYTES else None
