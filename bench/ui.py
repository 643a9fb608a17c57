"""`interview ui`: how long a page of 1,000 memories takes, from the server and in a real browser
(headless Chromium through Selenium), over a lake of real trail files (`bench/ui_lake.py`).

    python bench/ui.py [--memories 1000] [--runs 7]      # table; JSON in bench/out/ui.json
    python bench/ui.py --screenshots docs               # also the PNGs the README shows

Server: the time from sending the request to the last byte (httpx, keep-alive), first (the lake
read into the page cache) and then the median of `--runs`. Browser: the navigation timing of
the page (`loadEventEnd`: the page parsed, styled, its script run), median of `--runs`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))  # run_all --quick: bench/out/quick

SHOTS = [  # (file, path, what) — `{memory}` is the memory of untrusted text
    ("ui-projects.png", "/", "the projects"),
    ("ui-timeline.png", "/project?name=billing-api", "a project's chart and timeline"),
    ("ui-memory.png", "/memory?id={memory}", "a memory and its evidence (FILE:LINE)"),
    ("ui-search.png", "/search?q=why+did+we+pick+postgres&k=8", "search"),
    ("ui-operations.png", "/ops", "operations"),
    ("ui-forget.png", "/forget?match=ticket+100", "forget: the preview"),
]


def start_ui(lake: Path) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "jobs.cli", "ui", "--lake", str(lake), "--port", "0",
         "--allow-forget"], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    line = process.stdout.readline()
    if not line.startswith("ui on "):
        process.kill()
        raise SystemExit(f"interview ui did not start: {line}")
    return process, line.split()[2]


def server_times(url: str, paths: dict[str, str], runs: int) -> dict:
    import httpx

    found = {}
    with httpx.Client(base_url=url, timeout=60) as client:
        for name, path in paths.items():
            times, size = [], 0
            for _ in range(runs + 1):
                started = time.perf_counter()
                answer = client.get(path)
                times.append(time.perf_counter() - started)
                assert answer.status_code == 200, (path, answer.status_code)
                size = len(answer.content)
            found[name] = {"path": path, "bytes": size, "first_s": round(times[0], 4),
                           "median_s": round(statistics.median(times[1:]), 4),
                           "max_s": round(max(times[1:]), 4)}
    return found


def browser_times(driver, url: str, path: str, runs: int) -> dict:
    timing = ("const t = performance.getEntriesByType('navigation')[0]; return [t.responseEnd, "
              "t.domContentLoadedEventEnd, t.loadEventEnd];")
    samples = []
    for _ in range(runs + 1):
        driver.get(url + path)
        samples.append(driver.execute_script(timing))
    samples = samples[1:]
    items = driver.execute_script("return document.querySelectorAll('li.memory').length")
    return {"path": path, "memories_on_page": items,
            "response_end_ms": round(statistics.median(s[0] for s in samples), 1),
            "dom_ready_ms": round(statistics.median(s[1] for s in samples), 1),
            "load_ms": round(statistics.median(s[2] for s in samples), 1),
            "load_max_ms": round(max(s[2] for s in samples), 1)}


def screenshots(driver, url: str, folder: Path, memory: str) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, path, _ in SHOTS:
        driver.get(url + path.format(memory=memory))
        driver.save_screenshot(str(folder / name))
        written.append(f"{folder / name} ({(folder / name).stat().st_size // 1024} KiB)")
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=1000, help="memories of the big project")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--screenshots", type=Path, help="write the README's PNGs here")
    args = parser.parse_args()

    from bench.ui_lake import build
    from sinks.lake import Lake
    from tests.browser import chromium

    with tempfile.TemporaryDirectory(prefix="ui-bench-") as folder:
        lake = Path(folder) / "lake"
        started = time.perf_counter()
        build(lake, Path(folder) / "trails", args.memories, embed=True)
        built = time.perf_counter() - started
        with Lake(lake, create=False) as opened:
            memory = opened.con.execute("SELECT memory_id FROM memories WHERE content LIKE "
                                        "'<script>%'").fetchone()[0]
        process, url = start_ui(lake)
        try:
            server = server_times(url, {
                "projects": "/", "timeline (1,000 memories)": "/project?name=billing-api",
                "memory and evidence": f"/memory?id={memory}",
                "search": "/search?q=why+did+we+pick+postgres", "operations": "/ops"}, args.runs)
            driver = chromium(1100, 720)
            try:
                browser = browser_times(driver, url, "/project?name=billing-api", args.runs)
                shots = (screenshots(driver, url, args.screenshots, memory)
                         if args.screenshots else [])
            finally:
                driver.quit()
        finally:
            process.terminate()
            process.wait(30)
    print(f"lake: {args.memories} memories in the big project, built in {built:.0f} s\n")
    print("| page | bytes | first (s) | median (s) | max (s) |\n|---|---|---|---|---|")
    for name, row in server.items():
        print(f"| {name} | {row['bytes']:,} | {row['first_s']:.3f} | {row['median_s']:.3f} | "
              f"{row['max_s']:.3f} |")
    print(f"\nChromium, {browser['memories_on_page']} memories on the page (median of "
          f"{args.runs}): response end {browser['response_end_ms']:.0f} ms, DOM ready "
          f"{browser['dom_ready_ms']:.0f} ms, load {browser['load_ms']:.0f} ms (max "
          f"{browser['load_max_ms']:.0f} ms); under 1 s: {browser['load_max_ms'] < 1000}")
    for shot in shots:
        print("wrote", shot)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "ui.json").write_text(json.dumps({"memories": args.memories, "runs": args.runs,
                                             "build_s": round(built, 1), "server": server,
                                             "browser": browser}, indent=2))


if __name__ == "__main__":
    main()
