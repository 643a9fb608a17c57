"""What `interview ui` reads, on real lakes (both catalogs): projects, a project's timeline and
its memories per day, the per-snapshot cache, the nodes with their watermarks, the last runs."""

from datetime import UTC, date, datetime

import pytest

from ingest.events import Event
from ingest.nodes import NodeRef
from ingest.windows import Window
from sinks.inbox import accept_windows
from sinks.items import report_to_items
from sinks.lake import Lake
from sinks.memory_browse import (
    BrowseCache,
    Slice,
    memories_per_day,
    neighbours,
    project_memories,
    projects,
)
from sinks.nodes import record_nodes
from sinks.operations import last_runs, node_overview
from sinks.runs import finish_run, start_run
from synth.report import SECTIONS
from tests.sinks.test_commit import CTX, commit_one


def window(node: str, start: int, ts: str, tenant: str = "t") -> Window:
    session = f"p:{node}"  # memories take their session from their events: one per node here
    events = (Event(start, ts, session, "user", "prompt", "a" * 80),
              Event(start + 1, ts, session, "assistant", "reply", "b" * 80))
    return Window(node, "agent", start, start + 9, events, tenant_id=tenant)


def write(lake, node: str, start: int, ts: str | None, sections: dict, tenant: str = "t"):
    """One window of `node` whose report has `sections` {section: [summary, ...]} at `ts`."""
    w = window(node, start, ts or "", tenant)  # no time in the events either: a memory in no day
    body = {name: [] for name in SECTIONS}
    for section, summaries in sections.items():
        body[section] = [{"summary": text, "ts": ts, "ts_start": ts} for text in summaries]
    return commit_one(lake.con, w, report_to_items(body, w), CTX)


@pytest.fixture
def browse_lake(lake_dir):
    with Lake(lake_dir, writer=True) as lake:
        record_nodes(lake.con, "t", [(NodeRef("claude-code", "cc:m:api1", "/t/api1.jsonl",
                                                "api"), 40),
                                     (NodeRef("claude-code", "cc:m:web1", "/t/web1.jsonl",
                                                "web"), 12)])
        write(lake, "cc:m:api1", 0, "2026-03-01T09:00:00.000Z",
              {"worked_on": ["Worked on the invoice export"], "decisions": ["Use Postgres"]})
        write(lake, "cc:m:api1", 10, "2026-03-03T23:30:00.000-05:00",  # 04:30 UTC on the 4th
              {"outcomes": ["Fixed the export timeout"]})
        write(lake, "cc:m:api1", 20, None, {"blockers": ["Waiting on the billing team"]})
        write(lake, "cc:m:web1", 0, "2026-03-02T12:00:00.000Z",
              {"preferences_learned": ["The user likes small pull requests"]})
        write(lake, "cc:m:pushed", 0, "2026-03-05T08:00:00.000Z",  # no row in `nodes`
              {"decisions": ["Move the nightly job to Friday"]})
        write(lake, "cc:m:api1", 0, "2026-03-01T09:00:00.000Z",  # another tenant, same node
              {"decisions": ["Other tenant's secret plan"]}, tenant="u")
        yield lake


def test_projects_count_memories_per_type(browse_lake):
    scratch = BrowseCache().connection(browse_lake.con, "t")
    found = {entry["project"]: entry for entry in projects(scratch)}
    assert set(found) == {"api", "web", ""}
    api = found["api"]
    assert (api["nodes"], api["memories"]) == (1, 4)
    assert api["types"] == {"episode": 1, "decision": 1, "outcome": 1, "task": 1}
    assert api["first_at"] == datetime(2026, 3, 1, 9, tzinfo=UTC)
    assert api["last_at"] == datetime(2026, 3, 4, 4, 30, tzinfo=UTC)
    assert found[""]["types"] == {"decision": 1}
    assert [entry["project"] for entry in projects(scratch)][0] == "api"  # the busiest first


