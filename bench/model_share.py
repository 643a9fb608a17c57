"""The share of wall time that is not model time, with the embedded model (llama.cpp) through the
real driver, Ray actor and lake: everything the pipeline adds around the model.

    python bench/model_share.py [--windows 4] [--backend llamacpp]

Runs `interview run` over the shipped samples (small windows, as `--demo` does) on a fresh lake, in
this process. Model time is what the model actor measured around each engine call; with one actor
the chunks run one after another, so wall minus model is the pipeline's own cost. Reported for
the run itself, for the whole call (lake open included), and after start-up (the run less the
fixed seconds before the first window could go out: Ray start, planning, engine load, which
overlap). The fixed part weighs on a short run; the share after start-up is what each further
window costs. Prints a table, writes bench/out/model_share.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))  # run_all --quick: bench/out/quick


def measure(windows: int, backend: str) -> dict:
    from jobs.api import run_nodes
    from jobs.cli.shared import SAMPLES
    from jobs.settings import load_settings

    with tempfile.TemporaryDirectory() as scratch:
        settings = load_settings(
            None, lake=Path(scratch) / "lake", backend=backend,
            claude_code_roots=[str(SAMPLES / "claude-code")],
            cursor_roots=[str(SAMPLES / "cursor" / "projects"), str(SAMPLES / "cursor" / "User")],
            openclaw_roots=[str(SAMPLES / "openclaw")], all_projects=True, since_hours=0,
            flush=True, max_windows=windows, max_window_chars=6000,
        )
        started = time.perf_counter()
        summary = run_nodes(settings)
        whole = time.perf_counter() - started
    run = summary.seconds
    steady = run - summary.startup_seconds
    return {
        "backend": backend, "windows": summary.windows, "chunks": summary.chunks,
        "memories": summary.memories_written, "model_s": round(summary.model_seconds, 2),
        "run_s": round(run, 2), "whole_s": round(whole, 2),
        "startup_s": round(summary.startup_seconds, 2),
        "non_model_share_run": round(1 - summary.model_seconds / run, 4) if run else None,
        "non_model_share_whole": round(1 - summary.model_seconds / whole, 4) if whole else None,
        "non_model_share_after_startup": round(1 - summary.model_seconds / steady, 4) if steady else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", type=int, default=4)
    parser.add_argument("--backend", default="llamacpp")
    args = parser.parse_args()
    result = measure(args.windows, args.backend)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "model_share.json").write_text(json.dumps({"date": time.strftime("%Y-%m-%d"), **result}, indent=2))
    print(f"{'backend':<9} {'windows':>7} {'chunks':>6} {'model s':>8} {'run s':>7} {'whole s':>8} "
          f"{'start-up s':>10} {'non-model (run)':>15} {'(whole)':>8} {'(after start-up)':>16}")
    print(f"{result['backend']:<9} {result['windows']:>7} {result['chunks']:>6} {result['model_s']:>8} "
          f"{result['run_s']:>7} {result['whole_s']:>8} {result['startup_s']:>10} "
          f"{result['non_model_share_run']:>15.1%} {result['non_model_share_whole']:>8.1%} "
          f"{result['non_model_share_after_startup']:>16.1%}")


if __name__ == "__main__":
    main()
