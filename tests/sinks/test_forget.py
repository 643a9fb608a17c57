"""`interview forget`: the selected memories go with their embeddings in one transaction, an
audit row stays, their windows are never written again, and `--purge` leaves no byte of them."""

import hashlib
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from jobs.cli import main
from sinks import forget as forget_module
from sinks.commit import ItemVectors, PendingWindow, commit_windows
from sinks.forget import Selector, forget_memories, preview_forget
from sinks.items import report_to_items
from sinks.lake import Lake
from tests.sinks.test_commit import CTX, report, window

PLANTED = "PLANTED-ORCHID-7731"


def commit(con, w, rep, *, vectors=True):
    items = report_to_items(rep, w)
    given = ItemVectors("test-model", {item.index: [0.1, 0.2, 0.3] for item in items}) if vectors else None
    return commit_windows(con, [PendingWindow(w, items, CTX, given)])[0]


def count(con, table, where="true"):
    return con.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0]


@pytest.fixture
def lake(lake_dir):
    with Lake(lake_dir, writer=True) as opened:
        commit(opened.con, window(0, 9, node="cc:m:n1"),
               report(f"Rotated the {PLANTED} deploy key", "Kept the Postgres ledger"))
        commit(opened.con, window(10, 19, node="cc:m:n1"), report("Moved CI to the 2-core runners"))
        commit(opened.con, window(0, 9, node="cc:other:n2"), report("Pinned DuckDB to 1.5.5"))
        yield opened


def test_a_selector_is_required_and_match_is_not_empty(lake):
    with pytest.raises(Exception, match="say what to forget"):
        preview_forget(lake.con, "t", Selector())
    with pytest.raises(Exception, match="--match is empty"):
        preview_forget(lake.con, "t", Selector(match="  "))


def test_preview_writes_nothing(lake):
    snapshots = count(lake.con, "lake.snapshots()")
    preview = preview_forget(lake.con, "t", Selector(match=PLANTED.lower()))
    assert (preview.memories, preview.windows, preview.done) == (1, 1, False)
    assert PLANTED in preview.preview[0]["content"]
    assert count(lake.con, "lake.snapshots()") == snapshots and count(lake.con, "memories") == 4


def test_selectors_combine(lake):
    assert preview_forget(lake.con, "t", Selector(node_glob="cc:m:*")).memories == 3
    assert preview_forget(lake.con, "t", Selector(node_glob="cc:*", match="duckdb")).memories == 1
    later = datetime(2026, 1, 1, 10, 5, tzinfo=UTC)
    assert preview_forget(lake.con, "t", Selector(before=later)).memories == 0
    assert preview_forget(lake.con, "other-tenant", Selector(node_glob="*")).memories == 0
    [memory_id] = [row[0] for row in lake.con.execute(
        "SELECT memory_id FROM memories WHERE content LIKE '%DuckDB%'").fetchall()]
    assert preview_forget(lake.con, "t", Selector(ids=(memory_id,))).memories == 1


def test_forget_removes_memories_and_embeddings_with_an_audit_row(lake):
    result = forget_memories(lake.con, "t", Selector(match=PLANTED), purge=False)
    assert (result.memories, result.windows, result.done) == (1, 1, True)
    assert count(lake.con, "memories", f"content LIKE '%{PLANTED}%'") == 0
    assert count(lake.con, "memories") == 3
    assert count(lake.con, "memory_embeddings") == 3
    audit = lake.con.execute("SELECT selector, memories, windows, purge FROM forgets").fetchall()
    digest = hashlib.sha256(PLANTED.encode()).hexdigest()
    assert audit == [(f'{{"match_sha256":"{digest}"}}', 1, 1, 0)]  # never the forgotten text
    assert lake.con.execute("SELECT node_id, cursor_from, cursor_to FROM forgotten_spans").fetchall() \
        == [("cc:m:n1", 0, 9)]


