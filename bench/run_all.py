"""Every benchmark, one after another, each printing its table; then the plots.

    python bench/run_all.py --quick     # about 4 minutes: small corpora and sizes
    python bench/run_all.py             # the full figures (about 60 minutes: quality and demo run the model)

Quick runs write their JSON and plots under bench/out/quick, so they never replace the full
figures in bench/out and the committed plots in bench/plots.

The peers (claude-code-log, ccusage, gitleaks, secretlint, detect-secrets) are timed where they
are installed and listed as missing otherwise; see bench/README.md for how to install them.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent

QUICK = [
    ("ingest", ["ingest.py", "--nodes", "5", "--lines", "1000"]),
    ("masking", ["masking.py", "--lines", "5000", "--throughput-mb", "5", "--max-seconds", "30"]),
    ("orchestration", ["orchestration.py", "--sizes", "300,1000,3000"]),
    ("model share (llamacpp)", ["model_share.py", "--windows", "4"]),
    ("serve", ["serve.py", "--seconds", "2"]),
    ("mcp search", ["mcp_search.py", "--memories", "2000"]),
    ("ui", ["ui.py", "--memories", "1000", "--runs", "3"]),
    ("quality (baselines)", ["quality.py", "--backend", "copy-prompts", "--backend", "oracle",
                             "--backend", "none"]),
]
FULL = [
    ("ingest", ["ingest.py", "--nodes", "20", "--lines", "2000"]),
    ("masking", ["masking.py", "--lines", "20000", "--throughput-mb", "20"]),
    ("orchestration", ["orchestration.py", "--sizes", "1000,10000,100000"]),
    ("model share (llamacpp)", ["model_share.py", "--windows", "10"]),
    ("model throughput (llamacpp)", ["model_throughput.py", "--windows", "3"]),
    ("serve", ["serve.py", "--seconds", "10"]),
    ("mcp search", ["mcp_search.py", "--memories", "10000"]),
    ("ui", ["ui.py", "--memories", "1000", "--runs", "7"]),
    ("quality (copy-prompts, oracle, none, llamacpp; test split)", ["quality.py"]),
    ("demo (the first command)", ["demo.py", "--runs", "3"]),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: under 10 minutes")
    args = parser.parse_args()
    started = time.perf_counter()
    env = {**os.environ, "BENCH_OUT": str(BENCH / "out" / "quick")} if args.quick else None
    failed = []
    for title, command in (QUICK if args.quick else FULL) + [("plots", ["plot.py"])]:
        print(f"\n== {title}: python bench/{' '.join(command)}", flush=True)
        step = time.perf_counter()
        child = subprocess.Popen([sys.executable, str(BENCH / command[0]), *command[1:]], env=env)
        # A SIGTERM (a timeout) goes on to the running bench, which stops its servers; then exit.
        signal.signal(signal.SIGTERM, lambda number, _frame, child=child: (
            child.terminate(), child.wait(60), sys.exit(128 + number)))
        done = subprocess.CompletedProcess(child.args, child.wait())
        print(f"   ({time.perf_counter() - step:.0f} s)", flush=True)
        if done.returncode != 0:
            failed.append(title)
    print(f"\nall benchmarks: {time.perf_counter() - started:.0f} s"
          + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
