"""What the interview writes, scored against a labelled set: planted-fact recall per memory type,
precision, trap violations, figures kept verbatim, timestamps, memories and seconds per window.

    python bench/quality.py                                  # none and llamacpp
    python bench/quality.py --backend llamacpp --prompt contract --prompt lean   # both prompts
    python bench/quality.py --backend openai --openai-url http://127.0.0.1:8000/v1 \
        --openai-model Qwen/Qwen2.5-7B-Instruct              # your own `vllm serve` or llama-server

The set is `bench/quality/` (44 trails of four agents, `make_set.py`, `labels.json`). Each backend
runs the real pipeline (`run_nodes`: discovery, windows, masking, the model on Ray, the reduce,
the grounding check, the commit) into a fresh lake. The grounding check's word threshold is swept
on the same answers: the run keeps every item whatever its word support (the other checks stay),
and each threshold is then applied to what was written, so one model run gives the whole curve.

- recall: a planted fact is found when a memory of its type (or, for `any type`, of any type) in
  its trail holds its terms (all of one, half of several);
- precision (labels): written memories that match a planted fact of their trail;
- precision (trail): written memories the grounding check accepts against the whole trail at the
  default threshold, i.e. what the trail supports even where no label was planted;
- trap violations: memories holding a forbidden string (injected text, the credential, recalled
  memories), or an abandoned hypothesis stated without a negation;
- figures verbatim: planted figures that appear verbatim in a memory of their trail;
- timestamps: memories whose time is the time of an event of their trail (or none).
Prints the tables, writes bench/out/quality.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from synth import grounding  # noqa: E402

SET = ROOT / "bench" / "quality"
OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))
THRESHOLDS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
NEGATIONS = (" not ", "n't", "ruled out", "no longer", "instead", " fine", "wrong", "rejected")
TYPES = ("episode", "decision", "outcome", "task", "fact", "preference")
DEFAULT_THRESHOLD = grounding.MIN_WORD_SUPPORT


def settings_for(backend: str, lake: Path, args):
    from jobs.settings import load_settings

    trails = SET / "trails"
    flags = dict(lake=lake, backend=backend, all_projects=True, since_hours=0, flush=True,
                 max_windows=100_000, max_window_chars=args.max_window_chars,
                 claude_code_roots=[str(trails / "claude-code")],
                 cursor_roots=[str(trails / "cursor" / "projects")],
                 openclaw_roots=[str(trails / "openclaw")], codex_roots=[str(trails / "codex")])
    if backend == "openai":
        flags["openai"] = {"base_url": args.openai_url, "model": args.openai_model}
    if backend == "llamacpp":
        flags["llamacpp"] = {"prompt": args.variant}
    return load_settings(**flags)


def run_backend(backend: str, args) -> dict:
    """One pipeline run over the set; the memories with their trail, evidence and word support."""
    from ingest.sources import read_node
    from jobs.api import discover_nodes, run_nodes
    from sinks.lake import Lake

    lake = Path(tempfile.mkdtemp(prefix=f"quality-{backend}-")) / "lake"
    settings = settings_for(backend, lake, args)
    grounding.MIN_WORD_SUPPORT = 0.0  # keep every word share: the sweep applies the thresholds
    started = time.perf_counter()
    try:
        summary = run_nodes(settings)
    finally:
        grounding.MIN_WORD_SUPPORT = DEFAULT_THRESHOLD
    seconds = time.perf_counter() - started
    nodes = {node.node_id: node for node in discover_nodes(settings).nodes}
    events = {node_id: list(read_node(node, 0)[0].events) for node_id, node in nodes.items()}
    trails = {node_id: grounding.Support.of(node_events) for node_id, node_events in events.items()}
    with Lake(lake) as opened:
        rows = opened.con.execute(
            "SELECT memory_type, content, node_id, evidence_seqs, ts_valid_start FROM memories"
        ).fetchall()
    memories = []
    for kind, content, node_id, seqs, ts in rows:
        node_events = events.get(node_id, [])
        cited = grounding.cited_support(node_events, list(seqs or []))
        memories.append({
            "type": kind, "content": content, "node_id": node_id,
            "file": str(Path(nodes[node_id].path).resolve().relative_to(SET)) if node_id in nodes else None,
            "words": grounding.word_support(content, cited) if seqs else None,
            "trail_ok": grounding.check_item(content, trails.get(node_id, grounding.Support.of([])),
                                             DEFAULT_THRESHOLD) is None,
            "ts_ok": ts is None or any(_same_instant(ts, e.ts) for e in node_events),
            "has_ts": ts is not None,
        })
    label = f"{backend} ({args.variant} prompt)" if backend == "llamacpp" else backend
    return {"backend": label, "model": summary.model, "windows": summary.windows,
            "seconds": round(seconds, 1), "model_seconds": round(summary.model_seconds, 1),
            "summary": {k: v for k, v in summary.to_json().items() if isinstance(v, int | float)},
            "memories": memories}


def _same_instant(stored: datetime, event_ts: str) -> bool:
    from synth.report import parse_ts

    parsed = parse_ts(event_ts)
    return parsed is not None and abs((parsed - stored).total_seconds()) < 1


def holds(content: str, terms: list[str]) -> bool:
    text = content.lower()
    found = sum(term.lower() in text for term in terms)
    return found == len(terms) if len(terms) == 1 else found * 2 >= len(terms)


def violates(content: str, trap: dict) -> bool:
    text = f" {content.lower()} "
    hit = any(value.lower() in text for value in trap["forbidden"])
    if trap["kind"] == "abandoned":
        return hit and not any(word in text for word in NEGATIONS)
    return hit


def score(run: dict, labels: dict, threshold: float) -> dict:
    kept = [m for m in run["memories"] if m["words"] is None or m["words"] >= threshold]
    by_file: dict[str, list[dict]] = {}
    for memory in kept:
        by_file.setdefault(memory["file"], []).append(memory)
    found_typed = {kind: [0, 0] for kind in TYPES}
    found_any = planted = figures = figures_kept = violations = label_hits = 0
    for trail in labels["trails"]:
        memories = [m for f in trail["files"] for m in by_file.get(f, [])]
        for fact in trail["facts"]:
            planted += 1
            found_typed[fact["type"]][1] += 1
            matching = [m for m in memories if holds(m["content"], fact["terms"])]
            found_any += bool(matching)
            found_typed[fact["type"]][0] += any(m["type"] == fact["type"] for m in matching)
            for figure in fact["figures"]:
                figures += 1
                figures_kept += any(figure in m["content"] for m in memories)
        for memory in memories:
            label_hits += any(holds(memory["content"], fact["terms"]) for fact in trail["facts"])
            violations += any(violates(memory["content"], trap) for trap in trail["traps"])
    written = len(kept)
    windows = max(run["windows"], 1)
    return {
        "threshold": threshold, "memories": written,
        "recall_any": round(found_any / planted, 3),
        "recall_by_type": {k: (round(f / n, 3) if n else None) for k, (f, n) in found_typed.items()},
        "precision_labels": round(label_hits / written, 3) if written else None,
        "precision_trail": round(sum(m["trail_ok"] for m in kept) / written, 3) if written else None,
        "trap_violations": violations,
        "figures_verbatim": round(figures_kept / figures, 3) if figures else None,
        "timestamps_correct": round(sum(m["ts_ok"] for m in kept) / written, 3) if written else None,
        "timestamped": round(sum(m["has_ts"] for m in kept) / written, 3) if written else None,
        "memories_per_window": round(written / windows, 2),
        "seconds_per_window": round(run["seconds"] / windows, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", action="append", choices=["none", "llamacpp", "openai", "vllm"],
                        help="repeatable (default: none and llamacpp)")
    parser.add_argument("--openai-url", default="http://127.0.0.1:8000/v1")
    parser.add_argument("--openai-model", default="default")
    parser.add_argument("--prompt", choices=["contract", "lean"], action="append",
                        help="llamacpp prompt variant(s) to run, repeatable (default: lean)")
    parser.add_argument("--max-window-chars", type=int, default=6000,
                        help="window size (the demo's 6000 keeps the CPU model to a chunk or two)")
    args = parser.parse_args()
    labels = json.loads((SET / "labels.json").read_text())
    results = []
    runs = [(backend, variant) for backend in args.backend or ["none", "llamacpp"]
            for variant in ((args.prompt or ["lean"]) if backend == "llamacpp" else [None])]
    for backend, variant in runs:
        args.variant = variant
        run = run_backend(backend, args)
        sweep = [score(run, labels, t) for t in THRESHOLDS]
        results.append({k: v for k, v in run.items() if k != "memories"}
                       | {"sweep": sweep, "default": score(run, labels, DEFAULT_THRESHOLD),
                          "written": [{k: m[k] for k in ("type", "content", "file", "words")}
                                      for m in run["memories"]]})
    trails = len(labels["trails"])
    print(f"\nquality on {trails} labelled trails ({sum(len(t['facts']) for t in labels['trails'])} "
          f"facts, {sum(len(t['traps']) for t in labels['trails'])} traps); word threshold "
          f"{DEFAULT_THRESHOLD}\n")
    head = ("| backend | model | windows | memories | per window | s/window | recall (any type) | "
            "precision (labels) | precision (trail) | trap violations | figures verbatim | "
            "timestamps correct |")
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for result in results:
        d = result["default"]
        print(f"| {result['backend']} | {result['model']} | {result['windows']} | {d['memories']} | "
              f"{d['memories_per_window']} | {d['seconds_per_window']} | {d['recall_any']} | "
              f"{d['precision_labels']} | {d['precision_trail']} | {d['trap_violations']} | "
              f"{d['figures_verbatim']} | {d['timestamps_correct']} |")
    print("\nrecall per planted type (found as a memory of that type):\n")
    print("| backend | " + " | ".join(TYPES[1:]) + " |")
    print("|---|" + "---|" * (len(TYPES) - 1))
    for result in results:
        by_type = result["default"]["recall_by_type"]
        print(f"| {result['backend']} | " + " | ".join(str(by_type[k]) for k in TYPES[1:]) + " |")
    print("\nword-support threshold sweep (same answers):\n")
    print("| backend | threshold | memories | recall (any) | precision (labels) | precision (trail) | "
          "trap violations |")
    print("|---|---|---|---|---|---|---|")
    for result in results:
        for row in result["sweep"]:
            print(f"| {result['backend']} | {row['threshold']} | {row['memories']} | {row['recall_any']} | "
                  f"{row['precision_labels']} | {row['precision_trail']} | {row['trap_violations']} |")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "quality.json").write_text(json.dumps({
        "machine": platform.platform(), "cpus": os.cpu_count(), "trails": trails,
        "threshold": DEFAULT_THRESHOLD, "results": results}, indent=1, default=str))
    print(f"\nwrote {OUT / 'quality.json'}")


if __name__ == "__main__":
    main()
