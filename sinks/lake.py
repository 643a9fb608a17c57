"""Opening the DuckLake: extensions from the pinned PyPI wheels (no network), the catalog (SQLite
in WAL mode under a lake folder, or Postgres: `sinks.location`), migrations, and the writer rule.

The writer rule: one batch driver at a time (an exclusive lock file on a folder lake, a Postgres
advisory lock on a Postgres one), plus any number of shared writers (server workers) that only
ever append rows. Appends never conflict in DuckLake; two writers committing at the same instant
collide on the catalog (SQLite busy, a Postgres serialization failure, or the same next snapshot
id), and `write_transaction` runs the losing transaction again.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import random
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import duckdb

from ingest.errors import LakeBusy, LakeError
from sinks import pg
from sinks.disk import disk_full, disk_full_error, out_of_room
from sinks.location import CATALOG_FILE, DATA_DIR, Location, secret_sql
from sinks.migrations import MIGRATIONS
from sinks.redact import redact

log = logging.getLogger(__name__)

LOCK_FILE = "writer.lock"
MIGRATE_LOCK_FILE = "migrate.lock"
EXTENSIONS = ("ducklake", "sqlite_scanner")
EXTENSIONS_BY_KIND = {"sqlite": EXTENSIONS, "postgres": ("ducklake", "postgres_scanner", "httpfs")}
T = TypeVar("T")


@contextlib.contextmanager
def transaction(con: duckdb.DuckDBPyConnection):
    """One DuckLake transaction: committed when the block ends, rolled back on any exception
    (a crash hook included), so a write is all or nothing."""
    con.execute("BEGIN TRANSACTION")
    try:
        yield con
        con.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(duckdb.Error):  # a failed COMMIT has already ended it
            con.execute("ROLLBACK")
        raise


def contended(error: BaseException) -> bool:
    """Another writer committed at the same instant: the transaction can simply run again."""
    text = str(error)
    return isinstance(error, duckdb.Error) and any(sign in text for sign in (
        "database is locked", "Failed to commit DuckLake transaction", "Transaction conflict",
        # Postgres: two commits took the same snapshot id, or one lost a serialization race.
        "could not serialize access", "duplicate key value violates unique constraint",
        "deadlock detected"))


def write_transaction(con: duckdb.DuckDBPyConnection, body: Callable[[duckdb.DuckDBPyConnection], T],
                      *, seconds: float = 60.0) -> T:
    """`body` in one transaction, run again (with jittered back-off) while it loses a commit
    race with another writer of the lake. `body` must read what it depends on inside itself."""
    deadline = time.monotonic() + seconds
    for attempt in range(1, 10_000):
        try:
            with transaction(con):
                return body(con)
        except duckdb.Error as error:
            if lost := pg.catalog_lost(error):
                raise lost from None
            if disk_full(error):  # before `contended`: DuckLake words it as a failed commit
                raise disk_full_error(error) from None
            if not contended(error) or time.monotonic() > deadline:
                raise
            log.debug("lake commit lost a race (attempt %d): %s", attempt, error)
            time.sleep(random.uniform(0.002, 0.02) * min(attempt, 10))
    raise AssertionError("unreachable")


# `x IN (SELECT unnest(string_split(?, chr(31))))` with `joined(values)`: one string parameter
# instead of a Python list, which DuckDB binds element by element (about 2 ms per 32 values).
IN_JOINED = "(SELECT unnest(string_split(?, chr(31))))"


def joined(values) -> str:
    values = list(values)
    if not values or any("\x1f" in value for value in values):
        raise ValueError("joined() needs at least one value and none with U+001F")
    return "\x1f".join(values)


def records(cursor) -> list[dict]:
    """The rows of an executed query as dicts keyed by column name."""
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def extension_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "trail-interview" / "duckdb-extensions"


def load_extensions(con: duckdb.DuckDBPyConnection, names=EXTENSIONS) -> None:
    """Load extensions from their PyPI wheels; never download anything."""
    from duckdb_extensions import import_extension

    folder = extension_dir()
    folder.mkdir(parents=True, exist_ok=True)
    con.execute(f"SET extension_directory = '{folder.as_posix()}'")
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    for name in names:
        import_extension(name, con=con)  # INSTALLs the wheel's file
        con.execute(f"LOAD {name}")


def check_catalog(catalog: Path) -> None:
    """A catalog file that is there must be a DuckLake: an empty, unreadable or foreign file is an
    error, never silently replaced by a new, empty lake (every memory and watermark would go)."""
    where = f"the lake at {catalog.parent}"
    advice = ("restore catalog.sqlite from a backup, or move the folder away (or pass another "
              "--lake) to start a new lake")
    try:
        size = catalog.stat().st_size
    except OSError as error:
        raise LakeError(f"cannot read {catalog}: {error.strerror}; check its permissions") from None
    if size == 0:
        raise LakeError(f"{where} has an empty catalog ({catalog}, 0 bytes); {advice}")
    try:
        with open(catalog, "rb") as handle:
            header = handle.read(16)
    except OSError as error:
        raise LakeError(f"cannot read {catalog}: {error.strerror}; check its permissions") from None
    if header != b"SQLite format 3\x00":
        raise LakeError(f"{where}: {catalog} is not a DuckLake catalog (not an SQLite file); {advice}")
    try:
        with contextlib.closing(sqlite3.connect(f"file:{catalog}?mode=ro", uri=True)) as con:
            found = con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                "name = 'ducklake_metadata'").fetchone()
    except sqlite3.OperationalError as error:
        if "locked" in str(error):
            return  # a writer is committing: the file is a live catalog
        if (free := out_of_room(catalog.parent)) is not None:  # not a broken catalog: no room
            raise LakeError(f"the disk holding {where} is full ({free:,} bytes free): the "
                            f"catalog cannot be opened ({error}); free space and rerun") from None
        raise LakeError(f"{where}: {catalog} is unreadable ({error}); {advice}") from None
    except sqlite3.DatabaseError as error:
        raise LakeError(f"{where}: {catalog} is unreadable ({error}); {advice}") from None
    if found is None:
        raise LakeError(f"{where}: {catalog} is an SQLite file but not a DuckLake catalog; {advice}")


def use_wal(catalog: Path) -> None:
    """WAL journal mode on the SQLite catalog (kept in the file): readers never wait for a
    committing writer, and a second process writing at the same time waits less."""
    try:
        with contextlib.closing(sqlite3.connect(catalog, timeout=5)) as con:
            if con.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                con.execute("PRAGMA journal_mode=WAL")
    except sqlite3.Error as error:
        log.debug("could not switch %s to WAL: %s", catalog, error)


def vacuum_sqlite(path) -> bool:
    """VACUUM an SQLite catalog and fold its WAL back in; False when a reader kept the WAL."""
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=30)) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.execute("VACUUM")
            busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            return not busy
    except sqlite3.Error as error:
        raise LakeError(f"could not vacuum the catalog {path}: {error}; stop the readers of this "
                        "lake (serve, mcp) and rerun `interview forget --purge`") from None


class Lake:
    """A connection to one lake (a folder, a Postgres catalog: see `sinks.location`).
    `writer=True` applies migrations and may write: `exclusive` (the default) takes the batch
    writer lock; `exclusive=False` is a shared writer (a server worker), which appends rows only
    and runs beside the batch writer. `data`: the data path a new Postgres lake is made with."""

    def __init__(self, where: str | os.PathLike | Location, *, writer: bool = False,
                 create: bool = True, exclusive: bool = True, data: str | None = None):
        self.location = Location.parse(where, data)
        self.root = self.location.root
        self.where = self.location.describe()
        self.writer = writer
        self._lock_handle = None
        self._pg_lock = None
        exists = self.location.exists()
        if not exists and not create:
            missing = f"missing {CATALOG_FILE}" if self.root else "its catalog holds no DuckLake"
            raise LakeError(
                f"no lake at {self.where} ({missing}); run `interview run` first or "
                "pass --lake to an existing lake")
        if self.location.postgres is not None:
            self._open_postgres(exists, exclusive)
            return
        if not writer:
            if self.root.is_dir() and not os.access(self.root, os.W_OK):
                raise LakeError(
                    f"cannot read the lake at {self.root}: the folder is read-only for this user, "
                    "and its catalog (SQLite in WAL mode) creates catalog.sqlite-shm beside itself "
                    "even to read; give this user write access to the folder, or copy the lake "
                    "somewhere writable")
            self._open(exists)
            return
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            (self.root / DATA_DIR).mkdir(exist_ok=True)
            if exclusive:
                self._take_lock()
        except OSError as error:
            raise LakeError(
                f"cannot write to the lake at {self.root}: {error.strerror} "
                f"({error.filename or self.root}); writing (run, backfill, serve, forget, compact) "
                "needs write access to the lake folder and its files: check their owner, mode and "
                "mount") from None
        try:
            with self._migration_lock():  # writers opening at once (server workers, a run) wait
                self._open(self.location.exists())
        except BaseException:
            self.close()  # the batch lock too
            raise

    def _open_postgres(self, exists: bool, exclusive: bool) -> None:
        data = self.location.data
        if not exists and not data:
            raise LakeError(
                f"no lake in the Postgres catalog {self.where} yet: creating one needs its data "
                "path, --lake-data (a folder every node can read, or s3://bucket/prefix)")
        if data and not data.startswith("s3://"):
            Path(data).mkdir(parents=True, exist_ok=True)
        try:
            if not self.writer:
                self._open(exists)
            else:
                if exclusive:
                    self._pg_lock = pg.WriterLock(self.location.postgres, self.where)
                with pg.migration_lock(self.location.postgres):
                    self._open(self.location.exists())
            if data and self.data_path != data:
                raise LakeError(
                    f"the lake {self.where} keeps its data at {self.data_path}, not at --lake-data "
                    f"{data}; drop --lake-data (it is only needed to create a lake) or fix it")
        except BaseException:
            self.close()
            raise

    def _open(self, exists: bool) -> None:
        catalog = self.root / CATALOG_FILE if self.root is not None else None
        if exists and catalog is not None:
            check_catalog(catalog)
        # The external file cache keeps the bytes of every Parquet file read, files merged away
        # included: a long run's commit look-ups grew the driver by ~1 MB per 100 windows with it.
        # The files are local; the OS page cache serves repeated reads.
        self.con = duckdb.connect(config={"enable_external_file_cache": False})
        try:
            load_extensions(self.con, EXTENSIONS_BY_KIND[self.location.kind])
            if self.location.postgres is not None:
                self.con.execute(secret_sql())
            if self.writer and exists and catalog is not None:
                use_wal(catalog)
            self.con.execute(self.location.attach_sql(
                read_only=not self.writer and exists, moved_ok=exists, create=not exists))
            self.con.execute("USE lake")
            if self.writer:
                self._migrate()
                if not exists and catalog is not None:
                    use_wal(catalog)
        except duckdb.Error as error:
            self.close()
            raise LakeError(f"cannot open the lake at {self.where}: {redact(str(error))}") from None

    @property
    def readable(self) -> list[str]:
        """What a sandboxed query may read: the data path (a folder or a bucket prefix), never
        the lake folder, which holds the catalog and the server's key."""
        return [self.data_path]

    @property
    def data_path(self) -> str:
        """Where the lake's Parquet files are: a folder (ending in /) or an s3:// prefix."""
        if self.root is not None:
            return (self.root / DATA_DIR).as_posix() + "/"
        return self.con.execute("SELECT value FROM __ducklake_metadata_lake.ducklake_metadata "
                                "WHERE key = 'data_path'").fetchone()[0]

    def _take_lock(self) -> None:
        path = self.root / LOCK_FILE
        handle = open(path, "a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise LakeBusy(
                f"the lake at {self.root} is being written by another run ({holder}); wait for "
                "it to finish, or point --lake at another folder"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps({"pid": os.getpid(), "since": time.strftime("%FT%TZ", time.gmtime())}))
        handle.flush()
        self._lock_handle = handle

    @contextlib.contextmanager
    def _migration_lock(self):
        """Writers opening the lake at once (a server and a run) create and migrate it one at a
        time."""
        with open(self.root / MIGRATE_LOCK_FILE, "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _migrate(self) -> None:
        def missing(con) -> list[tuple[str, str]]:
            con.execute("CREATE TABLE IF NOT EXISTS migrations (name VARCHAR, applied_at TIMESTAMPTZ)")
            done = {row[0] for row in con.execute("SELECT name FROM migrations").fetchall()}
            return [(name, sql) for name, sql in MIGRATIONS if name not in done]

        todo = write_transaction(self.con, missing)
        for name, sql in todo:
            def apply(con, name=name, sql=sql) -> None:
                if con.execute("SELECT count(*) FROM migrations WHERE name = ?", [name]).fetchone()[0]:
                    return
                con.execute(sql)
                con.execute("INSERT INTO migrations VALUES (?, now())", [name])

            write_transaction(self.con, apply)
            log.info("lake %s: applied migration %s", self.where, name)

    def vacuum_catalog(self) -> bool:
        """Close the connection, VACUUM the catalog (SQLite's free pages, Postgres's dead row
        versions may hold deleted rows) and open it again; the writer lock is kept throughout.
        False when a reader kept the SQLite WAL."""
        self.con.close()
        try:
            if self.location.postgres is not None:
                pg.vacuum(self.location.postgres)
                return True
            return vacuum_sqlite(self.root / CATALOG_FILE)
        finally:
            self._open(True)

    def lost(self, error: BaseException) -> LakeError | None:
        """`catalog_lost` for this lake: its Postgres server is asked when the error is unclear."""
        return pg.catalog_lost(error, self.location.postgres)

    def close(self) -> None:
        con, self.con = getattr(self, "con", None), None
        if con is not None:
            con.close()
        if self._pg_lock is not None:
            self._pg_lock.release()
            self._pg_lock = None
        if self._lock_handle is not None:
            fcntl.flock(self._lock_handle, fcntl.LOCK_UN)
            self._lock_handle.close()
            self._lock_handle = None

    def __enter__(self) -> Lake:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
