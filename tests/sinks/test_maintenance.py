import pytest

from sinks.lake import Lake
from sinks.maintenance import compact, lake_info
from tests.sinks.test_commit import commit, report, window


class Crash(Exception):
    pass


def fill(lake, n=6):
    for i in range(n):
        commit(lake, window(i * 10, i * 10 + 9, node=f"cc:m:n{i % 2}"), report(f"Decision {i} for the ledger"))


def state(lake):
    return lake.con.execute("SELECT client_request_id, content FROM memories ORDER BY 1").fetchall()


def test_compaction_keeps_every_memory_once(lake_dir):
    with Lake(lake_dir, writer=True) as lake:
        fill(lake)
        before = state(lake)
        result = compact(lake, keep_hours=0, grace_seconds=0)
        assert result.files_after >= 1 and result.snapshots_expired > 0
        assert state(lake) == before
        fill(lake, 8)  # and writing goes on after it
        assert len(state(lake)) == 8
    with Lake(lake_dir) as reader:
        assert lake_info(reader)["rows"]["memories"] == 8
        info = lake_info(reader)
    kind = "postgres" if isinstance(lake_dir, str) else "sqlite"
    assert info["catalog"] == kind and f"ATTACH 'ducklake:{kind}:" in info["attach"]


def test_crash_mid_compaction_then_rerun(lake_dir):
    def hook(point):
        if point == "mid_compaction":
            raise Crash(point)

    with Lake(lake_dir, writer=True) as lake:
        fill(lake)
        before = state(lake)
        with pytest.raises(Crash):
            compact(lake, keep_hours=0, grace_seconds=0, crash_hook=hook)
        assert state(lake) == before
        compact(lake, keep_hours=0, grace_seconds=0)
        assert state(lake) == before


def files_read(lake, sql):
    """Parquet files a query reads, from DuckDB's own EXPLAIN ANALYZE."""
    import re

    plan = lake.con.execute(f"EXPLAIN ANALYZE {sql}").fetchall()[0][1]
    files = re.search(r"Total Files Read: (\d+)", plan)
    return int(files.group(1)) if files else 0


def test_one_tenant_and_one_day_read_only_their_files(lake_dir):
    from ingest.events import Event
    from ingest.windows import Window
    from tests.sinks.test_commit import CTX, commit_one, report_to_items

    with Lake(lake_dir, writer=True) as lake:
        for tenant in ("a", "b", "c"):
            for day in (1, 2, 3, 4):
                ts = f"2026-11-0{day}T10:00:00.000Z"
                events = (Event(day * 10, ts, "p:S", "user", "prompt", "a" * 80),)
                w = Window(f"cc:m:{tenant}", "agent", day * 10, day * 10, events, tenant_id=tenant)
                body = report(f"Decision of {tenant} on day {day}", f"Second one of {tenant} {day}")
                for item in body["decisions"]:
                    item["ts"] = ts
                commit_one(lake.con, w, report_to_items(body, w), CTX)
        compact(lake, keep_hours=0, grace_seconds=0)  # inlined rows go to Parquet, one folder per partition
        total = lake.con.execute("SELECT count(*) FROM ducklake_list_files('lake', 'memories')").fetchone()[0]
        paths = [row[0] for row in lake.con.execute(
            "SELECT data_file FROM ducklake_list_files('lake', 'memories')").fetchall()]
        assert total == 12 and all("tenant_id=" in p and "/day=" in p for p in paths)
        query = ("SELECT count(*) FROM memories WHERE tenant_id = 'b' AND ts_valid_start >= "
                 "TIMESTAMPTZ '2026-11-02' AND ts_valid_start < TIMESTAMPTZ '2026-11-04'")
        assert lake.con.execute(query).fetchone()[0] == 4
        assert files_read(lake, query) == 2  # of 12: tenant b, days 2 and 3


def parquet_on_disk(lake) -> set[str]:
    from pathlib import Path

    return {p.name for p in Path(lake.data_path).rglob("*.parquet")}


