"""Model throughput on prompts built from real windows, against any backend.

    python bench/model_throughput.py --backend llamacpp --windows 3
    python bench/model_throughput.py --backend openai --config my.toml

Prints tokens/s in and out, chunk latency p50/p95, and the prefix-cache hit rate where the engine
reports cached tokens; writes bench/out/model_throughput.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

# The project first: run as a script, this folder (with its own ingest.py) leads sys.path.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.discover import discover  # noqa: E402
from ingest.nodes import Allowlist, ReadOptions  # noqa: E402
from ingest.sources import read_node  # noqa: E402
from ingest.windows import cut_windows  # noqa: E402
from jobs.cli.shared import SAMPLES  # noqa: E402
from jobs.settings import load_settings  # noqa: E402
from synth.backends import create_backend  # noqa: E402
from synth.interview import ask_model, plan_prompts  # noqa: E402
from synth.masking import mask_events  # noqa: E402

OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))


def sample_prompts(windows: int, chunk_chars: int, window_chars: int):
    nodes = discover({"claude-code": [str(SAMPLES / "claude-code")]}, Allowlist(allow_all=True)).nodes
    prompts = []
    for node in sorted(nodes, key=lambda n: -Path(n.path).stat().st_size):
        trail, _ = read_node(node, 0, ReadOptions())
        for window in cut_windows(trail.events, node_id=node.node_id, agent_id="bench", cursor_from=0,
                                  eof_line=trail.last_complete_line, max_chars=window_chars):
            masked, _ = mask_events(window.events)
            window = window.__class__(window.node_id, window.agent_id, window.cursor_from,
                                      window.cursor_to, tuple(masked))
            prompts.extend(plan_prompts(window, chunk_chars))
            windows -= 1
            if windows == 0:
                return prompts
    return prompts


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="llamacpp")
    parser.add_argument("--config", type=Path)
    parser.add_argument("--windows", type=int, default=3)
    parser.add_argument("--window-chars", type=int, default=12_000)
    args = parser.parse_args()
    settings = load_settings(args.config, backend=args.backend)
    started = time.perf_counter()
    backend = create_backend(settings.backend, settings.backend_options())
    load_s = time.perf_counter() - started
    budget = min(settings.chunk_max_chars, backend.max_chunk_chars or settings.chunk_max_chars)
    prompts = sample_prompts(args.windows, budget, args.window_chars)
    rows = []
    for prompt in prompts:
        answer = ask_model(backend, prompt)
        rows.append({"chars": prompt.chars, "ok": answer.ok, "tries": answer.tries,
                     "prompt_tokens": answer.prompt_tokens, "completion_tokens": answer.completion_tokens,
                     "cached_tokens": answer.cached_tokens, "seconds": round(answer.seconds, 3)})
    backend.close()
    seconds = [r["seconds"] for r in rows] or [0.0]
    model_s = sum(seconds)
    prompt_tokens = sum(r["prompt_tokens"] for r in rows)
    result = {
        "backend": settings.backend, "model": backend.model, "machine": platform.machine(),
        "cpus": __import__("os").cpu_count(), "date": time.strftime("%Y-%m-%d"),
        "engine_load_s": round(load_s, 2), "chunks": len(rows),
        "valid": sum(r["ok"] for r in rows),
        "prompt_tokens_per_s": round(prompt_tokens / model_s, 1) if model_s else 0,
        "completion_tokens_per_s": round(sum(r["completion_tokens"] for r in rows) / model_s, 1) if model_s else 0,
        "chunk_latency_p50_s": round(statistics.median(seconds), 2),
        "chunk_latency_p95_s": round(percentile(seconds, 0.95), 2),
        "prefix_cache_hit_rate": round(sum(r["cached_tokens"] for r in rows) / prompt_tokens, 3) if prompt_tokens else None,
        "rows": rows,
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "model_throughput.json").write_text(json.dumps(result, indent=2))
    print(f"{'backend':<10} {'model':<28} {'chunks':>6} {'valid':>5} {'in tok/s':>9} {'out tok/s':>9} "
          f"{'p50 s':>6} {'p95 s':>6} {'cache hit':>9}")
    print(f"{result['backend']:<10} {result['model'][:28]:<28} {result['chunks']:>6} {result['valid']:>5} "
          f"{result['prompt_tokens_per_s']:>9} {result['completion_tokens_per_s']:>9} "
          f"{result['chunk_latency_p50_s']:>6} {result['chunk_latency_p95_s']:>6} "
          f"{result['prefix_cache_hit_rate'] if result['prefix_cache_hit_rate'] is not None else '-':>9}")
    print(f"engine load {result['engine_load_s']}s; wrote {OUT / 'model_throughput.json'}")


if __name__ == "__main__":
    main()
