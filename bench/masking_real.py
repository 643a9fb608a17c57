"""False positives of the masker on real sessions: masked spans per MB of real Claude Code
sessions, by category and by the rule that found them, with a seeded sample to read by eye.

    python -m bench.masking_real RAW_FOLDER [--sample 40] [--show] [--raw]

RAW_FOLDER holds raw session files (*.jsonl; the benchmark's 100 come from entireio/cli, MIT,
see bench/real/data/manifest.json). Each is parsed by the project's Claude Code parser and
every kept event's content masked as the pipeline masks it. A real session holds few real
credentials, so most spans found there are what a reader should check: a span is a false
positive when the masked text was no credential or personal data. It also times ours and
gitleaks over every raw line of the same files (MB per CPU-second). `--show` prints each sampled
span as it was in the trail, to judge it (stdout only; the JSON keeps counts and masked text).
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.claude_code import parse_claude_code  # noqa: E402
from synth import gitleaks_select  # noqa: E402
from synth.masking import RULES, TOKENS, _filter, resolve_overlaps, scan  # noqa: E402


def _rule_of(text: str, start: int, end: int) -> str:
    """Which rule found the span: a gitleaks rule's id, else `ours:<category>`."""
    hits = _filter().candidates(text)
    for index in gitleaks_select.selected(text, hits, len(RULES)):
        for span in gitleaks_select.RULES[index].secrets(text, gitleaks_select.GLOBAL_ALLOW):
            if span[0] == start and gitleaks_select.glued_end(text, span[1]) == end:
                return gitleaks_select.RULES[index].id
    return "ours"


def texts(path: Path, raw: bool):
    """(seq, text) of what is masked: each kept event's content, as the pipeline masks it; with
    `raw`, every line of the file as it is (tool results, file contents and logs included)."""
    data = path.read_bytes()
    if raw:
        yield from enumerate(data.decode("utf-8", "replace").splitlines())
        return
    for event in parse_claude_code(data, project="real", path=str(path)).events:
        yield event.seq, event.content[:8000]


def measure(folder: Path, sample: int = 40, seed: int = 41, raw: bool = False,
            timed: bool = False) -> dict:
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        raise SystemExit(f"no *.jsonl in {folder}: point it at the raw sessions folder")
    spans, size, events = [], 0, 0
    for path in files:
        for seq, text in texts(path, raw):
            size += len(text.encode())
            events += 1
            for finding in resolve_overlaps(scan(text)):
                spans.append((path.name, seq, text, finding))
    by_category = collections.Counter(f.category for *_, f in spans)
    picked = random.Random(seed).sample(spans, min(sample, len(spans)))
    rows = []
    for name, seq, text, finding in picked:
        left = text[max(0, finding.start - 40):finding.start]
        right = text[finding.end:finding.end + 40]
        rows.append({"session": name, "seq": seq, "category": finding.category,
                     "rule": f"ours:{finding.category}" if (rule := _rule_of(
                         text, finding.start, finding.end)) == "ours" else rule,
                     "masked": f"{left}{TOKENS[finding.category]}{right}",
                     "span": text[finding.start:finding.end]})
    timing = {"speed": speed(folder)} if timed else {}
    return {**timing, "sessions": len(files), "what": "raw lines" if raw else "events", "events": events,
            "bytes": size, "spans": len(spans),
            "spans_per_mb": round(len(spans) / (size / 1e6), 2) if size else 0,
            "by_category": dict(by_category.most_common()),
            "sample_rules": dict(collections.Counter(row["rule"] for row in rows).most_common()),
            "sample": rows}


def speed(folder: Path) -> dict:
    """MB per CPU-second over every raw line of the sessions: ours in-process, line by line;
    gitleaks (`gitleaks dir`, when installed beside this Python) over the same files."""
    import resource
    import shutil
    import subprocess
    import tempfile
    import time

    from synth.masking import mask_text

    lines = [line for path in sorted(folder.glob("*.jsonl"))
             for line in path.read_bytes().decode("utf-8", "replace").splitlines()]
    size = sum(len(line.encode()) for line in lines)
    mask_text("warm-up")
    started = time.process_time()
    for line in lines:
        mask_text(line)
    result = {"bytes": size, "ours_mb_per_cpu_s": round(size / 1e6 / (time.process_time() - started), 2)}
    gitleaks = shutil.which("gitleaks") or str(Path(sys.executable).parent / "gitleaks")
    if Path(gitleaks).exists():
        def children() -> float:
            usage = resource.getrusage(resource.RUSAGE_CHILDREN)
            return usage.ru_utime + usage.ru_stime

        with tempfile.TemporaryDirectory() as scratch:
            before = children()
            subprocess.run([gitleaks, "dir", str(folder), "--no-banner", "-f", "json", "-r",
                            str(Path(scratch) / "r.json"), "--exit-code", "0", "-l", "error"],
                           capture_output=True, check=False)
            cpu = children() - before
        files = sum(path.stat().st_size for path in folder.glob("*.jsonl"))
        result["gitleaks_mb_per_cpu_s"] = round(files / 1e6 / cpu, 2) if cpu else None
        if result["gitleaks_mb_per_cpu_s"]:
            result["ratio"] = round(result["ours_mb_per_cpu_s"] / result["gitleaks_mb_per_cpu_s"], 1)
    return result


def print_real(report: dict, show: bool = False) -> None:
    print(f"real sessions: {report['sessions']} files, {report['events']} {report['what']}, "
          f"{report['bytes'] / 1e6:.2f} MB: {report['spans']} masked spans, "
          f"{report['spans_per_mb']} per MB")
    print("  by category: " + ", ".join(f"{k} {v}" for k, v in report["by_category"].items()))
    print("  sampled spans by rule: "
          + ", ".join(f"{k} {v}" for k, v in report["sample_rules"].items()))
    if "speed" in report:
        pace = report["speed"]
        print(f"  speed over every raw line ({pace['bytes'] / 1e6:.1f} MB): ours "
              f"{pace['ours_mb_per_cpu_s']} MB/cpu-s, gitleaks "
              f"{pace.get('gitleaks_mb_per_cpu_s', '-')} MB/cpu-s, x{pace.get('ratio', '-')}")
    for row in report["sample"]:
        shown = f"  [{row['span']}]" if show else ""
        print(f"  {row['session'][:12]} #{row['seq']:<5} {row['rule']:<28} "
              f"{row['masked']!r}{shown}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--show", action="store_true", help="print each sampled span itself")
    parser.add_argument("--raw", action="store_true", help="mask every raw line (tool results "
                        "included), not only the kept events")
    args = parser.parse_args()
    report = measure(args.folder, args.sample, raw=args.raw, timed=True)
    print_real(report, args.show)
    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    kept = {**report, "sample": [{k: v for k, v in row.items() if k != "span"}
                                 for row in report["sample"]]}
    name = "masking_real_raw.json" if args.raw else "masking_real.json"
    (out / name).write_text(json.dumps(kept, indent=2))


if __name__ == "__main__":
    main()
