"""Keeping the lake small and fast: DuckLake's own compaction, and a description of the lake.

`compact` moves inlined rows into Parquet, merges small adjacent files, expires snapshots older
than the time-travel window and deletes the files no snapshot needs any more. Each step is a
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


def data_files(con: duckdb.DuckDBPyConnection) -> int:
    return sum(
        con.execute(f"SELECT count(*) FROM ducklake_list_files('lake', '{table}')").fetchone()[0]
        for table in TABLE_NAMES
    )


def compact(lake: Lake, *, keep_hours: float = 24.0, crash_hook=None) -> CompactResult:
    con = lake.con
    before = data_files(con)
    merge_small_files(con, crash_hook=crash_hook, crash_point="mid_compaction")
    window = f"now() - INTERVAL '{float(keep_hours) * 3600:.0f} seconds'"
    expired = con.execute(f"CALL ducklake_expire_snapshots('lake', older_than => {window})").fetchall()
    deleted = con.execute(f"CALL ducklake_cleanup_old_files('lake', older_than => {window})").fetchall()
    return CompactResult(before, data_files(con), len(expired), len(deleted))


def merge_small_files(con: duckdb.DuckDBPyConnection, *, crash_hook=None,
                      crash_point: str = "mid_merge") -> None:
    """The in-run half of `compact`: inlined rows to Parquet, then small files merged.

    Every group commit looks up attempt ids and content hashes, and a look-up opens every data
    file of the table, so without this a run's commits slow down as its files pile up. Old files
    stay on disk for time travel until `compact` expires them. Each call is a DuckLake transaction
    of its own: a crash between them leaves a lake that reads the same.
    """
    for table in TABLE_NAMES:  # load each table's metadata first (DuckLake issue 661)
        con.execute(f"SELECT * FROM {table} LIMIT 0").fetchall()
    con.execute("CALL ducklake_flush_inlined_data('lake')").fetchall()
    if crash_hook:
        crash_hook(crash_point)
    con.execute("CALL ducklake_merge_adjacent_files('lake')").fetchall()


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
