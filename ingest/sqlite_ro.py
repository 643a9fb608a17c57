"""Opening a trail's SQLite database read-only (Cursor's state.vscdb, OpenClaw's task runs).

If the owning app holds the database locked, a copy (with its -wal and -shm) is read instead: we
never wait on, or write to, another program's database.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ingest.errors import UnreadableTrail


@contextlib.contextmanager
def open_readonly(path: Path) -> Iterator[sqlite3.Connection]:
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2)
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as error:
        if "locked" not in str(error) and "busy" not in str(error):
            raise UnreadableTrail(f"{path}: not a readable SQLite database ({error})") from None
        with tempfile.TemporaryDirectory() as scratch:
            copy = Path(scratch) / path.name
            shutil.copy2(path, copy)
            for suffix in ("-wal", "-shm"):
                if Path(str(path) + suffix).exists():
                    shutil.copy2(str(path) + suffix, str(copy) + suffix)
            with open_readonly(copy) as copied:
                yield copied
        return
    try:
        yield con
    finally:
        con.close()
