"""Orchestration cost curve: N synthetic windows through the real driver, Ray and the DuckLake,
with the `none` backend (no model), so what is measured is everything but the model.

    python bench/orchestration.py [--sizes 1000,10000,100000] [--lake sqlite,postgres]

Each size runs in a fresh process on a fresh lake (the trails are Claude Code sessions of short
prompts and replies, `--windows-per-node` windows each), once per catalog: a folder lake
(SQLite), and a Postgres catalog (a real PostgreSQL started on loopback for the bench, data in a
local folder). Every window writes its own memory (the `none` backend's episode names its node
and seq range) with its embedding, so the Parquet writes and the embedder run for every window.
Reported per size: wall time, windows/s, seconds per window, memories and embeddings written,
the driver's peak RSS and its RSS sampled as the run goes (flat or not), files written, and each
figure's growth against the smallest size of its catalog (linear growth means seconds per window
stays put). Prints a table, writes bench/out/orchestration.json.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))  # run_all --quick: bench/out/quick


def write_trails(root: Path, windows: int, per_node: int, events_per_window: int) -> int:
    """Sessions of alternating prompts and replies: `windows` windows in all."""
    project = root / "proj"
    project.mkdir(parents=True)
    nodes = max(1, windows // per_node)
    lines_per_node = per_node * events_per_window
    for node in range(nodes):
        session = f"{node:08x}-bench"
        rows = []
        for i in range(lines_per_node):
            ts = f"2026-11-{1 + node % 28:02d}T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}.000Z"
            base = {"sessionId": session, "uuid": f"{session}-{i}", "timestamp": ts, "cwd": "/w/p",
                    "version": "2.1.39", "isSidechain": False}
            text = f"Step {i} of node {node}: change the retry budget and rerun the window tests."
            if i % 2 == 0:
                rows.append({"type": "user", "message": {"role": "user", "content": text}, **base})
            else:
                rows.append({"type": "assistant", "message": {
                    "id": f"m{i}", "role": "assistant", "content": [{"type": "text", "text": text}]},
                    "requestId": f"r{i}", **base})
        (project / f"{session}.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return nodes


class SamplingProgress:
    """Counts windows and samples the driver's RSS every `every` windows."""

    def __init__(self, every: int):
        self.every, self.done, self.samples = every, 0, []

    def planned(self, nodes, windows): ...

    def note(self, message): ...

    def advance(self, count): ...

    def close(self): ...

    def window_done(self, status, memories):
        self.done += 1
        if self.done % self.every == 0:
            self.samples.append((self.done, rss_mb()))


def rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def worker(trails: Path, lake: str, windows: int, events_per_window: int) -> dict:
    from jobs.api import run_nodes
    from jobs.settings import load_settings
    from sinks.lake import Lake

    settings = load_settings(
        None, lake=lake, lake_data=str(trails.parent / "lake-data") if "postgres" in lake else None,
        backend="none", claude_code_roots=[str(trails)], sources=["claude-code"],
        all_projects=True, since_hours=0, flush=True, max_windows=windows,
        max_window_events=events_per_window, min_events=1, min_chars=1,
    )
    progress = SamplingProgress(max(1, windows // 10))
    started = time.perf_counter()
    summary = run_nodes(settings, progress=progress)
    wall = time.perf_counter() - started
    with Lake(settings.lake_location) as lake:
        embedded = lake.con.execute("SELECT count(*) FROM memory_embeddings").fetchone()[0]
    return {"wall_s": wall, "windows": summary.windows, "memories": summary.memories_written,
            "embeddings": embedded,
            "duplicates": summary.duplicates, "rss_samples_mb": progress.samples,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def lake_files(folder: Path) -> tuple[int, float]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files) / 1e6


def measure(size: int, per_node: int, events_per_window: int, postgres=None) -> dict:
    """One size on a fresh lake: a folder, or a fresh database of `postgres` (data beside)."""
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        nodes = write_trails(scratch / "trails", size, per_node, events_per_window)
        lake = f"ducklake:postgres:{postgres.database()}" if postgres else str(scratch / "lake")
        done = subprocess.run(
            [sys.executable, __file__, "--worker", str(scratch / "trails"), lake,
             str(size), str(events_per_window)], capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"size {size} failed:\n{done.stderr[-3000:]}")
        result = json.loads(done.stdout.strip().splitlines()[-1])
        files, mb = lake_files(scratch / ("lake-data" if postgres else "lake"))
    samples = [mb for _, mb in result["rss_samples_mb"]]
    return {
        "catalog": "postgres" if postgres else "sqlite", "size": size, "nodes": nodes, **result,
        "windows_per_s": result["windows"] / result["wall_s"],
        "s_per_window": result["wall_s"] / max(1, result["windows"]),
        "rss_first_mb": samples[0] if samples else None,
        "rss_last_mb": samples[-1] if samples else None,
        "lake_files": files, "lake_mb": mb,
    }


def table(rows: list[dict]) -> str:
    lines = [f"{'catalog':>8} {'windows':>8} {'memories':>8} {'embedded':>8} {'wall s':>8} "
             f"{'win/s':>7} {'ms/win':>7} {'x time':>7} "
             f"{'x size':>7} {'RSS first→last MB':>18} {'peak MB':>8} {'files':>6} {'data MB':>8}"]
    for r in rows:
        base = next(row for row in rows if row["catalog"] == r["catalog"])
        lines.append(
            f"{r['catalog']:>8} {r['windows']:>8} {r['memories']:>8} {r['embeddings']:>8} "
            f"{r['wall_s']:>8.1f} {r['windows_per_s']:>7.1f} "
            f"{r['s_per_window'] * 1000:>7.1f} {r['wall_s'] / base['wall_s']:>7.1f} "
            f"{r['windows'] / base['windows']:>7.1f} "
            f"{(r['rss_first_mb'] or 0):>8.0f} → {(r['rss_last_mb'] or 0):<7.0f} "
            f"{r['peak_rss_mb']:>8.0f} {r['lake_files']:>6} {r['lake_mb']:>8.1f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--windows-per-node", type=int, default=10)
    parser.add_argument("--events-per-window", type=int, default=2)
    parser.add_argument("--lake", default="sqlite,postgres",
                        help="catalogs to measure, in order: sqlite, postgres (a real PostgreSQL "
                             "is started on loopback; needs Debian's postgresql)")
    args = parser.parse_args()
    if args.worker:
        trails, lake, size, events = args.worker
        print(json.dumps(worker(Path(trails), lake, int(size), int(events))))
        return
    catalogs = [name.strip() for name in args.lake.split(",") if name.strip()]
    unknown = set(catalogs) - {"sqlite", "postgres"}
    if unknown:
        raise SystemExit(f"--lake: unknown catalog {sorted(unknown)}; sqlite, postgres")
    # SIGTERM (a timeout) unwinds like Ctrl-C, so `finally` stops the bench's PostgreSQL.
    signal.signal(signal.SIGTERM, lambda number, _frame: sys.exit(128 + number))
    postgres = None
    if "postgres" in catalogs:
        from tests.services import Postgres  # the tests' real throwaway server

        postgres = Postgres()
    rows = []
    try:
        for catalog in catalogs:
            for size in (int(s) for s in args.sizes.split(",")):
                rows.append(measure(size, args.windows_per_node, args.events_per_window,
                                    postgres if catalog == "postgres" else None))
                print(f"  {catalog} {size} windows: {rows[-1]['wall_s']:.1f} s", file=sys.stderr)
                OUT.mkdir(parents=True, exist_ok=True)
                (OUT / "orchestration.json").write_text(json.dumps(
                    {"date": time.strftime("%Y-%m-%d"), "backend": "none", "rows": rows}, indent=2))
    finally:
        if postgres is not None:
            postgres.stop()
    print(table(rows))


if __name__ == "__main__":
    main()