def test_a_project_timeline_is_newest_first_filtered_and_paged(browse_lake):
    scratch = BrowseCache().connection(browse_lake.con, "t")
    rows, total = project_memories(scratch, Slice("api"))
    assert total == 4
    kinds = [row["memory_type"] for row in rows]
    assert kinds[0] == "outcome" and set(kinds[1:3]) == {"decision", "episode"}
    assert kinds[3] == "task" and rows[3]["ts_valid_start"] is None  # no time: last
    page, total = project_memories(scratch, Slice("api"), limit=2, offset=2)
    assert total == 4 and [row["memory_id"] for row in page] == [r["memory_id"] for r in rows[2:]]
    typed, total = project_memories(scratch, Slice("api", types=("decision", "task")))
    assert total == 2 and {row["memory_type"] for row in typed} == {"decision", "task"}
    dated, total = project_memories(scratch, Slice(
        "api", since=datetime(2026, 3, 2, tzinfo=UTC), until=datetime(2026, 3, 5, tzinfo=UTC)))
    assert total == 1 and dated[0]["content"].endswith("Fixed the export timeout")
    assert project_memories(scratch, Slice("nothing-here")) == ([], 0)
    pushed, _ = project_memories(scratch, Slice(""))
    assert [row["content"] for row in pushed] == ["Move the nightly job to Friday"]


def test_memories_per_day_are_utc_days(browse_lake):
    scratch = BrowseCache().connection(browse_lake.con, "t")
    assert memories_per_day(scratch, Slice("api")) == [
        (date(2026, 3, 1), "decision", 1), (date(2026, 3, 1), "episode", 1),
        (date(2026, 3, 4), "outcome", 1)]  # 23:30 at UTC-5 is the 4th; no time: in no day
    assert memories_per_day(scratch, Slice("api", types=("outcome",))) == [
        (date(2026, 3, 4), "outcome", 1)]


def test_neighbours_are_the_memories_of_the_same_node_in_time_order(browse_lake):
    scratch = BrowseCache().connection(browse_lake.con, "t")
    rows, _ = project_memories(scratch, Slice("api"))
    outcome = next(row for row in rows if row["memory_type"] == "outcome")
    around = neighbours(scratch, outcome["memory_id"], before=1, after=1)
    assert [row["memory_type"] for row in around][1:] == ["outcome", "task"]  # no time: last
    assert len(neighbours(scratch, outcome["memory_id"])) == 4
    assert neighbours(scratch, "no-such-id") == []


def test_the_cache_follows_the_lake_and_keeps_tenants_apart(browse_lake):
    cache = BrowseCache(tenants=1)
    first = cache.connection(browse_lake.con, "t")
    assert cache.connection(browse_lake.con, "t") is first  # no new snapshot: the same copy
    other = cache.connection(browse_lake.con, "u")
    assert [row["content"] for row in project_memories(other, Slice(""))[0]] == [
        "Other tenant's secret plan"]  # its node has no `nodes` row for tenant u
    again = cache.connection(browse_lake.con, "t")
    assert all("secret" not in row["content"] for row in project_memories(again, Slice("api"))[0])
    write(browse_lake, "cc:m:web1", 10, "2026-03-06T10:00:00.000Z",
          {"worked_on": ["Worked on the dark mode toggle"]})
    fresh = cache.connection(browse_lake.con, "t")
    assert project_memories(fresh, Slice("web"))[1] == 2
    cache.close()


def test_node_overview_lists_trail_and_pushed_nodes_with_their_watermarks(browse_lake):
    events = (Event(0, "2026-03-07T10:00:00.000Z", "s", "user", "prompt", "c" * 80),)
    accept_windows(browse_lake.con, [Window("cx:m:remote", "agent", 0, 4, events, "t")])
    nodes = {row["node_id"]: row for row in node_overview(browse_lake.con, "t")}
    assert set(nodes) == {"cc:m:api1", "cc:m:web1", "cc:m:pushed", "cx:m:remote"}
    api = nodes["cc:m:api1"]
    assert (api["project"], api["lines"], api["last_seq"], api["pending"], api["memories"]) == (
        "api", 40, 29, 10, 4)
    assert api["noise"] == 3 * 8  # each window of 10 seqs holds 2 events
    remote = nodes["cx:m:remote"]
    assert (remote["source"], remote["project"], remote["last_seq"], remote["pending"],
            remote["memories"]) == ("cx", None, 4, None, 0)
    assert "cc:m:api1" in {row["node_id"] for row in node_overview(browse_lake.con, "u")}
    assert node_overview(browse_lake.con, "nobody") == []


def test_last_runs_carry_their_counts(browse_lake):
    start_run(browse_lake.con, "run_a", "run", "scripted", "v")
    assert last_runs(browse_lake.con)[0]["counts"] == {}  # still running
    finish_run(browse_lake.con, "run_a", "finished", "m", {"windows": 3, "memories_written": 7},
               [])
    [run] = last_runs(browse_lake.con, limit=1)
    assert (run["run_id"], run["status"], run["counts"]) == (
        "run_a", "finished", {"windows": 3, "memories_written": 7})