def test_a_forgotten_window_is_never_written_again(lake):
    forget_memories(lake.con, "t", Selector(match=PLANTED))
    # The same events cut another way (a rerun with other window sizes), and a later window.
    recut = commit(lake.con, window(5, 14, node="cc:m:n1"), report(f"Again: {PLANTED} rotated"))
    assert (recut.status, recut.memories_written, recut.forgotten) == ("committed", 0, 1)
    later = commit(lake.con, window(20, 29, node="cc:m:n1"), report("Shipped the release on Friday"))
    assert later.memories_written == 1
    other_node = commit(lake.con, window(5, 14, node="cc:other:n2"), report(f"Other node {PLANTED}"))
    assert other_node.memories_written == 1
    assert count(lake.con, "memories", f"node_id = 'cc:m:n1' AND content LIKE '%{PLANTED}%'") == 0


def test_a_crash_inside_the_forget_leaves_everything(lake, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("crash before the audit row")

    monkeypatch.setattr(forget_module, "insert", boom)
    with pytest.raises(RuntimeError):
        forget_memories(lake.con, "t", Selector(match=PLANTED))
    assert count(lake.con, "memories") == 4 and count(lake.con, "memory_embeddings") == 4
    assert count(lake.con, "forgets") == 0
    monkeypatch.undo()
    assert forget_memories(lake.con, "t", Selector(match=PLANTED)).memories == 1
    assert forget_memories(lake.con, "t", Selector(match=PLANTED)).memories == 0  # rerun: no-op


def lake_bytes_hold(lake_dir, needle: str, request=None) -> list[str]:
    """The files of the lake holding `needle`: the lake folder; for a Postgres lake, its data
    folder and its database's own files in the server (after a checkpoint writes them)."""
    folders = [lake_dir] if not isinstance(lake_dir, str) else [
        request.getfixturevalue("tmp_path") / "lake-data", postgres_database_folder(lake_dir, request)]
    return [str(path) for folder in folders for path in folder.rglob("*")
            if path.is_file() and needle.encode() in path.read_bytes()]


def postgres_database_folder(url: str, request):
    import psycopg

    server = request.getfixturevalue("postgres")
    with psycopg.connect(url.removeprefix("ducklake:postgres:"), autocommit=True) as con:
        con.execute("CHECKPOINT")
        oid = con.execute("SELECT oid FROM pg_database WHERE datname = current_database()").fetchone()[0]
    return server.folder / "data" / "base" / str(oid)


def cli(*args):
    return CliRunner().invoke(main, [*args, "--tenant", "t"], catch_exceptions=False)


def test_purge_leaves_no_byte_of_the_forgotten_text(lake_dir, request):
    with Lake(lake_dir, writer=True) as lake:
        commit(lake.con, window(0, 9), report(f"Rotated the {PLANTED} deploy key", "Kept the ledger"))
        lake.con.execute("CALL ducklake_flush_inlined_data('lake')").fetchall()  # one in Parquet
        commit(lake.con, window(10, 19), report(f"Second note on {PLANTED}", "Moved CI runners"))
    assert lake_bytes_hold(lake_dir, PLANTED, request)

    dry = cli("forget", "--match", PLANTED, "--lake", str(lake_dir))
    assert dry.exit_code == 0 and "would forget 2 memories of 2 windows" in dry.output
    assert "add --yes" in dry.output
    forgot = cli("forget", "--match", PLANTED, "--yes", "--lake", str(lake_dir))
    assert "forgot 2 memories" in forgot.output
    assert lake_bytes_hold(lake_dir, PLANTED, request), "without --purge, time travel still holds them"

    purged = cli("forget", "--match", PLANTED, "--yes", "--purge", "--lake", str(lake_dir))
    assert purged.exit_code == 0 and "purged:" in purged.output and "catalog vacuumed" in purged.output
    assert lake_bytes_hold(lake_dir, PLANTED, request) == []
    with Lake(lake_dir) as lake:
        assert sorted(r[0] for r in lake.con.execute("SELECT content FROM memories").fetchall()) \
            == ["Kept the ledger — rationale: because", "Moved CI runners — rationale: because"]
        assert count(lake.con, "forgets") == 2


def test_nothing_matching_exits_4(lake_dir):
    with Lake(lake_dir, writer=True) as lake:
        commit(lake.con, window(), report("Kept the Postgres ledger"))
    result = cli("forget", "--match", "no such text", "--lake", str(lake_dir))
    assert result.exit_code == 4 and "would forget 0 memories" in result.output
    refused = CliRunner().invoke(main, ["forget", "--lake", str(lake_dir), "--tenant", "t"])
    assert refused.exit_code == 1 and "say what to forget" in refused.output
