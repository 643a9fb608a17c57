"""`interview mcp` through the SDK's real stdio client, and the `interview context` digest, whose
round trip through a trail never becomes a memory again."""

from __future__ import annotations

import asyncio
import json
import os
import sys

from tests.serving import ROOT
from tests.sinks.test_recall import PLANTED, recall_lake  # noqa: F401 - the shared lake fixture

QUERIES = ["why are the ledger and the memories written together",
           "atomic write so data is not lost when the process dies",
           "DuckLake transaction"]


def call_mcp(lake, calls, *, tenant="t", max_chars=8000):
    """Start `interview mcp` over stdio, list the tools, make `calls` [(tool, arguments)]."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "jobs.cli", "mcp", "--lake", str(lake), "--tenant", tenant,
              "--max-chars", str(max_chars)],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=str(ROOT))

    async def session():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            tools = await client.list_tools()
            results = []
            for name, arguments in calls:
                results.append(await client.call_tool(name, arguments))
            return tools, results

    with open(os.devnull, "w"):
        return asyncio.run(session())


def payload(result) -> dict:
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


def test_the_tools_answer_a_real_client(recall_lake):  # noqa: F811
    root, planted = recall_lake
    calls = [("search_memories", {"query": query}) for query in QUERIES]
    calls += [("search_memories", {"query": "ledger", "types": ["decision"], "limit": 3}),
              ("get_memories", {"ids": [planted, "no-such-id"]}),
              ("timeline", {"memory_id": planted, "before": 2, "after": 2}),
              ("search_memories", {"query": "   "}),
              ("search_memories", {"query": "x", "types": ["gossip"]}),
              ("timeline", {}),
              ("search_memories", {"query": "x", "since": "last tuesday"})]
    tools, results = call_mcp(root, calls)
    names = {tool.name for tool in tools.tools}
    assert names == {"search_memories", "timeline", "get_memories"}
    assert all(tool.description and tool.input_schema["properties"] for tool in tools.tools)
    for result in results[:3]:  # the planted decision in the top 3, as `interview recall`
        hits = payload(result)["hits"]
        assert planted in [hit["memory_id"] for hit in hits[:3]], [h["content"] for h in hits]
    typed = payload(results[3])["hits"]
    assert [hit["memory_id"] for hit in typed] == [planted] and typed[0]["window_from"] == 5000
    records = payload(results[4])
    assert [row["memory_id"] for row in records["memories"]] == [planted]
    assert records["not_found"] == ["no-such-id"] and PLANTED in records["memories"][0]["content"]
    around = payload(results[5])["memories"]
    assert planted in [row["memory_id"] for row in around] and 1 <= len(around) <= 5
    errors = results[6:]
    assert all(result.is_error for result in errors)
    texts = [result.content[0].text for result in errors]
    assert "query is empty" in texts[0] and "unknown memory type(s) ['gossip']" in texts[1]
    assert "exactly one of memory_id or session" in texts[2] and "is not a date" in texts[3]
    assert not any("Traceback" in text for text in texts)


def test_answers_are_capped_with_a_note_and_tenants_never_mix(recall_lake):  # noqa: F811
    root, planted = recall_lake
    _, (small,) = call_mcp(root, [("search_memories", {"query": "bug refactored", "limit": 50})],
                           max_chars=600)
    answer = payload(small)
    assert answer["hits"] and answer["left_out"] > 0 and "left out" in answer["note"]
    assert len(json.dumps(answer["hits"][:-1])) <= 600
    _, (foreign,) = call_mcp(root, [("get_memories", {"ids": [planted]})], tenant="other")
    assert payload(foreign)["memories"] == [] and payload(foreign)["not_found"] == [planted]


def test_every_answer_is_within_the_cap_and_odd_ids_are_clear_errors(recall_lake):  # noqa: F811
    """The cap counted only the items (compact JSON), not the answer the client reads: limit 50
    came back at 9,020 characters against 8,000, and get_memories echoed a 1 MB id whole. An id
    with U+001F was a traceback."""
    root, planted = recall_lake
    huge = "x" * 1_000_000
    calls = [("search_memories", {"query": "bug refactored", "limit": 50}),
             ("get_memories", {"ids": [planted, huge]}),
             ("get_memories", {"ids": [f"mem{chr(31)}1"]}),
             ("timeline", {"memory_id": f"a{chr(1)}b"}),
             ("timeline", {"memory_id": huge})]
    _, results = call_mcp(root, calls, max_chars=8000)
    assert all(len(result.content[0].text) <= 8000 for result in results), [
        len(result.content[0].text) for result in results]
    hits = payload(results[0])
    assert hits["left_out"] > 0 and "left out" in hits["note"] and len(hits["hits"]) > 3
    echoed = payload(results[1])
    assert [row["memory_id"] for row in echoed["memories"]] == [planted]
    assert echoed["not_found"][0].startswith("xxx") and len(echoed["not_found"][0]) < 120
    for result, char in ((results[2], "U+001F"), (results[3], "U+0001")):
        text = result.content[0].text
        assert result.is_error and f"holds a control character ({char})" in text, text
        assert "Traceback" not in text and "joined()" not in text
    assert results[4].is_error and "1,000,000 characters" in results[4].content[0].text


def test_capped_keeps_the_whole_answer_under_the_cap():
    from datetime import UTC, datetime

    from jobs.agents.mcp_server import answer_size, capped

    row = {"memory_id": "m", "content": "ä\n\"" * 500, "metadata": '{"a": 1}',
           "created_at": datetime(2026, 1, 1, tzinfo=UTC)}
    for limit in (500, 800, 3000, 8000):
        for items, missing in (([row] * 30, ()), ([row], ["y" * 5000] * 100), ([], ["z"] * 100)):
            answer = capped(items, limit, "memories", *([missing] if missing else []))
            assert answer_size(answer) <= limit, (limit, len(items), len(missing))
            if items:  # one memory always fits, its text cut to fit
                assert answer["memories"] and answer["memories"][0]["content"].endswith("…")
            if answer["left_out"] or len(answer.get("not_found", missing)) < len(missing):
                assert "to keep this answer under" in answer["note"]


def test_the_reader_is_sandboxed_like_sql(recall_lake):  # noqa: F811
    import duckdb
    import pytest

    from jobs.agents.mcp_server import MemoryReader
    from jobs.http.auth import local_key
    from jobs.settings import load_settings

    root, _ = recall_lake
    local_key(root, "t")
    reader = MemoryReader(load_settings(lake=root, tenant_id="t"))
    scratch = reader.read(lambda con: con.execute(
        "SELECT current_setting('temp_directory')").fetchone()[0])
    assert "interview-mcp-" in scratch and os.listdir(scratch) == []
    try:
        with pytest.raises(duckdb.PermissionException):
            reader.read(lambda con: con.execute(
                f"SELECT * FROM read_text('{root}/server.key')").fetchall())
    finally:
        reader.close()
    assert not os.path.exists(scratch)


def test_a_missing_lake_is_a_tool_error(tmp_path):
    _, (result,) = call_mcp(tmp_path / "nothing", [("search_memories", {"query": "x"})])
    assert result.is_error and "no lake at" in result.content[0].text


def test_the_digest_is_capped_newest_first_and_never_becomes_a_memory(ray_cluster, lake_dir,
                                                                      trail_root):
    from ingest.nodes import ReadOptions
    from ingest.sources import read_node
    from jobs.api import discover_nodes, run_nodes, session_digest
    from jobs.settings import load_settings
    from tests import scripted

    settings = load_settings(None, lake=lake_dir, claude_code_roots=[str(trail_root)],
                             sources=["claude-code"], all_projects=True, since_hours=0, flush=True,
                             max_windows=50, embeddings={"enabled": False})
    summary = run_nodes(settings, backend_factory=scripted.factory())
    assert summary.memories_written > 0, summary
    # Equal decisions of two projects are one memory (content dedup): take a project that got one.
    from sinks.lake import Lake

    with Lake(lake_dir, create=False) as lake:
        (project,) = lake.con.execute(
            "SELECT min(n.project) FROM memories m JOIN nodes n USING (node_id) "
            "WHERE m.memory_type = 'decision'").fetchone()
    digest = session_digest(settings, project, max_chars=900)
    assert digest.startswith('<memory-context source="trail-interview"')
    assert digest.endswith("</memory-context>") and len(digest) <= 900
    assert "Recent decisions:" in digest
    sections = digest.split(":\n")[1:]
    for section in sections:  # newest first within each section
        days = [line[2:12] for line in section.splitlines() if line.startswith("- ")]
        assert days == sorted(days, reverse=True)
    assert session_digest(settings, "no-such-project*") == ""
    # Pasted into a session (as a SessionStart hook does), it is cut before interviewing.
    session = sorted((trail_root / project).glob("*.jsonl"))[0]
    start = len(session.read_bytes().splitlines())
    line = {"type": "user", "uuid": "u-digest", "sessionId": "s-digest",
            "timestamp": "2026-12-01T10:00:00.000Z",
            "message": {"role": "user",
                        "content": digest + "\nNow fix the flaky login test and make the CI green again before the release, please."}}
    with open(session, "a") as out:
        out.write(json.dumps(line) + "\n")
    nodes = discover_nodes(settings).nodes
    matches = [n for n in nodes if os.path.samefile(n.path, session)]
    assert len(matches) == 1, [(n.path, str(session)) for n in nodes]
    node = matches[0]
    trail, _ = read_node(node, start, ReadOptions(4000, tuple(settings.recall_guard_tags)))
    (event,) = trail.events
    assert event.content == "Now fix the flaky login test and make the CI green again before the release, please."


def test_a_malformed_line_gets_a_json_rpc_error_and_the_server_goes_on(tmp_path):
    """Issue 41 item 8: a line that is not JSON, an unterminated object or JSON that is no
    request is answered (-32700, -32600, id null), so a client waiting on it does not hang;
    the next request is answered as usual."""
    import select
    import subprocess
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "jobs.cli", "mcp", "--lake", str(tmp_path / "lake"), "--tenant", "t"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=str(ROOT))
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                             "clientInfo": {"name": "test", "version": "1"}}}
    lines = [json.dumps(initialize),
             json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
             "this is not json", '{"jsonrpc": "2.0", "id": 5, "method": "ping"', "[]",
             json.dumps({"jsonrpc": "2.0", "id": 7, "method": "ping"})]
    replies = []
    try:
        process.stdin.write("".join(line + "\n" for line in lines))
        process.stdin.flush()  # stdin stays open: the server answers before it sees the end
        deadline = time.monotonic() + 60
        while len(replies) < 5:  # the old server answered two of them and waited
            ready, _, _ = select.select([process.stdout], [], [], deadline - time.monotonic())
            assert ready, f"the server answered {replies} and then nothing"
            replies.append(json.loads(process.stdout.readline()))
    finally:
        process.stdin.close()
        process.wait(timeout=30)
        process.stdout.close()
        process.stderr.close()
    errors = [reply for reply in replies if "error" in reply]
    assert [(e["id"], e["error"]["code"]) for e in errors] == [
        (None, -32700), (None, -32700), (None, -32600)]
    assert [reply["id"] for reply in replies if "result" in reply] == [1, 7]
