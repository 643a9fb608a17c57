"""Ingest throughput: parse + filter + scrub + window, over the real Claude Code fixtures and a
synthetic corpus, next to the parsers users would otherwise run on the same files (claude-code-log,
ccusage), each timed as a whole process.

    pip install claude-code-log                                                      # the peers
    npm install --prefix bench/.node ccusage@20.0.24 @ccusage/ccusage-linux-x64@20.0.24  # (optional)
    python bench/ingest.py [--nodes 20 --lines 2000]

Prints a table (MB/s of raw trail, median of 3 runs; MB per CPU-second, the per-core figure;
ratio to the fastest peer), writes bench/out/ingest.json. A peer that exits 0 but read nothing
(ccusage skips lines it cannot match) is reported as failed, never timed as a success.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))  # run_all --quick: bench/out/quick


def ours(root: Path) -> dict:
    """The worker: what `interview run` does before masking, for every session under `root`."""
    from ingest.claude_code import parse_claude_code
    from ingest.windows import cut_windows

    events = windows = 0
    for path in sorted(root.rglob("*.jsonl")):
        trail = parse_claude_code(path.read_bytes(), project=path.parent.name)
        cut = cut_windows(trail.events, node_id=path.stem, agent_id="bench", cursor_from=0,
                          eof_line=trail.last_complete_line)
        events += len(trail.events)
        windows += len(cut)
    return {"events": events, "windows": windows}


def timed(command, env=None, runs=3) -> tuple[float, float, str]:
    """Median wall seconds and median CPU seconds (user + system, all threads) of `runs` runs."""
    times, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, env=env, check=False, text=True)
        times.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    tail = (done.stdout or done.stderr)[-300:]
    if done.returncode != 0:
        tail = f"FAILED ({done.returncode}): {tail}"
    elif read_nothing(done.stdout):
        tail = f"FAILED (exit 0, but it read nothing): {tail}"
    return statistics.median(times), statistics.median(cpu), tail


def read_nothing(stdout: str) -> bool:
    """True for a ccusage report without a single token, or our worker without a single event."""
    try:
        report = json.loads(stdout)
    except ValueError:
        return False
    if "totals" in report:
        return not report["totals"].get("totalTokens")
    return report.get("events") == 0


def corpus_size(root: Path) -> int:
    return sum(path.stat().st_size for path in root.rglob("*.jsonl"))


def tools(root: Path, scratch: Path):
    found = [("trail-interview (ours)", [sys.executable, __file__, "--worker", str(root)], None)]
    ccl = shutil.which("claude-code-log") or str(Path(sys.executable).parent / "claude-code-log")
    if Path(ccl).exists():
        found.append(("claude-code-log", [ccl, "--all-projects", "--projects-dir", str(root), "--no-cache",
                                          "--no-individual-sessions", "-o", str(scratch / "ccl")], None))
    ccusage = ROOT / "bench" / ".node" / "node_modules" / ".bin" / "ccusage"
    if ccusage.exists():
        home = scratch / f"claude-{root.name}"
        env = {**os.environ, "CLAUDE_CONFIG_DIR": str(home)}
        if not home.exists():  # ccusage does not follow symlinks: hard links, same bytes
            shutil.copytree(root, home / "projects", copy_function=os.link)
        found.append(("ccusage daily --json", [str(ccusage), "daily", "--json", "--offline"], env))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--nodes", type=int, default=20)
    parser.add_argument("--lines", type=int, default=2000)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(ours(args.worker)))
        return
    from bench.gen_trails import generate
    from tests.trails import fixture_trails  # the tests' fixture trails, in the repository

    results = []
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        fixtures = scratch / "fixtures"
        for name, path in fixture_trails("claude-code/").items():  # <source>/<file>, as upstream
            target = fixtures / name.removeprefix("claude-code/")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        synthetic = scratch / "synthetic"
        generate(synthetic, args.nodes, args.lines)
        for corpus, root in (("fixtures", fixtures), ("synthetic", synthetic)):
            size = corpus_size(root)
            for name, command, env in tools(root, scratch):
                seconds, cpu_seconds, tail = timed(command, env)
                results.append({"corpus": corpus, "tool": name, "mb": round(size / 1e6, 2),
                                "seconds": round(seconds, 3), "mb_per_s": round(size / 1e6 / seconds, 1),
                                "cpu_seconds": round(cpu_seconds, 3),
                                "mb_per_cpu_s": round(size / 1e6 / max(cpu_seconds, 1e-3), 1),
                                "output_tail": tail})
    for corpus in ("fixtures", "synthetic"):
        rows = [r for r in results if r["corpus"] == corpus]
        peers = [r["mb_per_s"] for r in rows
                 if "ours" not in r["tool"] and not r["output_tail"].startswith("FAILED")]
        for r in rows:
            r["x_fastest_peer"] = round(r["mb_per_s"] / max(peers), 1) if peers else None
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "ingest.json").write_text(json.dumps({"date": time.strftime("%Y-%m-%d"), "results": results}, indent=2))
    print(f"{'corpus':<10} {'tool':<24} {'MB':>7} {'s (median 3)':>12} {'MB/s':>7} {'CPU s':>6} "
          f"{'MB/CPU-s':>8} {'x fastest peer':>14}")
    for r in results:
        failed = r["output_tail"].startswith("FAILED")
        print(f"{r['corpus']:<10} {r['tool']:<24} {r['mb']:>7} {r['seconds']:>12} "
              f"{'failed' if failed else r['mb_per_s']:>7} {r['cpu_seconds']:>6} {r['mb_per_cpu_s']:>8} "
              f"{r['x_fastest_peer'] if r['x_fastest_peer'] is not None and not failed else '-':>14}"
              + (f"  ({r['output_tail'][8:90].strip()})" if failed else ""))


if __name__ == "__main__":
    main()
