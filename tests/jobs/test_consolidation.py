"""Memories that stay current, end to end: three sessions of one project through `interview run`
(session 2 restates session 1's job-queue decision, session 3 reverses it), read back through
recall, MCP, the session digest and `interview show`; `interview consolidate` killed with -9
inside a project and rerun; the model judge through the backend's actors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from click.testing import CliRunner

from jobs.api import recall, run_nodes, session_digest
from jobs.cli import main
from jobs.settings import load_settings
from sinks.lake import Lake
from tests import scripted
from tests.jobs.test_mcp import call_mcp, payload
from tests.serving import ROOT

SESSIONS = [
    ("2026-03-02T09:00:00.000Z", "We need a job queue for the nightly exports. Decision: use Redis "
     "Streams for the job queue, because we already run Redis in production."),
    ("2026-03-09T09:00:00.000Z", "Picking the exports work up again. Decision: the job queue "
     "stays on Redis Streams as decided last week, because nothing changed since."),
    ("2026-03-16T09:00:00.000Z", "Redis lost queued jobs on failover twice. Decision: switch the "
     "job queue from Redis Streams to Postgres SKIP LOCKED, because it is one less service."),
]
REVERSED = "use Redis Streams for the job queue"
RESTATED = "the job queue stays on Redis Streams as decided last week"
CURRENT = "switch the job queue from Redis Streams to Postgres SKIP LOCKED"


def decisions(prompt) -> str:
    """A decision per `Decision: X, because Y.` line, citing it, at its time."""
    items = []
    for line in prompt.user.splitlines():
        if "Decision: " not in line:
            continue
        said = line.split("Decision: ", 1)[1]
        summary, _, why = said.partition(", because ")
        ts = line.split("] ", 1)[1].split(" ", 1)[0]
        items.append({"summary": summary, "rationale": why.rstrip(".") or None, "ts": ts,
                      "evidence": scripted.cited(line)})
    return json.dumps({"worked_on": [], "decisions": items, "outcomes": [], "blockers": [],
                       "open_questions": [], "preferences_learned": []})


def write_session(root, index: int) -> None:
    ts, text = SESSIONS[index]
    lines = [{"type": "user", "sessionId": f"s{index + 1}", "uuid": f"u{index}-0", "timestamp": ts,
              "message": {"role": "user", "content": text}},
             {"type": "assistant", "sessionId": f"s{index + 1}", "uuid": f"u{index}-1",
              "timestamp": ts.replace("09:00:00", "09:01:00"),
              "message": {"role": "assistant", "content": "Noted; I will follow that decision in "
                                                          "the code from now on."}}]
    path = root / "shop" / f"session-{index + 1}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def contents(hits) -> list[str]:
    return [hit.content if hasattr(hit, "content") else hit["content"] for hit in hits]


def said(texts: list[str], statement: str) -> int:
    return sum(text.startswith(statement) for text in texts)


def test_a_restated_then_reversed_decision_reads_back_once_and_current(ray_cluster, tmp_path):
    root, lake = tmp_path / "projects", tmp_path / "lake"
    settings = load_settings(None, lake=lake, claude_code_roots=[str(root)],
                             sources=["claude-code"], all_projects=True, since_hours=0, flush=True,
                             tenant_id="t")
    summaries = []
    for index in range(3):  # one session, then one run, as a nightly job would see them
        write_session(root, index)
        summaries.append(run_nodes(settings, backend_factory=scripted.factory(decisions)))
    assert [s.memories_written for s in summaries] == [1, 1, 1]
    assert [s.links for s in summaries] == [{"distinct": 1}, {"duplicate": 1},
                                            {"supersedes": 1}]
    with Lake(lake) as opened:
        ids = dict(opened.con.execute("SELECT content, memory_id FROM memories").fetchall())
    current_id = next(i for text, i in ids.items() if text.startswith(CURRENT))

    hits = contents(recall(settings, "job queue decision"))
    assert (said(hits, CURRENT), said(hits, REVERSED), said(hits, RESTATED)) == (1, 0, 0)
    history = contents(recall(settings, "job queue decision", history=True))
    assert (said(history, CURRENT), said(history, REVERSED), said(history, RESTATED)) == (1, 1, 1)

    _, results = call_mcp(lake, [("search_memories", {"query": "job queue decision"}),
                                 ("search_memories", {"query": "job queue", "history": True})])
    found = contents(payload(results[0])["hits"])
    assert (said(found, CURRENT), said(found, REVERSED)) == (1, 0)
    assert said(contents(payload(results[1])["hits"]), REVERSED) == 1

    digest = session_digest(settings, "shop")
    assert digest.count("Redis Streams") == 1 and CURRENT in digest  # the current one only
    assert REVERSED not in digest and RESTATED not in digest
    assert REVERSED in session_digest(settings, "shop", history=True)

    shown = CliRunner().invoke(main, ["show", current_id, "--lake", str(lake), "--tenant", "t"])
    assert shown.exit_code == 0, shown.output
    chain = shown.output.split("chain (3 memories, oldest first):", 1)[1]
    lines = [line for line in chain.splitlines() if line.startswith("  ") and "[decision]" in line]
    assert [line.lstrip(" *").split()[0] for line in lines] == [
        "2026-03-02", "2026-03-09", "2026-03-16"]
    assert f"superseded by {current_id} at 2026-03-16 09:00" in lines[0]
    assert "duplicate of" in lines[1] and "current" in lines[2] and lines[2].startswith("  *")


def consolidate_cli(lake, crash_at: str | None = None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("INTERVIEW_CRASH")}
    env["PYTHONPATH"] = str(ROOT)
    env["INTERVIEW_CONSOLIDATION__BATCH_MEMORIES"] = "3"  # a transaction per project
    if crash_at:
        env["INTERVIEW_CRASH_AT"] = crash_at
    return subprocess.run([sys.executable, "-m", "jobs.cli", "consolidate", "--lake", str(lake),
                           "--tenant", "t", "--backend", "none", "--json"],
                          capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)


def fill(lake) -> None:
    """Two projects of three sessions each (the same story told of other things: a tenant's
    equal texts are one memory), committed, not consolidated."""
    from sinks.commit import commit_windows
    from synth.embeddings import shared_embedder
    from tests.sinks.test_links import SESSIONS as STORY
    from tests.sinks.test_links import session_window

    def retold(said):
        return [(kind, text.replace("job queue", "mail queue").replace("login", "signup"))
                for kind, text in said]

    with Lake(lake, writer=True) as opened:
        windows = [session_window(session, day, said, project="shop")
                   for session, day, said in STORY]
        windows += [session_window(session, day, retold(said), project="blog")
                    for session, day, said in STORY]
        commit_windows(opened.con, windows, embedder=shared_embedder())


def links(lake) -> list[tuple]:
    with Lake(lake) as opened:
        return opened.con.execute("SELECT link_id, memory_id, target_id, relation FROM "
                                  "memory_links ORDER BY link_id").fetchall()


def test_consolidate_killed_anywhere_then_rerun_writes_the_same_links_once(any_lake, tmp_path):
    clean = tmp_path / "clean"
    fill(clean)
    done = consolidate_cli(clean)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["links"] == {"distinct": 4, "duplicate": 2, "resolves": 2,
                                                "supersedes": 2}
    expected = links(clean)
    fill(any_lake)
    first = consolidate_cli(any_lake, crash_at="mid_consolidation")
    assert first.returncode == -signal.SIGKILL
    assert links(any_lake) == []  # the project's transaction never committed
    second = consolidate_cli(any_lake, crash_at="mid_consolidation:2")
    assert second.returncode == -signal.SIGKILL
    assert 0 < len(links(any_lake)) < len(expected)  # the first project is in, the second not
    rerun = consolidate_cli(any_lake)
    assert rerun.returncode == 0, rerun.stderr
    assert json.loads(rerun.stdout)["projects"] == 1
    assert links(any_lake) == expected  # deterministic ids: the same links, none twice
    again = consolidate_cli(any_lake)
    assert json.loads(again.stdout)["links"] == {} and links(any_lake) == expected
    with Lake(any_lake) as opened:
        assert opened.con.execute("SELECT status FROM runs ORDER BY started_at").fetchall() == [
            ("abandoned",), ("abandoned",), ("finished",), ("finished",)]


def test_a_model_backend_decides_pairs_in_one_batch_through_its_actors(ray_cluster, tmp_path):
    from jobs.consolidation import consolidate_now

    lake = tmp_path / "lake"
    fill(lake)
    def judge(prompt) -> str:
        """Same when B keeps what A named, updates when B switches or fixes, else unrelated."""
        assert prompt.user.startswith("A (") and "\nB (" in prompt.user
        a, b = (line.split(": ", 1)[1] for line in prompt.user.splitlines()[:2])
        if "Switch" in b or "Fixed" in b:
            return json.dumps({"relation": "updates"})
        same = "Redis Streams" in a and "Redis Streams" in b
        return json.dumps({"relation": "same" if same else "unrelated"})

    settings = load_settings(None, lake=lake, tenant_id="t", backend="openai")
    result = consolidate_now(settings, backend_factory=scripted.factory(judge))
    assert result.judge == "model:scripted-v1"
    assert result.links == {"distinct": 4, "duplicate": 2, "resolves": 2, "supersedes": 2}
    with Lake(lake) as opened:
        assert {row[0] for row in opened.con.execute(
            "SELECT decided_by FROM memory_links").fetchall()} == {"model:scripted-v1"}
