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
        result = compact(lake, keep_hours=0)
        assert result.files_after >= 1 and result.snapshots_expired > 0
        assert state(lake) == before
        fill(lake, 8)  # and writing goes on after it
        assert len(state(lake)) == 8
    with Lake(lake_dir) as reader:
        assert lake_info(reader)["rows"]["memories"] == 8
        assert "ATTACH 'ducklake:sqlite:" in lake_info(reader)["attach"]


def test_crash_mid_compaction_then_rerun(lake_dir):
    def hook(point):
        if point == "mid_compaction":
            raise Crash(point)

    with Lake(lake_dir, writer=True) as lake:
        fill(lake)
        before = state(lake)
        with pytest.raises(Crash):
            compact(lake, keep_hours=0, crash_hook=hook)
        assert state(lake) == before
        compact(lake, keep_hours=0)
        assert state(lake) == before
