"""Consolidation on a real lake (both catalogs): links, current_memories, validity, chains,
forgetting, idempotency and a crash inside a project's transaction."""

import pytest

from ingest.events import Event
from ingest.windows import Window
from sinks.commit import CommitContext, PendingWindow, commit_windows
from sinks.forget import Selector, forget_memories
from sinks.items import report_to_items
from sinks.lake import Lake
from sinks.links import consolidate_lake, memory_chain
from synth.embeddings import EMBEDDING_MODEL, shared_embedder
from synth.report import SECTIONS

CTX = CommitContext(run_id="run_test", backend="scripted", model="m", prompt_version="v")
SECTION = {"decision": "decisions", "task": "blockers", "outcome": "outcomes",
           "fact": "open_questions"}
SESSIONS = [
    ("s1", 1, [("decision", "Use Redis Streams for the job queue"),
               ("task", "The flaky login test blocks the release")]),
    ("s2", 2, [("decision", "Keep the job queue on Redis Streams"),
               ("outcome", "Fixed the flaky login test; the release is unblocked")]),
    ("s3", 3, [("decision", "Switch the job queue to Postgres SKIP LOCKED instead of Redis")]),
]


def session_window(session, day, said, project="shop", tenant="t"):
    events = tuple(Event(i, f"2026-01-{day:02d}T10:00:{i:02d}.000Z", f"{project}:{session}",
                         "user", "prompt", text) for i, (_, text) in enumerate(said))
    window = Window(f"cc:m:{project}-{session}", "agent", 0, len(said) - 1, events,
                    tenant_id=tenant)
    report = {name: [] for name in SECTIONS}
    for i, (kind, text) in enumerate(said):
        report[SECTION[kind]].append({"summary": text, "ts": None, "evidence": [i],
                                      "result": "success" if kind == "outcome" else None})
    return PendingWindow(window, report_to_items(report, window), CTX)


def write(lake, *windows):
    commit_windows(lake.con, list(windows), embedder=shared_embedder())


def consolidate(lake, run="c", **kw):
    return consolidate_lake(lake.con, "t", run_id=run, model=EMBEDDING_MODEL, **kw)


def ids_by_text(lake):
    return dict(lake.con.execute("SELECT content, memory_id FROM memories").fetchall())


def current(lake):
    rows = lake.con.execute("SELECT content FROM current_memories").fetchall()
    return sorted(row[0] for row in rows)


@pytest.fixture
def lake(any_lake):
    with Lake(any_lake, writer=True) as opened:
        yield opened


def test_three_sessions_leave_the_current_decision_once_and_the_chain_behind(lake):
    write(lake, session_window(*SESSIONS[0]))
    first = consolidate(lake, "c1")
    assert (first.projects, first.looked_at, first.links) == (1, 2, {"distinct": 2})
    write(lake, session_window(*SESSIONS[1]))
    write(lake, session_window(*SESSIONS[2]))
    second = consolidate(lake, "c2")
    assert second.links == {"duplicate": 1, "resolves": 1, "supersedes": 1}
    assert current(lake) == ["Switch the job queue to Postgres SKIP LOCKED instead of Redis",
                             "[success] Fixed the flaky login test; the release is unblocked"]
    ids = ids_by_text(lake)
    redis, postgres = ids["Use Redis Streams for the job queue"], ids[
        "Switch the job queue to Postgres SKIP LOCKED instead of Redis"]
    ended = lake.con.execute("SELECT memory_id, ts_valid_end FROM memories "
                             "WHERE ts_valid_end IS NOT NULL").fetchall()
    assert [(memory, str(end)) for memory, end in ended] == [(redis, "2026-01-03 10:00:00+00:00")]
    # Idempotent: nothing is left to look at, nothing is written again.
    assert consolidate(lake, "c3").links == {}
    assert lake.con.execute("SELECT count(*), count(DISTINCT link_id) FROM memory_links"
                            ).fetchone() == (5, 5)
    chain = memory_chain(lake.con, "t", postgres)
    assert [(row["content"].split()[0], row["state"], row["other_id"]) for row in chain] == [
        ("Use", "superseded by", postgres),
        ("Keep", "duplicate of", redis),
        ("Switch", "current", None)]


