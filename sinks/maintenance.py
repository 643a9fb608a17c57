"""Keeping the lake small and fast: DuckLake's own compaction, and a description of the lake.

`compact` moves inlined rows into Parquet, merges small adjacent files, expires snapshots older
than the time-travel window and deletes the files no snapshot needs any more (after a grace for
queries already reading them), and the orphans: files under the data path that no catalog row
names, which a write that failed left (a full disk, a kill -9), often zero bytes. Each step is a
DuckLake transaction of its own, so a crash between steps leaves a lake that reads the same; the
next `compact` finishes the job.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from sinks.lake import EXTENSIONS_BY_KIND, Lake
from sinks.tables import TABLE_NAMES


@dataclass
class CompactResult:
    files_before: int
    files_after: int
    snapshots_expired: int
    files_deleted: int
    orphans_deleted: int = 0


def data_files(con: duckdb.DuckDBPyConnection) -> int:
    return sum(
        con.execute(f"SELECT count(*) FROM ducklake_list_files('lake', '{table}')").fetchone()[0]
        for table in TABLE_NAMES
    )


def _ago(seconds: float) -> str:
    return f"now() - INTERVAL '{float(seconds):.0f} seconds'"


SCHEDULED = "__ducklake_metadata_lake.ducklake_files_scheduled_for_deletion"


def _sqlite_catalog(con: duckdb.DuckDBPyConnection) -> bool:
    path = con.execute("SELECT path FROM duckdb_databases() WHERE database_name = 'lake'").fetchone()
    return path is not None and str(path[0]).startswith("sqlite:")


def compact(lake: Lake, *, keep_hours: float, grace_seconds: float, crash_hook=None) -> CompactResult:
    """Merge, expire the snapshots older than the time-travel window (`keep_hours`), then delete
    the files no kept snapshot reads, once `grace_seconds` have passed since they stopped being
    needed: a query lists a snapshot's files, then reads them, so one that listed them just
    before may still be reading them (deleting sooner fails that query, never the lake)."""
    con = lake.con
    before = data_files(con)
    # First what earlier merges left: on a SQLite catalog it can only go while nothing younger
    # than the grace is scheduled, and this compact's own merge and expiry schedule more.
    deleted = delete_unneeded_files(con, grace_seconds)
    merge_small_files(con, crash_hook=crash_hook, crash_point="mid_compaction")
    expired = expire_snapshots(con, keep_hours * 3600)
    deleted += delete_unneeded_files(con, grace_seconds)
    orphans = delete_orphaned_files(con, grace_seconds)
    return CompactResult(before, data_files(con), expired, deleted, orphans)


def expire_snapshots(con: duckdb.DuckDBPyConnection, older_than_seconds: float) -> int:
    """Expire the snapshots taken more than `older_than_seconds` ago (never the latest), named
    one by one: DuckLake 1.5.5's own `older_than` on a SQLite catalog compares dates alone and
    would expire every snapshot of the cut-off's day, younger ones too."""
    ids = [row[0] for row in con.execute(
        f"SELECT snapshot_id FROM lake.snapshots() WHERE snapshot_time < {_ago(older_than_seconds)} "
        "AND snapshot_id < (SELECT max(snapshot_id) FROM lake.snapshots()) ORDER BY 1").fetchall()]
    for start in range(0, len(ids), 10_000):
        batch = ids[start:start + 10_000]
        con.execute(f"CALL ducklake_expire_snapshots('lake', versions => {batch})").fetchall()
    return len(ids)


