"""The query path is a read-only sandbox: one read statement, no file outside the lake's data, no
way out, a row cap, a memory limit and a timeout; and a lake folder whose catalog is broken is an
error, never silently a new, empty lake."""

import json
import os
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from ingest.errors import LakeError
from jobs.api import query_lake
from jobs.cli import main
from jobs.settings import load_settings
from sinks.lake import Lake
from tests.serving import ROOT


@pytest.fixture
def lake(tmp_path):
    lake_dir = tmp_path / "lake"
    body = {"node_id": "cc:m:q", "agent_id": "a", "cursor_from": 0, "cursor_to": 1,
            "events": [{"seq": 0, "ts": "2026-01-01T10:00:00Z", "role": "user", "kind": "prompt",
                        "content": "Move the cache to Redis, keep the TTL at 300 s"}]}
    path = tmp_path / "w.json"
    path.write_text(json.dumps(body))
    result = CliRunner().invoke(main, ["submit", str(path), "--lake", str(lake_dir), "--backend", "none"])
    assert result.exit_code == 0, result.output
    return lake_dir


def snapshot(lake_dir):
    with Lake(lake_dir, create=False) as opened:
        return (opened.con.execute("SELECT count(*) FROM memories").fetchone(),
                sorted(p.name for p in lake_dir.rglob("*")), (lake_dir / "catalog.sqlite").read_bytes())


def attacks(lake_dir, tmp_path):
    catalog, data = lake_dir / "catalog.sqlite", lake_dir / "data"
    return [
        ("delete from memories", "DELETE statement"),
        (f"USE memory; DETACH lake; ATTACH 'ducklake:sqlite:{catalog}' AS w "
         f"(DATA_PATH '{data}/', OVERRIDE_DATA_PATH true); DELETE FROM w.memories", "statements"),
        (f"COPY (select 'x') TO '{catalog}'", "COPY statement"),
        (f"COPY (select 'x') TO '{tmp_path / 'out.csv'}'", "COPY statement"),
        (f"ATTACH '{tmp_path / 'other.db'}' AS other", "ATTACH statement"),
        ("INSTALL httpfs", "statement"),
        ("SET enable_external_access = true", "SET statement"),
        ("select * from read_text('/etc/passwd')", "files outside the lake are off"),
        (f"select * from read_csv('{tmp_path / 'mine.csv'}')", "files outside the lake are off"),
        ("select 1; select 2", "2 statements"),
    ]


def test_every_attack_is_refused_and_the_lake_is_unchanged(lake, tmp_path):
    (tmp_path / "mine.csv").write_text("a,b\n1,2\n")
    before = snapshot(lake)
    settings = load_settings(lake=lake)
    for query, why in attacks(lake, tmp_path):
        with pytest.raises(LakeError, match=why):
            query_lake(settings, query)
    assert snapshot(lake) == before
    assert not (tmp_path / "out.csv").exists() and not (tmp_path / "other.db").exists()


def test_reads_work_and_files_need_the_opt_in(lake, tmp_path):
    settings = load_settings(lake=lake)
    assert query_lake(settings, "with m as (select * from memories) select count(*) as n "
                                "from m") == (["n"], [(1,)], False)
    assert query_lake(settings, "describe memories").rows
    (tmp_path / "mine.csv").write_text("a,b\n1,2\n")
    assert query_lake(settings, f"select a + b from read_csv('{tmp_path / 'mine.csv'}')",
                      allow_files=True).rows == [(3,)]
    with pytest.raises(LakeError, match="DELETE"):
        query_lake(settings, "delete from memories", allow_files=True)


def test_the_cli_refuses_with_one_clear_line(lake):
    result = CliRunner().invoke(main, ["sql", "delete from memories", "--lake", str(lake)])
    assert result.exit_code == 1
    assert result.output.strip().startswith("Error: refused: a DELETE statement")
    assert "Traceback" not in result.output


@pytest.mark.parametrize("content, why", [(b"", "empty catalog"), (b"not a database at all, sorry",
                                                                  "not an SQLite file")])
def test_a_broken_catalog_is_an_error_not_a_new_lake(lake, content, why):
    (lake / "catalog.sqlite").write_bytes(content)
    for writer in (True, False):
        with pytest.raises(LakeError, match=why):
            Lake(lake, writer=writer, create=True)
    assert (lake / "catalog.sqlite").read_bytes() == content


def test_an_sqlite_file_that_is_not_a_ducklake_is_refused(tmp_path):
    import sqlite3

    folder = tmp_path / "lake"
    folder.mkdir()
    with sqlite3.connect(folder / "catalog.sqlite") as con:
        con.execute("CREATE TABLE notes (x)")
    with pytest.raises(LakeError, match="not a DuckLake catalog"):
        Lake(folder, writer=True)


