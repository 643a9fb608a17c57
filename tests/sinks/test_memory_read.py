"""Reading memories back by id: an id no memory can have (a control character) is a clear error on
every way in (`show`, `forget --id`), never a traceback."""

import json

import pytest
from click.testing import CliRunner

from ingest.errors import UsageError
from jobs.cli import main
from sinks.lake import Lake
from sinks.memory_read import memory_records


@pytest.fixture
def lake(tmp_path):
    body = {"node_id": "cc:m:ids", "agent_id": "a", "cursor_from": 0, "cursor_to": 1,
            "events": [{"seq": 0, "ts": "2026-01-01T10:00:00Z", "role": "user", "kind": "prompt",
                        "content": "Pin DuckDB to 1.5.5 for the whole fleet"}]}
    (tmp_path / "w.json").write_text(json.dumps(body))
    lake_dir = tmp_path / "lake"
    done = CliRunner().invoke(main, ["submit", str(tmp_path / "w.json"), "--lake", str(lake_dir),
                                     "--backend", "none"])
    assert done.exit_code == 0, done.output
    return lake_dir


@pytest.mark.parametrize("bad", ["\x1f", "\x00", "\n", "\x7f", "\x85"])
def test_an_id_with_a_control_character_is_a_clear_error(lake, bad):
    memory_id = f"f7a913ce{bad}bb4f"
    with Lake(lake, create=False) as opened, pytest.raises(
            UsageError, match=rf"holds a control character \(U\+{ord(bad):04X}\)"):
        memory_records(opened.con, "local", ["fine", memory_id])
    if bad == "\x00":
        return  # an argv cannot hold NUL
    for args in (["show", memory_id], ["forget", "--id", memory_id],
                 ["forget", "--id", memory_id, "--yes"]):
        result = CliRunner().invoke(main, [*args, "--lake", str(lake)])
        assert result.exit_code == 1, result.output
        assert "control character" in result.output and "memory ids are UUIDs" in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_long_id_is_cut_in_the_message():
    from sinks.memory_read import check_memory_ids

    with pytest.raises(UsageError) as refused:
        check_memory_ids(["x" * 100_000 + "\x1f"])
    assert len(str(refused.value)) < 400 and "100,001 characters" in str(refused.value)
