"""`search_memories` over 10,000 memories through the real MCP stdio client: latency per call
(median and max of the queries after the first, which loads the embedder) and the answer size,
next to the same search called in-process (`sinks.recall.search`) as the baseline.

    python bench/mcp_search.py [--memories 10000]     # prints a table, writes bench/out/mcp.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUERIES = ["why did we keep the postgres catalog", "flaky integration test timeout",
           "decision about the release checklist", "memory usage of the parser",
           "rate limits on the public API", "what broke the nightly cron job"]
TOPICS = ["the login page", "CSV export", "the flaky integration test", "dark mode",
          "the billing webhook", "pagination of the search API", "the Docker image size",
          "TypeScript strict mode", "the onboarding e-mail", "rate limits on the public API",
          "the nightly cron job", "memory usage of the parser", "the release checklist",
          "the postgres catalog", "the S3 bucket policy", "the retry budget"]
VERBS = ["Fixed a bug in", "Refactored", "Added tests for", "Reviewed", "Decided to keep",
         "Profiled", "Documented", "Decided to postpone", "Investigated a crash in", "Removed"]


def build_lake(root: Path, count: int) -> None:
    """`count` memories with real embeddings, committed as windows of 10."""
    from ingest.events import Event
    from ingest.windows import Window
    from sinks.commit import CommitContext, ItemVectors, PendingWindow, commit_windows
    from sinks.items import report_to_items
    from sinks.lake import Lake
    from synth.embeddings import shared_embedder
    from synth.report import SECTIONS

    embedder = shared_embedder()
    rng = random.Random(3)
    context = CommitContext("bench", "none", "none", "v")
    with Lake(root, writer=True) as lake:
        batch = []
        for index in range(count // 10):
            ts = f"2026-{1 + index % 12:02d}-{1 + index % 28:02d}T10:00:00.000Z"
            window = Window(f"cc:bench:n{index % 50}", "agent", index * 10, index * 10 + 9,
                            (Event(index * 10, ts, "s", "user", "prompt", "x" * 80),), "local")
            body = {name: [] for name in SECTIONS}
            body["decisions"] = [{"summary": f"{rng.choice(VERBS)} {rng.choice(TOPICS)} "
                                             f"because of case {index}-{n}", "ts": ts}
                                 for n in range(10)]
            items = report_to_items(body, window)
            vectors = embedder.embed([item.content for item in items])
            batch.append(PendingWindow(window, items, context, ItemVectors(
                embedder.model, {item.index: v for item, v in zip(items, vectors)})))
            if len(batch) == 50:
                commit_windows(lake.con, batch)
                batch = []
        commit_windows(lake.con, batch)


def mcp_calls(lake: Path) -> list[tuple[float, int]]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "jobs.cli", "mcp", "--lake", str(lake)], env={**os.environ, "PYTHONPATH": str(ROOT)})

    async def run() -> list[tuple[float, int]]:
        timings = []
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            for query in QUERIES:
                began = time.perf_counter()
                result = await client.call_tool("search_memories", {"query": query})
                timings.append((time.perf_counter() - began, len(result.content[0].text)))
        return timings

    return asyncio.run(run())


def in_process(lake: Path) -> list[float]:
    from sinks.lake import Lake
    from sinks.recall import RecallFilter, search
    from synth.embeddings import EMBEDDING_MODEL, shared_embedder

    embedder, timings = shared_embedder(), []
    with Lake(lake, create=False) as opened:
        for query in QUERIES:
            began = time.perf_counter()
            search(opened.con, query, embedder.embed([query])[0], RecallFilter("local"),
                   model=EMBEDDING_MODEL)
            timings.append(time.perf_counter() - began)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    out = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))
    parser.add_argument("--out", type=Path, default=out / "mcp.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        lake = Path(folder) / "lake"
        began = time.perf_counter()
        build_lake(lake, args.memories)
        print(f"built a lake of {args.memories} memories in {time.perf_counter() - began:.0f}s")
        calls = mcp_calls(lake)
        direct = in_process(lake)
    warm = [seconds for seconds, _ in calls[1:]]
    row = {"memories": args.memories, "first_call_s": round(calls[0][0], 3),
           "median_s": round(statistics.median(warm), 3), "max_s": round(max(warm), 3),
           "in_process_median_s": round(statistics.median(direct[1:]), 3),
           "answer_chars_median": int(statistics.median(size for _, size in calls))}
    row["vs_in_process"] = round(row["median_s"] / row["in_process_median_s"], 2)
    print(f"{'memories':>8} {'first s':>8} {'median s':>9} {'max s':>7} {'in-proc s':>9} "
          f"{'ratio':>6} {'answer chars':>12}")
    print(f"{row['memories']:>8} {row['first_call_s']:>8} {row['median_s']:>9} {row['max_s']:>7} "
          f"{row['in_process_median_s']:>9} {row['vs_in_process']:>6} {row['answer_chars_median']:>12}")
    print(f"target (a search over 10,000 memories under 1 s): "
          f"{'met' if row['max_s'] < 1.0 else 'NOT met'}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(row, indent=2))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
