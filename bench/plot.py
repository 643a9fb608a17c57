"""Draw the cost curve and the ingest comparison from the benchmarks' JSON as PNG files.

    python bench/plot.py        # reads bench/out/*.json, writes bench/plots/*.png

`bench/README.md` links the PNGs; rerun after the benchmarks to refresh them. Under
`run_all.py --quick` (BENCH_OUT=bench/out/quick) it reads and writes that folder instead, so a
quick run never replaces the committed full-size plots.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))
PLOTS = OUT / "plots" if "BENCH_OUT" in os.environ else ROOT / "bench" / "plots"


def cost_curve(plt, data: dict) -> Path:
    rows = data["rows"]
    windows = [r["windows"] for r in rows]
    figure, (time_axis, memory_axis) = plt.subplots(1, 2, figsize=(10, 4))
    time_axis.loglog(windows, [r["wall_s"] for r in rows], "o-", label="wall time (s)")
    first = rows[0]
    time_axis.loglog(windows, [first["wall_s"] * w / first["windows"] for w in windows], "--",
                     color="grey", label="linear from the smallest run")
    time_axis.set_xlabel("windows (none backend)")
    time_axis.set_ylabel("seconds")
    time_axis.set_title("Orchestration: time grows with windows")
    time_axis.legend()
    for r in rows:
        samples = r["rss_samples_mb"]
        memory_axis.plot([done / r["windows"] for done, _ in samples], [mb for _, mb in samples],
                         "o-", label=f"{r['windows']:,} windows")
    memory_axis.set_xlabel("share of the run done")
    memory_axis.set_ylabel("driver RSS (MB)")
    memory_axis.set_ylim(bottom=0)
    memory_axis.set_title("Driver memory during the run")
    memory_axis.legend()
    figure.tight_layout()
    path = PLOTS / "cost_curve.png"
    figure.savefig(path, dpi=110)
    return path


def ingest(plt, data: dict) -> Path:
    rows = [r for r in data["results"] if not r["output_tail"].startswith("FAILED")]
    corpora = sorted({r["corpus"] for r in rows})
    figure, axes = plt.subplots(1, len(corpora), figsize=(5 * len(corpora), 3.6), squeeze=False)
    for axis, corpus in zip(axes[0], corpora):
        mine = [r for r in rows if r["corpus"] == corpus]
        axis.barh([r["tool"] for r in mine], [r["mb_per_s"] for r in mine],
                  color=["tab:green" if "ours" in r["tool"] else "tab:grey" for r in mine])
        axis.set_xlabel("MB/s of raw trail (whole process)")
        axis.set_title(f"Ingest, {corpus} ({mine[0]['mb']} MB)")
    figure.tight_layout()
    path = PLOTS / "ingest.png"
    figure.savefig(path, dpi=110)
    return path


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    PLOTS.mkdir(parents=True, exist_ok=True)
    drawn = []
    for name, draw in (("orchestration.json", cost_curve), ("ingest.json", ingest)):
        source = OUT / name
        if not source.exists():
            print(f"skipped: {source} missing (run its benchmark first)", file=sys.stderr)
            continue
        drawn.append(draw(plt, json.loads(source.read_text())))
    for path in drawn:
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
