"""Prompt and generation speed of candidate GGUF models, run as the llamacpp backend runs them.

    python bench/model_speed.py                       # the embedded models (the default, options)
    python bench/model_speed.py --gguf a.gguf b.gguf  # any files, e.g. a candidate before adding it

For each model: one window's prompt (~1.5k tokens: a real trail, masked, in the lean prompt)
answered twice with the backend's engine settings (2 threads, n_ctx 8192, no prompt cache between
calls): a classifier-style call (a schema-constrained pick of at most 3 event ids: many tokens in,
a few out) and a ~300-token answer. Prints the seconds of each call and prompt and generation
tokens/s, by the wall clock and by the process's CPU time (CPU seconds / threads: what a quiet
machine with that many cores gives; on a shared machine the wall clock mostly measures the other
work). Writes bench/out/model_speed.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.discover import discover
from ingest.nodes import Allowlist, ReadOptions
from ingest.sources import read_node
from ingest.windows import cut_windows
from jobs.cli.shared import SAMPLES
from synth.interview import plan_prompts
from synth.masking import mask_events
from synth.model_store import SMOLLM2, ensure_model
from synth.prompt import chat_messages

OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))
PICK = {"type": "object", "properties": {"ids": {"type": "array", "items": {"type": "integer"},
                                                 "maxItems": 3}},
        "required": ["ids"], "additionalProperties": False}


def window_prompt(chars: int):
    """The lean prompt of the first window of about `chars` characters of the largest sample."""
    nodes = discover({"claude-code": [str(SAMPLES / "claude-code")]}, Allowlist(allow_all=True)).nodes
    node = max(nodes, key=lambda n: Path(n.path).stat().st_size)
    trail, _ = read_node(node, 0, ReadOptions())
    window = cut_windows(trail.events, node_id=node.node_id, agent_id="bench", cursor_from=0,
                         eof_line=trail.last_complete_line, max_chars=chars)[0]
    masked, _ = mask_events(window.events)
    window = window.__class__(window.node_id, window.agent_id, window.cursor_from,
                              window.cursor_to, tuple(masked))
    return plan_prompts(window, chars, "lean")[0]


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def load(path: str, threads: int):
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = path
    params.n_ctx = 8192
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.warmup = False
    params.verbosity = -1
    started = time.perf_counter()
    server = xllamacpp.Server(params)
    return server, time.perf_counter() - started


def call(server, messages, threads: int, **request) -> dict:
    started, cpu = time.perf_counter(), cpu_seconds()
    answer = server.handle_chat_completions({"messages": messages, "temperature": 0.0,
                                             "cache_prompt": False, **request})
    seconds, cpu = time.perf_counter() - started, cpu_seconds() - cpu
    timings, usage = answer.get("timings") or {}, answer.get("usage") or {}
    prompt_ms, gen_ms = timings.get("prompt_ms", 0.0), timings.get("predicted_ms", 0.0)
    quiet = cpu / threads  # the call's seconds on `threads` idle cores
    share = prompt_ms / (prompt_ms + gen_ms) if prompt_ms + gen_ms else 1.0
    prompt_n, gen_n = timings.get("prompt_n", 0), timings.get("predicted_n", 0)
    return {"seconds": round(seconds, 2), "quiet_seconds": round(quiet, 2),
            "prompt_tokens": usage.get("prompt_tokens"),
            "completion_tokens": usage.get("completion_tokens"),
            "prompt_tok_s": round(timings.get("prompt_per_second", 0.0), 1),
            "gen_tok_s": round(timings.get("predicted_per_second", 0.0), 1),
            "quiet_prompt_tok_s": round(prompt_n / (quiet * share), 1) if quiet * share else 0,
            "quiet_gen_tok_s": round(gen_n / (quiet * (1 - share)), 1) if share < 1 else 0,
            "text": (answer["choices"][0]["message"].get("content") or "")[:120]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gguf", nargs="*", help="GGUF files (default: the embedded models)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--window-chars", type=int, default=4_500)
    args = parser.parse_args()
    paths = args.gguf or [str(ensure_model(SMOLLM2))]
    base = chat_messages(window_prompt(args.window_chars))
    pick = base[:-1] + [{"role": "user", "content": base[-1]["content"] + "\n\nAnswer with the "
                         "ids (seq numbers) of at most 3 events that record a decision."}]
    long = base[:-1] + [{"role": "user", "content": base[-1]["content"] + "\n\nRetell this window "
                         "in detail, event by event, in plain sentences."}]
    servers = {path: load(path, args.threads) for path in paths}
    rows: dict[str, list[dict]] = {path: [] for path in paths}
    for _ in range(args.rounds):
        for path, (server, _) in servers.items():
            rows[path].append({
                "pick": call(server, pick, args.threads, max_tokens=24, response_format={
                    "type": "json_schema", "json_schema": {"name": "pick", "schema": PICK}}),
                "long": call(server, long, args.threads, max_tokens=300, ignore_eos=True),
            })
    report = {"machine": platform.processor() or platform.machine(), "cpus": os.cpu_count(),
              "load_avg": os.getloadavg(), "threads": args.threads, "models": {}}
    for path, runs in rows.items():
        med = {kind: {key: statistics.median(run[kind][key] for run in runs)
                      for key in ("seconds", "quiet_seconds", "prompt_tokens", "completion_tokens",
                                  "prompt_tok_s", "gen_tok_s", "quiet_prompt_tok_s",
                                  "quiet_gen_tok_s")} for kind in ("pick", "long")}
        report["models"][Path(path).name] = {"size_mb": round(Path(path).stat().st_size / 1e6),
                                             "load_s": round(servers[path][1], 1), **med,
                                             "pick_answer": runs[-1]["pick"]["text"]}
        print(f"{Path(path).name}: {json.dumps(report['models'][Path(path).name])}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "model_speed.json").write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
