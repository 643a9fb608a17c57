"""The query path is a read-only sandbox: one read statement, no file outside the lake, no way out;
and a lake folder whose catalog is broken is an error, never silently a new, empty lake."""

import json

import pytest
from click.testing import CliRunner

from ingest.errors import LakeError
from jobs.api import query_lake
from jobs.cli import main
from jobs.settings import load_settings
from sinks.lake import Lake


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
    assert query_lake(settings, "with m as (select * from memories) select count(*) as n from m") == (["n"], [(1,)])
    assert query_lake(settings, "describe memories")[1]
    (tmp_path / "mine.csv").write_text("a,b\n1,2\n")
    assert query_lake(settings, f"select a + b from read_csv('{tmp_path / 'mine.csv'}')",
                      allow_files=True)[1] == [(3,)]
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
