"""What the interview writes, scored strictly against a labelled set, next to baselines.

    python bench/quality.py                # the test split: copy-prompts, oracle, none, embedded
    python bench/quality.py --split dev            # the dev split (where thresholds are chosen)
    python bench/quality.py --backend copy-prompts --backend oracle --backend none   # seconds
    python bench/quality.py --backend llamacpp --prompt extract-cues --prompt contract --prompt lean
    python bench/quality.py --rescore bench/out/quality.json   # new labels/matcher, same memories
    python bench/quality.py --backend openai --openai-url http://127.0.0.1:8000/v1 \\
        --openai-model Qwen/Qwen2.5-7B-Instruct     # your own `vllm serve` or llama-server

The set is `bench/quality/` (`make_set.py` writes it from `bench/quality_stories.py`: each story
as a Claude Code, Cursor, OpenClaw and Codex trail; `labels.json`). Stories are split dev/test by
`bench/split.py`. Every backend, baselines included, runs the real pipeline (`run_nodes`) into a
fresh lake (`bench/quality_run.py`); the scores are `bench/quality_score.py` with the strict
matcher of `bench/strict_match.py`:

- recall: planted facts that ONE memory of their trail states (all terms, with their polarity,
  and all figures);
- label precision: memories that state a planted fact or a labelled acceptable statement (and
  violate no trap) over memories written;
- traps violated: (trail, trap) pairs where a memory states the trap (terms + polarity);
- useful: beats `copy-prompts` (every user prompt stored verbatim) on recall AND precision;
  `oracle` (the labels' ideal statements as answers) is the ceiling of everything after the model.

Prints the tables, writes bench/out/quality.json (with every memory written and every trap hit).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.quality_run import load_labels, run_backend, trails_of  # noqa: E402
from bench.quality_score import BASELINE, TYPES, score_memories, verdict  # noqa: E402

OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))
DEFAULT_BACKENDS = ["copy-prompts", "oracle", "none", "embedded"]
CHOICES = ["copy-prompts", "oracle", "none", "embedded", "llamacpp", "openai", "vllm"]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from synth.prompt import VARIANTS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", action="append", choices=CHOICES,
                        help=f"repeatable (default: {', '.join(DEFAULT_BACKENDS)})")
    parser.add_argument("--split", choices=["test", "dev", "all"], default="test",
                        help="stories to run: the test split (reported), dev (for choosing), all")
    parser.add_argument("--prompt", choices=sorted(VARIANTS), action="append",
                        help="llamacpp prompt variant(s), repeatable (default: the settings' own)")
    parser.add_argument("--openai-url", default="http://127.0.0.1:8000/v1")
    parser.add_argument("--openai-model", default="default")
    parser.add_argument("--max-window-chars", type=int, default=6000,
                        help="window size (6000 keeps the CPU model to a chunk or two)")
    parser.add_argument("--rescore", type=Path, metavar="QUALITY_JSON", action="append",
                        help="score the memories previous runs wrote (their JSON; repeatable: "
                             "one table) again, with the current labels and matcher; runs no "
                             "backend")
    return parser.parse_args(argv)


def runs_of(args: argparse.Namespace) -> list[tuple[str, str, dict | None, dict | None]]:
    """(label, backend, llamacpp options, openai options) for each row to run."""
    rows = []
    for backend in args.backend or DEFAULT_BACKENDS:
        if backend == "llamacpp":
            for variant in args.prompt or [None]:
                label = f"llamacpp ({variant} prompt)" if variant else "llamacpp"
                rows.append((label, backend, {"prompt": variant} if variant else None, None))
        elif backend in ("openai", "vllm"):
            rows.append((backend, backend, None,
                         {"base_url": args.openai_url, "model": args.openai_model}
                         if backend == "openai" else None))
        else:
            rows.append((backend, backend, None, None))
    return rows


def table(results: list[dict]) -> list[str]:
    head = ("| backend | model | windows | memories | per window | s/window | recall | "
            "label precision | traps violated | useful (beats copy-prompts) |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in results:
        s = r["score"]
        windows = max(r["windows"], 1)
        lines.append(
            f"| {r['label']} | {r['model']} | {r['windows']} | {s['memories']} | "
            f"{s['memories'] / windows:.2f} | {r['seconds'] / windows:.2f} | {s['recall']} | "
            f"{s['precision']} | {s['traps_violated']} of {s['traps']} | {r['verdict']} |")
    lines += ["", "| backend | " + " | ".join(TYPES) + " |", "|---|" + "---|" * len(TYPES)]
    for r in results:
        by_type = r["score"]["recall_by_type"]
        lines.append(f"| {r['label']} | " + " | ".join(str(by_type[k]) for k in TYPES) + " |")
    return lines


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    labels = load_labels()
    trails = trails_of(labels, args.split)
    stories = sorted({t["story"] for t in trails})
    results, scores = [], []
    for path in args.rescore or []:
        saved = json.loads(path.read_text())
        args.split, args.max_window_chars = saved["split"], saved["max_window_chars"]
        trails = trails_of(labels, args.split)
        stories = sorted({t["story"] for t in trails})
        for r in saved["results"]:
            scores.append(score_memories(r["memories"], labels, args.split))
            results.append({**r, "score": scores[-1].as_json(), "from": str(path)})
    for label, backend, llamacpp, openai in [] if args.rescore else runs_of(args):
        print(f"running {label} on the {args.split} split ...", file=sys.stderr, flush=True)
        run = run_backend(backend, labels, args.split, max_window_chars=args.max_window_chars,
                          llamacpp=llamacpp, openai=openai)
        scores.append(score_memories(run.memories, labels, args.split))
        results.append({"label": label, "backend": backend, "model": run.model,
                        "windows": run.windows, "seconds": round(run.seconds, 1),
                        "model_seconds": round(run.model_seconds, 1), "counts": run.counts,
                        "score": scores[-1].as_json(), "memories": run.memories})
    baseline = next((s for r, s in zip(results, scores, strict=True)
                     if r["backend"] == BASELINE), None)
    for r, s in zip(results, scores, strict=True):
        r["verdict"] = "baseline" if r["backend"] == BASELINE else verdict(s, baseline)
    planted = results[0]["score"]["planted"] if results else 0
    traps = results[0]["score"]["traps"] if results else 0
    print(f"\nquality on the {args.split} split: {len(stories)} stories ({', '.join(stories)}), "
          f"{len(trails)} trails, {planted} planted facts, {traps} traps; windows of "
          f"{args.max_window_chars} characters\n")
    print("\n".join(table(results)))
    for r in results:
        hits = r["score"]["violations"]
        if not hits:
            continue
        kinds: dict[str, int] = {}
        for hit in hits:
            kinds[hit["kind"]] = kinds.get(hit["kind"], 0) + 1
        print(f"\n{r['label']}: {len(hits)} trap hits (memory, trap) ("
              + ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items())) + "), e.g.:")
        for hit in {hit["trap"]: hit for hit in hits}.values():
            print(f"  \"{hit['trap']}\" <- {hit['memory'][:160]!r}")
    OUT.mkdir(parents=True, exist_ok=True)
    name = "quality.json" if args.split == "test" else f"quality-{args.split}.json"
    (OUT / name).write_text(json.dumps({
        "machine": platform.platform(), "cpus": os.cpu_count(), "split": args.split,
        "stories": stories, "max_window_chars": args.max_window_chars, "results": results},
        indent=1, default=str))
    print(f"\nwrote {OUT / name}")


if __name__ == "__main__":
    main()