def test_a_canonical_memory_counts_where_it_was_said_again(lake):
    write(lake, session_window("s1", 1, [("decision", "Use Redis Streams for the job queue")]))
    write(lake, session_window("s2", 2, [("decision", "Keep the job queue on Redis Streams")]))
    consolidate(lake)
    (seen, first, last, duplicates), = lake.con.execute(
        "SELECT seen_count, first_seen, last_seen, duplicates FROM current_memories").fetchall()
    assert (seen, first.day, last.day) == (2, 1, 2)
    assert [(d["node_id"], d["session_id"], d["evidence_seqs"]) for d in duplicates] == [
        ("cc:m:shop-s2", "shop:s2", [0])]


def test_projects_and_tenants_never_meet(lake):
    said = [("decision", "Use Redis Streams for the job queue")]
    write(lake, session_window("s1", 1, said, project="shop"))
    write(lake, session_window("s2", 2, [("decision", "Keep the job queue on Redis Streams")],
                               project="blog"))
    other = session_window("s3", 3, [("decision", "Keep the job queue on Redis Streams")],
                           tenant="u")
    commit_windows(lake.con, [other], embedder=shared_embedder())
    result = consolidate(lake)
    assert (result.projects, result.links) == (2, {"distinct": 2})
    assert consolidate(lake, project_glob="nothing*").projects == 0


def test_forgetting_a_canonical_memory_forgets_its_duplicates_and_a_forgotten_reversal_revives(
        lake):
    for session in SESSIONS:
        write(lake, session_window(*session))
    consolidate(lake)
    ids = ids_by_text(lake)
    postgres = ids["Switch the job queue to Postgres SKIP LOCKED instead of Redis"]
    forgotten = forget_memories(lake.con, "t", Selector(ids=(postgres,)))
    assert forgotten.memories == 1
    assert "Use Redis Streams for the job queue" in current(lake)
    assert lake.con.execute("SELECT count(*) FROM memories WHERE ts_valid_end IS NOT NULL"
                            ).fetchone() == (0,)
    gone = forget_memories(lake.con, "t", Selector(match="Use Redis Streams"))
    assert gone.memories == 2  # the canonical and the restatement it stands for
    assert "Keep the job queue on Redis Streams" not in ids_by_text(lake)
    assert lake.con.execute("SELECT count(*) FROM memory_links WHERE memory_id IN "
                            "(?, ?) OR target_id IN (?, ?)", [postgres, ids[
                                "Use Redis Streams for the job queue"]] * 2).fetchone() == (0,)


def test_a_crash_inside_a_project_leaves_nothing_and_the_rerun_writes_the_same_links(
        lake, tmp_path):
    for session in SESSIONS:
        write(lake, session_window(*session))

    def crash(point):
        if point == "mid_consolidation":
            raise KeyboardInterrupt(point)

    with pytest.raises(KeyboardInterrupt):
        consolidate(lake, crash_hook=crash)
    assert lake.con.execute("SELECT count(*) FROM memory_links").fetchone() == (0,)
    assert lake.con.execute("SELECT count(*) FROM memories WHERE ts_valid_end IS NOT NULL"
                            ).fetchone() == (0,)
    consolidate(lake)
    after_crash = lake.con.execute("SELECT link_id, relation FROM memory_links ORDER BY 1"
                                   ).fetchall()
    with Lake(tmp_path / "clean", writer=True) as clean:
        for session in SESSIONS:
            write(clean, session_window(*session))
        consolidate(clean)
        assert clean.con.execute("SELECT link_id, relation FROM memory_links ORDER BY 1"
                                 ).fetchall() == after_crash


def test_the_data_team_reads_links_and_current_memories_through_the_sandbox(any_lake, tmp_path):
    from sinks.query import run_query, sandbox

    with Lake(any_lake, writer=True) as lake:
        for session in SESSIONS:
            write(lake, session_window(*session))
        consolidate(lake)
    with Lake(any_lake) as reader:
        (tmp_path / "scratch").mkdir()
        sandbox(reader.con, reader.readable, str(tmp_path / "scratch"))
        _, rows, _ = run_query(reader.con, "SELECT relation, count(*) FROM memory_links "
                                           "GROUP BY 1 ORDER BY 1")
        assert rows == [("distinct", 2), ("duplicate", 1), ("resolves", 1), ("supersedes", 1)]
        _, rows, _ = run_query(reader.con, "SELECT memory_type, seen_count FROM current_memories "
                                           "ORDER BY 1")
        assert rows == [("decision", 1), ("outcome", 1)]
