"""The first command a new user types, timed: `interview run --demo` (models already fetched),
end to end as a process (Python start-up, Ray, the model, the commit), into a fresh lake.

    python bench/demo.py [--runs 3]

Target (issue 15): at most 2 minutes on a quiet 2-core machine, with grounded memories only.
Prints a table (median and each run), writes bench/out/demo.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))
TARGET_SECONDS = 120


def one_run() -> dict:
    lake = Path(tempfile.mkdtemp(prefix="demo-")) / "lake"
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "jobs.cli", "run", "--demo", "--lake", str(lake),
                           "--json"], capture_output=True, text=True, cwd=ROOT, timeout=1800)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"interview run --demo failed ({done.returncode}):\n{done.stderr[-3000:]}")
    summary = json.loads(done.stdout)
    return {"wall_seconds": round(wall, 1), "run_seconds": summary["seconds"],
            "startup_seconds": summary["startup_seconds"], "model_seconds": summary["model_seconds"],
            "windows": summary["windows"], "memories": summary["memories_written"],
            "unsupported_dropped": summary["unsupported_dropped"],
            "dropped": {k: v for k, v in summary.items() if k.startswith("dropped_")}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs = [one_run() for _ in range(args.runs)]
    median = statistics.median(run["wall_seconds"] for run in runs)
    print("\n| run | wall s | run s | start-up s | model s | windows | memories | unsupported dropped |")
    print("|---|---|---|---|---|---|---|---|")
    for index, run in enumerate(runs, start=1):
        print(f"| {index} | {run['wall_seconds']} | {run['run_seconds']} | {run['startup_seconds']} | "
              f"{run['model_seconds']} | {run['windows']} | {run['memories']} | "
              f"{run['unsupported_dropped']} |")
    print(f"\nmedian wall {median} s; target {TARGET_SECONDS} s: "
          f"{'met' if median <= TARGET_SECONDS else 'NOT met'}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "demo.json").write_text(json.dumps({
        "machine": platform.platform(), "cpus": os.cpu_count(), "target_seconds": TARGET_SECONDS,
        "median_wall_seconds": median, "runs": runs}, indent=1))
    print(f"wrote {OUT / 'demo.json'}")


if __name__ == "__main__":
    main()