def sql_cli(lake_dir, query, *args, cwd=None, timeout=120):
    """`interview sql` in its own process (a query that crashes DuckDB cannot take the tests with
    it), with its peak memory in MB on the last line of stderr: the VmHWM of its own memory map.
    (Not ru_maxrss: Linux carries the parent's peak into it across exec, so a child of a pytest
    grown to 1.8 GB reported 1.8 GB on CI.)"""
    code = ("import re, sys\nfrom jobs.cli import main\ntry:\n    main(sys.argv[1:])\n"
            "finally:\n    status = open('/proc/self/status').read()\n"
            "    print(int(re.search(r'VmHWM:\\s+(\\d+)', status).group(1)) // 1024, "
            "file=sys.stderr)")
    return subprocess.run([sys.executable, "-c", code, "sql", query, "--lake", str(lake_dir),
                           *args],
                          capture_output=True, text=True, cwd=cwd or ROOT, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_explain_analyze_runs_only_a_select_and_writes_nothing(lake, tmp_path, monkeypatch):
    """EXPLAIN ANALYZE runs what it explains: of a COPY it wrote any file the sandbox allowed,
    the catalog included (the lake could no longer be opened)."""
    catalog = lake / "catalog.sqlite"
    before = snapshot(lake)
    (tmp_path / ".tmp").mkdir()  # DuckDB's default temp folder, <cwd>/.tmp/, was allowed
    monkeypatch.chdir(tmp_path)
    settings = load_settings(lake=lake)
    for query in [f"EXPLAIN ANALYZE COPY (select 'x' as x) TO '{catalog}' (FORMAT csv)",
                  "explain analyze copy (select 'x' as x) to '.tmp/out.csv'",
                  f"EXPLAIN (ANALYZE, FORMAT json) COPY (select 1) TO '{lake}/data/x.parquet'",
                  "/* a comment */ EXPLAIN ANALYZE DELETE FROM memories"]:
        with pytest.raises(LakeError, match="refused: EXPLAIN of a (COPY|DELETE) statement"):
            query_lake(settings, query)
    assert snapshot(lake) == before and os.listdir(tmp_path / ".tmp") == []
    plan = query_lake(settings, "EXPLAIN ANALYZE select count(*) from memories")
    assert "QUERY PROFILING" in str(plan.rows) or plan.rows
    # The temp folder is private and empty: not <cwd>/.tmp/, whose files were readable.
    (tmp_path / ".tmp" / "notes.txt").write_text("mine")
    with pytest.raises(LakeError, match="only its data and catalog are readable"):
        query_lake(settings, "select content from read_text('.tmp/notes.txt')")
    (scratch,) = query_lake(settings, "select current_setting('temp_directory')").rows[0]
    assert "interview-sql-" in scratch and not os.path.exists(scratch)  # removed after


@pytest.mark.parametrize("query", [
    "select * from ducklake_flush_inlined_data('lake')",  # wrote Parquet files, then failed
    "from lake.cleanup_old_files(cleanup_all => true)",
    "select * from lake.set_option('data_inlining_row_limit', 0)",  # crashed the process
    "select * from query('select 1')",  # SQL text the one-read rule never saw
    "select * from sqlite_query('x.db', 'delete from t')",
])
def test_a_select_that_writes_or_runs_sql_is_refused(lake, query):
    before = snapshot(lake)
    done = sql_cli(lake, query)
    assert done.returncode == 1 and "Error: refused: " in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and snapshot(lake) == before


def test_nothing_secret_is_readable_only_the_data(lake):
    """The server's admin key sits in the lake folder: the sandbox reads only the data path."""
    from jobs.http.auth import local_key

    local_key(lake, "local")
    settings = load_settings(lake=lake)
    for path in ["server.key", "data/../server.key", "writer.lock", "migrate.lock"]:
        with pytest.raises(LakeError, match="Permission Error"):
            query_lake(settings, f"select content from read_text('{lake}/{path}')")
    assert CliRunner().invoke(main, ["compact", "--lake", str(lake)]).exit_code == 0  # to Parquet
    assert query_lake(settings, "select count(*) from memories").rows == [(1,)]
    files = query_lake(settings, f"select count(*) from glob('{lake}/data/**/*.parquet')").rows
    assert files[0][0] > 0


def test_rows_are_capped_with_a_note_and_a_huge_result_is_never_fetched(lake):
    done = sql_cli(lake, "select * from range(100000000)", "--format", "csv", timeout=60)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[0] == "range" and len(lines) == 1001
    note, peak_mb = done.stderr.strip().splitlines()[-2:]
    assert "only the first 1000 rows are printed" in note and "--max-rows" in note
    assert int(peak_mb) < 600, peak_mb  # it grew to 6.5 GB fetching every row
    more = sql_cli(lake, "select * from range(10)", "--max-rows", "3", "--format", "json")
    assert more.returncode == 0 and json.loads(more.stdout) == [{"range": i} for i in range(3)]
    result = query_lake(load_settings(lake=lake), "select * from range(7)", max_rows=7)
    assert len(result.rows) == 7 and not result.more
    ordered = query_lake(load_settings(lake=lake), "from range(10) order by range desc",
                         max_rows=3)  # the cap keeps the query's order
    assert ordered.rows == [(9,), (8,), (7,)] and ordered.more


def test_an_endless_query_stops_at_the_timeout_with_a_clear_message(lake):
    settings = load_settings(lake=lake)
    started = time.monotonic()
    with pytest.raises(LakeError, match=r"query stopped after 2 s \(the statement timeout\)"):
        query_lake(settings, "with recursive t(n) as (select 1 union all select n + 1 from t) "
                             "select count(*) from t", timeout=2)
    assert time.monotonic() - started < 30
    assert query_lake(settings, "select current_setting('memory_limit')",
                      memory_limit="300MB").rows[0][0] in ("286.1 MiB", "300.0 MB")
    with pytest.raises(LakeError, match="memory limit 'lots'"):
        query_lake(settings, "select 1", memory_limit="lots")


def test_pivot_is_a_read_and_a_refused_one_says_why(lake):
    settings = load_settings(lake=lake)
    with pytest.raises(LakeError, match="this PIVOT has no IN list.*CREATE TYPE.*IN \\("):
        query_lake(settings, "PIVOT memories ON memory_type USING count(*)")
    pivoted = query_lake(settings, "PIVOT (select memory_type from memories) ON memory_type "
                                   "IN ('decision', 'task') USING count(*)")
    assert pivoted[0] == ["decision", "task"]
