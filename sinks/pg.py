"""What a Postgres catalog needs beside DuckDB: whether it holds a lake, the writer rule as
advisory locks (a lock file cannot span machines), and VACUUM for `forget --purge`.

Each lock lives on a connection of its own, held for as long as the lock: Postgres releases a
session's advisory locks when the session ends, so a driver that dies frees the lake at once.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import socket
import time

import duckdb

from ingest.errors import LakeBusy, LakeError
from sinks.redact import redact

_WRITER = "trail-interview:batch-writer"
_MIGRATE = "trail-interview:migrate"


def _key(name: str) -> int:
    return int.from_bytes(hashlib.sha1(name.encode()).digest()[:8], "big", signed=True)


def connect(dsn: str, purpose: str):
    import psycopg

    try:
        return psycopg.connect(dsn, autocommit=True, connect_timeout=10,
                               application_name=f"trail-interview {purpose}")
    except psycopg.Error as error:
        raise LakeError(f"cannot reach the Postgres catalog ({redact(dsn)}): "
                        f"{redact(str(error)).strip()}; check the connection string, that the "
                        "server is up, and PGPASSWORD or ~/.pgpass") from None


def answers(dsn: str) -> bool:
    """Whether the catalog's server takes a connection now (within 3 s)."""
    import psycopg

    try:
        psycopg.connect(dsn, autocommit=True, connect_timeout=3,
                        application_name="trail-interview probe").close()
        return True
    except psycopg.Error:
        return False


def catalog_exists(dsn: str) -> bool:
    with contextlib.closing(connect(dsn, "probe")) as con:
        return con.execute("SELECT to_regclass('ducklake_metadata') IS NOT NULL").fetchone()[0]


class WriterLock:
    """The batch writer's lock on a Postgres lake: one at a time, across machines."""

    def __init__(self, dsn: str, where: str):
        self.con = connect(dsn, f"writer pid={os.getpid()} host={socket.gethostname()} "
                                f"since={time.strftime('%FT%TZ', time.gmtime())}")
        taken = self.con.execute("SELECT pg_try_advisory_lock(%s)", [_key(_WRITER)]).fetchone()[0]
        if not taken:
            key = _key(_WRITER) & 0xFFFFFFFFFFFFFFFF
            holder = self.con.execute(
                "SELECT a.application_name, host(a.client_addr) FROM pg_locks l "
                "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
                "AND l.granted AND l.objsubid = 1 AND l.classid = %s::bigint::oid "
                "AND l.objid = %s::bigint::oid AND l.database = "
                "(SELECT oid FROM pg_database WHERE datname = current_database())",
                [key >> 32, key & 0xFFFFFFFF]).fetchone()
            self.con.close()
            who = f"{holder[0]} from {holder[1] or 'a local socket'}" if holder else "unknown"
            raise LakeBusy(f"the lake at {where} is being written by another run ({who}); wait "
                           "for it to finish, or point --lake at another lake")

    def release(self) -> None:
        # Unlock first: the server frees a session's locks only once its backend exits, a moment
        # after the hang-up, and a run opened right after this one must find the lake free.
        with contextlib.suppress(Exception):
            self.con.execute("SELECT pg_advisory_unlock(%s)", [_key(_WRITER)])
        with contextlib.suppress(Exception):
            self.con.close()


@contextlib.contextmanager
def migration_lock(dsn: str):
    """Writers opening a Postgres lake at once create and migrate it one at a time."""
    with contextlib.closing(connect(dsn, "migrate")) as con:
        con.execute("SELECT pg_advisory_lock(%s)", [_key(_MIGRATE)])
        try:
            yield
        finally:  # at once, not when the session's backend exits
            with contextlib.suppress(Exception):
                con.execute("SELECT pg_advisory_unlock(%s)", [_key(_MIGRATE)])


def vacuum(dsn: str) -> None:
    """VACUUM FULL the catalog's tables: their dead row versions may hold forgotten rows."""
    with contextlib.closing(connect(dsn, "vacuum")) as con:
        con.execute("VACUUM FULL")


# libpq's words when the Postgres catalog stops answering mid-run (down, restarted, network cut).
_CATALOG_LOST = ("Unable to connect to Postgres", "server closed the connection unexpectedly",
                 "the database system is shutting down", "the database system is starting up",
                 "the database system is in recovery mode",
                 "terminating connection due to",  # administrator command, immediate shutdown
                 "could not receive data from server", "could not send data to server",
                 "no connection to the server", "SSL SYSCALL error", "connection not open")


def catalog_lost(error: BaseException, dsn: str | None = None) -> LakeError | None:
    """A DuckDB error that comes from the lake's Postgres catalog going away, as one clear
    LakeError (its connection string's password redacted); None for any other error. libpq's
    words tell most of them; a commit or a merge cut short says only "Failed to execute query
    ROLLBACK" or "transaction is aborted", so with the catalog's `dsn` the server itself is asked."""
    text = str(error)
    if not isinstance(error, duckdb.Error):
        return None
    if not any(sign in text for sign in _CATALOG_LOST) and (
            dsn is None or answers(dsn)):
        return None
    first = next((line for line in text.splitlines() if line.strip()), text)
    return LakeError(
        f"lost the lake's Postgres catalog: {redact(first.strip())}. Nothing of the transaction in "
        "flight was written (it is all or nothing) and what committed before is kept: rerun once "
        "the catalog answers (`interview lake info` checks it)")