def parquet_read(lake) -> set[str]:
    from pathlib import Path

    tables = [row[0] for row in lake.con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = 'lake'").fetchall()]
    return {Path(row[0]).name for table in tables for row in lake.con.execute(
        f"SELECT data_file FROM ducklake_list_files('lake', '{table}')").fetchall()}


@pytest.mark.parametrize("grace", [0, 3600])
def test_files_merged_away_in_a_run_go_after_the_grace_and_time_travel_keeps_working(lake_dir, grace):
    from sinks.maintenance import merge_small_files

    with Lake(lake_dir, writer=True) as lake:
        merged = []
        for round_ in range(3):
            fill(lake, 4)  # windows 0..3 again: the same memories, duplicates after round one
            for i in range(4):
                commit(lake, window(100 + round_ * 40 + i * 10, 109 + round_ * 40 + i * 10, node="cc:m:g"),
                       report(f"Round {round_} decision {i}"))
            merge_small_files(lake.con, grace_seconds=grace)
            merged.append((lake.con.execute("SELECT max(snapshot_id) FROM lake.snapshots()").fetchone()[0],
                           state(lake)))
        on_disk, read = parquet_on_disk(lake), parquet_read(lake)
        assert read <= on_disk
        if grace:
            assert on_disk - read, "a file merged away a moment ago is still there for its readers"
        else:
            assert on_disk == read, f"files merged away are still on disk: {sorted(on_disk - read)}"
        for version, expected in merged:  # every snapshot still reads, through the merged files
            assert lake.con.execute(
                f"SELECT client_request_id, content FROM memories AT (VERSION => {version}) ORDER BY 1"
            ).fetchall() == expected


def test_compaction_keeps_every_snapshot_of_the_time_travel_window(lake_dir):
    """Snapshots an hour old or younger stay with `keep_hours=1` (DuckLake's own `older_than`
    on a SQLite catalog would expire all of today's)."""
    with Lake(lake_dir, writer=True) as lake:
        fill(lake, 1)
        first = lake.con.execute("SELECT max(snapshot_id) FROM lake.snapshots()").fetchone()[0]
        then = state(lake)
        fill(lake)
        count = lake.con.execute("SELECT count(*) FROM lake.snapshots()").fetchone()[0]
        result = compact(lake, keep_hours=1, grace_seconds=0)
        assert result.snapshots_expired == 0
        assert lake.con.execute("SELECT count(*) FROM lake.snapshots()").fetchone()[0] >= count
        assert lake.con.execute(f"SELECT client_request_id, content FROM memories AT (VERSION => {first}) "
                                "ORDER BY 1").fetchall() == then != state(lake)


def test_orphaned_files_of_failed_writes_go_once_older_than_the_grace(lake_dir):
    """A full disk and kill -9 left zero-byte (or cut) Parquet files no catalog row names, which
    neither `compact` nor `--purge` removed. They go once older than the grace; a younger one may
    be a writer's file in flight, and nothing outside the data path is touched."""
    import os
    import time
    from pathlib import Path

    from sinks.forget import purge_lake

    def planted(folder: Path, name: str, content: bytes, age: float) -> Path:
        path = folder / name
        path.write_bytes(content)
        os.utime(path, (time.time() - age, time.time() - age))
        return path

    with Lake(lake_dir, writer=True) as lake:
        fill(lake)
        compact(lake, keep_hours=24, grace_seconds=0)  # the rows in Parquet files
        before, kept = state(lake), parquet_read(lake)
        data = Path(lake.data_path)
        table = data / "main" / "memories"
        old_zero = planted(table, "ducklake-0badf00d-zero.parquet", b"", 3600)
        old_cut = planted(table, "ducklake-0badf00d-cut.parquet", b"PAR1 half a row group", 900)
        young = planted(table, "ducklake-0badf00d-young.parquet", b"", 30)  # in flight, maybe
        outside = planted(data.parent, "ducklake-0badf00d-outside.parquet", b"", 3600)
        (data / "notes.txt").write_text("not a data file")
        result = compact(lake, keep_hours=24, grace_seconds=120)
        assert not old_zero.exists() and not old_cut.exists()
        assert result.orphans_deleted == 2
        assert young.exists() and outside.exists() and (data / "notes.txt").exists()
        assert state(lake) == before and kept <= parquet_on_disk(lake)
        assert compact(lake, keep_hours=24, grace_seconds=120).orphans_deleted == 0
        os.utime(young, (time.time() - 600, time.time() - 600))
        again = planted(table, "ducklake-0badf00d-again.parquet", b"", 3600)
        purged = purge_lake(lake, grace_seconds=120)  # --purge too
        assert not young.exists() and not again.exists() and purged.orphans_deleted == 2
        assert state(lake) == before
