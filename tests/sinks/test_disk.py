"""A full disk under the lake (issue 28 item 7): one clear error at once, never the 60 s of
retries a lost commit race gets. Injected at the connection here, in the words each layer uses;
`tests/jobs/test_disk_full.py` fills a real tmpfs under a batch run."""

from __future__ import annotations

import time

import duckdb
import pytest

from ingest.errors import LakeError
from sinks.disk import disk_full, out_of_room
from sinks.lake import Lake, check_catalog, write_transaction

# What DuckDB raises when the SQLite catalog cannot grow (measured on a full tmpfs): DuckLake
# wraps it in the words of a lost commit race, which used to be retried for 60 s.
SQLITE_FULL = ('TransactionContext Error: Failed to commit: Failed to commit DuckLake transaction.'
               '\nFailed to commit: Failed to execute query "COMMIT": database or disk is full')
PARQUET_FULL = 'IO Error: Could not write file "x.parquet": No space left on device'


@pytest.mark.parametrize("raised", [duckdb.TransactionException(SQLITE_FULL),
                                    duckdb.IOException(PARQUET_FULL)])
def test_a_full_disk_is_told_at_once_and_never_retried(tmp_path, raised):
    calls = []

    def fill(con):
        calls.append(1)
        con.execute("INSERT INTO node_contacts VALUES ('acme', 'n:1', now())")
        raise raised

    with Lake(tmp_path / "lake", writer=True) as lake:
        started = time.monotonic()
        with pytest.raises(LakeError, match="disk holding the lake is full: nothing of this "
                                            "transaction was written") as caught:
            write_transaction(lake.con, fill, seconds=5)
        assert time.monotonic() - started < 2 and calls == [1]
        assert lake.con.execute("SELECT count(*) FROM node_contacts").fetchone() == (0,)
    assert "free space and rerun" in str(caught.value)
    assert ("database or disk is full" in str(caught.value)
            or "No space left on device" in str(caught.value))


def test_a_lost_race_is_still_retried(tmp_path):
    calls = []

    def lose_once(con):
        calls.append(1)
        if len(calls) == 1:
            raise duckdb.TransactionException("Failed to commit DuckLake transaction: conflict")
        return "done"

    with Lake(tmp_path / "lake", writer=True) as lake:
        assert write_transaction(lake.con, lose_once) == "done" and len(calls) == 2


def test_the_signs_and_a_catalog_on_a_full_disk(tmp_path, monkeypatch):
    assert disk_full(duckdb.IOException(PARQUET_FULL)) and disk_full(RuntimeError(SQLITE_FULL))
    assert not disk_full(duckdb.TransactionException("database is locked"))
    assert out_of_room(tmp_path) is None  # the test machine has a megabyte free
    Lake(tmp_path / "lake", writer=True).close()
    catalog = tmp_path / "lake" / "catalog.sqlite"
    import sqlite3

    import sinks.lake

    def no_room(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(sinks.lake.sqlite3, "connect", no_room)
    with pytest.raises(LakeError, match="unreadable"):  # room on the disk: a broken catalog
        check_catalog(catalog)
    monkeypatch.setattr(sinks.lake, "out_of_room", lambda folder: 0)
    with pytest.raises(LakeError, match=r"disk holding the lake at .* is full \(0 bytes free\)"):
        check_catalog(catalog)  # not "restore catalog.sqlite from a backup"
