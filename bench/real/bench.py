"""The real-session benchmark: every backend over the same real Claude Code sessions, scored by
the readers' labels and gold lists, in one run, baselines included.

    python -m bench.real.bench                       # test split, the default and the baselines
    python -m bench.real.bench --split dev --backends embedded,embedded+135m,before
    python -m bench.real.bench --backends openai --openai-url http://gpu:8000/v1 --model NAME

Prints a table and writes bench/out/real-bench.json (and each backend's memories, for readers:
bench/out/real-memories-<backend>.json). Precision: memories that are a keep-labelled statement
of the right type, or a reader's verdict for other text; a memory with neither is "unjudged".
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from bench.real.labels import reader_labels, settled_labels
from bench.real.runs import BACKENDS, dump, run_backend
from bench.real.score import score_run

OUT = Path(__file__).parents[1] / "out"
DEFAULT = ("embedded", "before", "copy-prompts", "last-reply", "oracle", "none")
COLUMNS = (("backend", 14), ("per_session", 7), ("gold_per_session", 6), ("size_ratio", 6),
           ("precision", 6), ("judged", 6), ("shape_junk", 6), ("recall", 6),
           ("recall_estimate", 6), ("seconds_per_window", 7))
HEADS = ("backend", "mem/s", "gold/s", "ratio", "prec", "judged", "shape", "recall", "rec~",
         "s/win")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("test", "dev", "all"), default="test")
    parser.add_argument("--backends", default=",".join(DEFAULT),
                        help=f"comma-separated, of: {', '.join(BACKENDS)}")
    parser.add_argument("--labels", choices=("settled", "A", "B"), default="settled",
                        help="whose labels score (settled: A with the test split's disagreements "
                             "settled by a third read)")
    parser.add_argument("--sessions", type=int, help="only the first N sessions (a quick look)")
    parser.add_argument("--openai-url", help="the served model's OpenAI-compatible URL")
    parser.add_argument("--model", help="the served model's name (openai) or path (vllm)")
    parser.add_argument("--json", type=Path, default=OUT / "real-bench.json")
    return parser.parse_args(argv)


def options_for(name: str, args: argparse.Namespace) -> dict:
    if name == "openai":
        if not args.openai_url:
            raise SystemExit("--backends openai needs --openai-url (and --model)")
        return {"base_url": args.openai_url, "model": args.model or "default"}
    if name == "vllm" and args.model:
        return {"model_path": args.model}
    return {}


def table(rows: list[dict]) -> list[str]:
    lines = ["  ".join(f"{h:>{w}}" if i else f"{h:<{w}}" for i, (h, (_, w)) in
                       enumerate(zip(HEADS, COLUMNS)))]
    for row in rows:
        cells = []
        for i, (key, width) in enumerate(COLUMNS):
            value = row[key]
            text = "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)
            cells.append(f"{text:>{width}}" if i else f"{text:<{width}}")
        lines.append("  ".join(cells))
    return lines


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    names = [n.strip() for n in args.backends.split(",") if n.strip()]
    unknown = [n for n in names if n not in BACKENDS]
    if unknown:
        print(f"unknown backend(s) {unknown}; choose from {', '.join(BACKENDS)}", file=sys.stderr)
        return 2
    labels = settled_labels() if args.labels == "settled" else reader_labels(args.labels)
    labelled = {name: s for name, s in labels.items()
                if args.split == "all" or s.session.split == args.split}
    if args.sessions:
        labelled = dict(list(labelled.items())[:args.sessions])
    if not labelled:
        print(f"no labelled sessions in split {args.split}", file=sys.stderr)
        return 2
    from synth.embeddings import shared_embedder

    embedder = shared_embedder()
    rows = []
    OUT.mkdir(parents=True, exist_ok=True)
    for name in names:
        print(f"[{name}] {len(labelled)} sessions ...", file=sys.stderr, flush=True)
        run = run_backend(name, labelled, options_for(name, args))
        (OUT / f"real-memories-{name}.json").write_text(dump(run))
        rows.append(score_run(run, labelled, embedder))
    windows = sum(len(s.session.windows) for s in labelled.values())
    print(f"real sessions, split {args.split}: {len(labelled)} sessions, {windows} windows, "
          f"labels {args.labels}")
    print("\n".join(table(rows)))
    print("junk by class (share of memories):")
    for row in rows:
        print(f"  {row['backend']:<14} " + " ".join(f"{k} {v:.2f}" for k, v in row["junk"].items() if v))
    args.json.write_text(json.dumps({"split": args.split, "labels": args.labels,
                                     "sessions": len(labelled), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