def merge_small_files(con: duckdb.DuckDBPyConnection, *, crash_hook=None,
                      crash_point: str = "mid_merge", grace_seconds: float | None = None) -> None:
    """The in-run half of `compact`: inlined rows to Parquet, then small files merged.

    Every group commit looks up attempt ids and content hashes, and a look-up opens every data
    file of the table, so without this a run's commits slow down as its files pile up. A merge
    rewrites the growing file with the new small ones, and every snapshot, old ones included, then
    reads the merged file: the files merged away serve no time travel. With `grace_seconds`, those
    merged away at least that long ago are deleted here, else a long run would keep every
    generation of its growing file (bytes on disk quadratic in the run's length). Each call is a
    DuckLake transaction of its own: a crash between them leaves a lake that reads the same.
    """
    for table in TABLE_NAMES:  # load each table's metadata first (DuckLake issue 661)
        con.execute(f"SELECT * FROM {table} LIMIT 0").fetchall()
    con.execute("CALL ducklake_flush_inlined_data('lake')").fetchall()
    if crash_hook:
        crash_hook(crash_point)
    con.execute("CALL ducklake_merge_adjacent_files('lake')").fetchall()
    if grace_seconds is not None:
        delete_unneeded_files(con, grace_seconds)


def delete_unneeded_files(con: duckdb.DuckDBPyConnection, grace_seconds: float) -> int:
    """Delete the data files no snapshot reads any more (merged away, or read only by expired
    snapshots) that stopped being needed at least `grace_seconds` ago. A crash half way leaves
    some files gone whose catalog rows remain: DuckLake skips a missing file the next time.

    DuckLake 1.5.5's `older_than` on a SQLite catalog compares dates alone: a cut-off today would
    take today's younger files too. There, every scheduled file old enough means `cleanup_all`;
    otherwise only files scheduled before the day ahead of the cut-off's (UTC) day go, a subset
    whatever the session's time zone, and the rest wait for a later run or `compact`."""
    cutoff = _ago(grace_seconds)
    if _sqlite_catalog(con):
        younger = con.execute(
            f"SELECT count(*) FROM {SCHEDULED} WHERE schedule_start::TIMESTAMPTZ >= {cutoff}").fetchone()[0]
        if younger == 0:
            return len(con.execute("CALL ducklake_cleanup_old_files('lake', cleanup_all => true)").fetchall())
        cutoff = f"timezone('UTC', date_trunc('day', ({cutoff}) AT TIME ZONE 'UTC')) - INTERVAL '1 day'"
    return len(con.execute(f"CALL ducklake_cleanup_old_files('lake', older_than => {cutoff})").fetchall())


ORPHAN_MIN_AGE = 60.0  # seconds; see delete_orphaned_files


def delete_orphaned_files(con: duckdb.DuckDBPyConnection, grace_seconds: float) -> int:
    """Delete the Parquet files under the lake's data path that no catalog row names (no data or
    delete file of any snapshot, none scheduled for deletion): what a failed write left. Only once
    older than `grace_seconds` (at least ORPHAN_MIN_AGE), by their modification time: a writer's
    file is in no catalog row until its transaction commits, so a younger one may be in flight,
    even a zero-byte one (the file is created before it is written). DuckLake's own listing:
    only under the data path, and a file the catalog names is never touched."""
    cutoff = _ago(max(grace_seconds, ORPHAN_MIN_AGE))
    return len(con.execute(
        f"CALL ducklake_delete_orphaned_files('lake', older_than => {cutoff})").fetchall())


def lake_info(lake: Lake) -> dict:
    con = lake.con
    counts = {table: con.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in TABLE_NAMES}
    snapshots = con.execute("SELECT count(*), max(snapshot_time) FROM lake.snapshots()").fetchone()
    recipe = lake.location.recipe(lake.data_path)
    return {
        "lake": lake.where,
        "catalog": lake.location.kind,
        "data_path": lake.data_path,
        "attach": recipe[-1],
        "recipe": recipe,
        "duckdb": duckdb.__version__,
        "extensions": list(EXTENSIONS_BY_KIND[lake.location.kind]),
        "rows": counts,
        "data_files": data_files(con),
        "snapshots": snapshots[0],
        "last_snapshot": str(snapshots[1]),
    }
