"""The support check against the labelled support set: does it keep what the cited events
support and drop what they do not? (issue 23)

    python bench/support.py                 # the table on the TEST split; bench/out/support.json
    python bench/support.py --choose        # sweep the thresholds on the DEV split
    python bench/support.py --split dev --errors     # what it gets wrong on dev, pair by pair
    python bench/support.py --no-embed      # without closeness in meaning (words and rules only)
    python bench/support.py --verify-url http://127.0.0.1:8000/v1 --verify-model M
                        # + the verify pass of a served model (one call per story window)
    python bench/support.py --verify-llamacpp
                        # + the verify pass of the embedded SmolLM2 behind llama.cpp's HTTP
                        # server on loopback (its cost in tokens and seconds)

The set is `bench/quality/support/pairs.jsonl` (`make_pairs.py`): (item, cited events) pairs by
kind, two correct kinds (verbatim, paraphrase) and eight wrong ones, each with its story's events.
Stories split dev/test by the project's rule (sha1 % 3 == 0 is test): thresholds are chosen on
dev (`--choose`) and pinned in `synth/grounding.py`; the table reports test. For each check:
the share of correct items kept and of wrong items dropped, per kind and overall. `main` is the
check as it was before issue 23 (word overlap; a copy below), the baseline row.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.events import Event  # noqa: E402
from synth import grounding  # noqa: E402
from synth.prompt import VARIANTS  # noqa: E402
from synth.report import SECTIONS  # noqa: E402

PAIRS = ROOT / "bench" / "quality" / "support" / "pairs.jsonl"
OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))
CORRECT = ("correct_verbatim", "correct_paraphrase")
WRONG = ("inverted_decision", "inverted_preference", "failed_attempt_as_fix", "swapped_figures",
         "inverted_direction", "abandoned_hypothesis", "figure_from_other_event", "status_inverted")
PARAPHRASE_SWEEP = (0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8, 1.01)
SHARE_SWEEP = (0.0, 0.25, 0.34, 0.5, 0.6)
TARGET_KEPT, TARGET_DROPPED = 0.90, 0.70  # issue 23: done when the test split clears both


# --- the check of main before issue 23 (synth/grounding.py at c86e48a), kept as the baseline ---
_WORD = re.compile(r"[a-z][a-z0-9_'-]*[a-z0-9]|[a-z]")
_FIGURE = re.compile(r"(?<![\w.])(?:v?\d[\w]*(?:[.,:/-]\d[\w]*)*%?)")
_PATH = re.compile(r"(?:[\w.@-]+/)+[\w.@-]+|\b[\w-]+\.(?:py|js|ts|tsx|jsx|json|toml|ya?ml|md|"
                   r"sql|rs|go|java|rb|exs?|sh|css|html|lock|txt|cfg|ini|csv|parquet)\b")
_IDENT = re.compile(r"`([^`\s]{2,80})`|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|"
                    r"\b[a-z]+[A-Z][A-Za-z0-9]*\b")
_MASK = re.compile(r"«[A-Z_]+»")
_STOP = frozenset("""
a about above after again against all also an and any are as at be because been before being
below between both but by can could did do does doing done down during each few for from further
had has have having he her here hers him his how i if in into is it its itself just let like made
make many may me more most must my no nor not now of off on once only or other our out over own
same she should so some such than that the their them then there these they this those through
to too under until up use used using very was way we were what when where which while who whom
why will with would yet you your
""".split())
_SUFFIXES = ("ations", "ation", "ings", "ing", "ied", "ies", "ed", "es", "er", "ly", "s", "e")
_MAIN_PROMPT_NGRAMS = {tuple(w[i:i + 4])
                       for w in (_WORD.findall(t.casefold()) for t in VARIANTS.values())
                       for i in range(len(w) - 3)}


def _main_stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[:-len(suffix)]
            break
    return word[:5]


def main_check(text: str, events: list[Event]) -> str | None:
    """main's `check_item` over main's `cited_support` (the events passed are cited ± 1)."""
    held = "\n".join(" ".join(filter(None, (e.role, e.content, e.tool, e.outcome)))
                     for e in events).casefold()
    held_words = set(_WORD.findall(held))
    held_stems = {_main_stem(w) for w in held_words}
    words = _WORD.findall(text.casefold())
    grams = {tuple(words[i:i + 4]) for i in range(len(words) - 3)}
    copied = grams & _MAIN_PROMPT_NGRAMS
    if copied and not any(" ".join(gram) in held for gram in copied):
        return "prompt_copy"
    named = {(m.rstrip(".,:;-/"), True) for m in _FIGURE.findall(_MASK.sub(" ", text))}
    named |= {(m.rstrip(".,:;-/"), False) for m in _PATH.findall(_MASK.sub(" ", text))}
    named |= {(m.group(1) or m.group(0), False) for m in _IDENT.finditer(_MASK.sub(" ", text))}
    for value, figure in {(v.casefold(), f) for v, f in named if v}:
        start = r"(?<![\w.])" if figure else r"(?<!\w)" if re.fullmatch(r"\w", value[:1]) else ""
        end = ("" if not re.fullmatch(r"\w", value[-1:]) else r"(?![\w]|\.\d)" if figure
               else r"(?!\w)")
        if re.search(rf"{start}{re.escape(value)}{end}", held) is None:
            return "unsupported_figure"
    wanted = [w for w in _WORD.findall(_MASK.sub(" ", text).casefold())
              if len(w) > 2 and w not in _STOP]
    if not named and not wanted:
        return "unsupported_words"
    share = (sum(w in held_words or _main_stem(w) in held_stems for w in wanted) / len(wanted)
             if wanted else 1.0)
    return "unsupported_words" if share < 0.4 else None
# --- end of main's check ---


def load(split: str) -> list[dict]:
    rows = [json.loads(line) for line in PAIRS.read_text().splitlines() if line.strip()]
    return [row for row in rows if split == "all" or row["split"] == split]


def events_of(row: dict) -> list[Event]:
    return [Event(e["seq"], f"2026-01-01T00:00:{i:02d}.000Z", "s", e["role"],
                  "prompt" if e["role"] == "user" else "reply", e["text"])
            for i, e in enumerate(row["events"])]


def verdict_main(row: dict) -> str | None:
    events = events_of(row)
    cited = [seq for seq in row["item"]["evidence"]]
    near = grounding._near(events, cited)
    text = " ".join(filter(None, (row["item"]["summary"], row["item"].get("rationale"))))
    return main_check(text, near)


def verdict_now(row: dict, check: grounding.SupportCheck) -> str | None:
    report = {name: [] for name in SECTIONS}
    report[row["section"]] = [dict(row["item"])]
    _, dropped = grounding.ground_items(report, events_of(row), check=check)
    return next((reason for reason, count in dropped.items() if count), None)


def score(rows: list[dict], verdicts: list[str | None]) -> dict:
    by_kind: dict[str, list[bool]] = {}
    for row, why in zip(rows, verdicts, strict=True):
        right = (why is None) if row["kind"] in CORRECT else (why is not None)
        by_kind.setdefault(row["kind"], []).append(right)
    correct = [ok for kind in CORRECT for ok in by_kind.get(kind, [])]
    wrong = [ok for kind in WRONG for ok in by_kind.get(kind, [])]
    share = lambda oks: round(sum(oks) / len(oks), 3) if oks else None  # noqa: E731
    return {"kinds": {kind: {"pairs": len(oks), "right": share(oks)}
                      for kind, oks in by_kind.items()},
            "correct_kept": share(correct), "wrong_dropped": share(wrong),
            "correct": len(correct), "wrong": len(wrong)}


def closeness(enabled: bool):
    if not enabled:
        return None
    from synth.embeddings import shared_embedder
    from synth.support.paraphrase import Closeness

    return Closeness(shared_embedder().embed)


def margin(result: dict) -> tuple[float, float]:
    """How far a result clears the targets (90% of correct kept, 70% of wrong dropped): the
    smaller margin first, then the balanced accuracy. The sweep keeps the best."""
    kept, dropped = result["correct_kept"], result["wrong_dropped"]
    smaller = min(kept - TARGET_KEPT, dropped - TARGET_DROPPED)
    return round(smaller, 4), round((kept + dropped) / 2, 4)


def choose(args) -> dict:
    """Sweep the paraphrase cosine and the polarity rule's minimum share on the DEV split."""
    from synth.support import polarity

    rows = load("dev")
    near = closeness(True)
    table = []
    pinned = polarity.MIN_SHARE
    try:
        for share in SHARE_SWEEP:
            polarity.MIN_SHARE = share
            for threshold in PARAPHRASE_SWEEP:
                check = grounding.SupportCheck(min_paraphrase=threshold, closeness=near)
                result = score(rows, [verdict_now(row, check) for row in rows])
                table.append({"min_share": share, "min_paraphrase": threshold, **result,
                              "margin": margin(result)})
    finally:
        polarity.MIN_SHARE = pinned
    best = max(table, key=lambda r: (r["margin"], r["min_paraphrase"], -r["min_share"]))
    print(f"dev split: {len(rows)} pairs; polarity min share x paraphrase cosine (1.01 = off)\n")
    print("| min share | min cosine | correct kept | wrong dropped | margin to 90/70 |")
    print("|---|---|---|---|---|")
    for r in table:
        mark = " ←" if r is best else ""
        print(f"| {r['min_share']} | {r['min_paraphrase']} | {r['correct_kept']:.3f} | "
              f"{r['wrong_dropped']:.3f} | {r['margin'][0]:+.3f}{mark} |")
    print(f"\nchosen on dev: min share {best['min_share']}, min cosine {best['min_paraphrase']} "
          f"(pinned: polarity.MIN_SHARE = {pinned}, grounding.MIN_PARAPHRASE = "
          f"{grounding.MIN_PARAPHRASE})")
    return {"sweep": table, "chosen": {"min_share": best["min_share"],
                                       "min_paraphrase": best["min_paraphrase"]}}


def label(kind: str) -> str:
    return kind.replace("_", " ") + (" (kept)" if kind in CORRECT else " (dropped)")


def table(args) -> dict:
    rows = load(args.split)
    started = time.perf_counter()
    checks = {"main (word overlap)": [verdict_main(row) for row in rows]}
    checks["meaning rules, no embedder"] = [verdict_now(row, grounding.SupportCheck())
                                            for row in rows]
    if not args.no_embed:
        near = closeness(True)
        check = grounding.SupportCheck(closeness=near)
        checks["this check (rules + paraphrase)"] = [verdict_now(row, check) for row in rows]
    seconds = time.perf_counter() - started
    scores = {name: score(rows, verdicts) for name, verdicts in checks.items()}
    names = list(checks)
    print(f"support set, {args.split} split: {len(rows)} pairs in "
          f"{len({r['story'] for r in rows})} stories\n")
    print("| kind | pairs | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for kind in CORRECT + WRONG:
        cells = [scores[n]["kinds"].get(kind, {}).get("right") for n in names]
        count = scores[names[0]]["kinds"].get(kind, {}).get("pairs", 0)
        print(f"| {label(kind)} | {count} | " + " | ".join(
            "-" if c is None else f"{c:.0%}" for c in cells) + " |")
    first = scores[names[0]]
    print(f"| **correct kept** | {first['correct']} | " + " | ".join(
        f"**{scores[n]['correct_kept']:.0%}**" for n in names) + " |")
    print(f"| **wrong dropped** | {first['wrong']} | " + " | ".join(
        f"**{scores[n]['wrong_dropped']:.0%}**" for n in names) + " |")
    last = names[-1]
    reasons = Counter(why for why in checks[last] if why)
    print(f"\n{last}: drops by reason {dict(reasons.most_common())}; {seconds:.1f}s for "
          f"{len(names)} checks")
    if args.errors:
        for row, why in zip(rows, checks[last], strict=True):
            if (why is None) != (row["kind"] in CORRECT):
                print(f"  {row['id']:28} {row['kind']:24} {why!s:18} {row['item']['summary']}")
    return {"split": args.split, "pairs": len(rows), "scores": scores,
            "verdicts": {name: {row["id"]: why for row, why in zip(rows, verdicts, strict=True)}
                         for name, verdicts in checks.items()},
            "thresholds": {"min_word_support": grounding.MIN_WORD_SUPPORT,
                           "min_paraphrase": grounding.MIN_PARAPHRASE}}


def verify_row(rows: list[dict], before: list[str | None], backend,
               stories: int | None = None) -> tuple[list, dict]:
    """The verify pass over each story's window: the items the rules kept, in one call per
    story, as the reduce sends them. Returns the verdicts after it and its cost."""
    from synth.support.verify import ask_verify, verify_request

    after = list(before)
    cost = {"calls": 0, "failed": 0, "prompt_tokens": 0, "completion_tokens": 0, "seconds": 0.0}
    for story in list(dict.fromkeys(row["story"] for row in rows))[:stories]:
        index = [i for i, row in enumerate(rows) if row["story"] == story and before[i] is None]
        if not index:
            continue
        report = {name: [] for name in SECTIONS}
        for i in index:
            report[rows[i]["section"]].append(dict(rows[i]["item"]))
        order = [i for name in SECTIONS for i in index if rows[i]["section"] == name]
        request = verify_request(report, events_of(rows[index[0]]))
        answer = ask_verify(backend, request)
        cost["calls"] += 1
        cost["prompt_tokens"] += answer.prompt_tokens
        cost["completion_tokens"] += answer.completion_tokens
        cost["seconds"] += answer.seconds
        if answer.verdicts is None:
            cost["failed"] += 1
            continue
        for number, i in enumerate(order, 1):
            verdict = answer.verdicts.get(number, "supported")
            if verdict != "supported":
                after[i] = verdict
    return after, cost


def llamacpp_server():
    """llama.cpp's own HTTP server with the embedded model, on a free loopback port."""
    import socket

    import xllamacpp

    from synth.model_store import ensure_model

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    params = xllamacpp.CommonParams()
    params.model.path = str(ensure_model())
    params.n_ctx = 8192
    params.cpuparams.n_threads = params.cpuparams_batch.n_threads = 2
    params.verbosity = -1
    params.hostnames = ["127.0.0.1"]
    params.port = port
    return xllamacpp.Server(params), f"http://127.0.0.1:{port}/v1"


def verify_table(args, result: dict) -> dict:
    """Add the verify pass's row and its cost to a table run."""
    from synth.backends.openai_http import OpenAIHttpBackend

    rows = load(args.split)
    last = list(result["verdicts"])[-1]
    before = [result["verdicts"][last][row["id"]] for row in rows]
    server = None
    url, model = args.verify_url, args.verify_model
    if args.verify_llamacpp:
        server, url = llamacpp_server()
        model = "SmolLM2-135M-Instruct"
    try:
        backend = OpenAIHttpBackend(base_url=url, model=model, max_tokens=args.verify_max_tokens,
                                    timeout_s=600, concurrency=1)
        after, cost = verify_row(rows, before, backend, args.verify_stories)
    finally:
        del server
    name = f"{last} + verify ({model})"
    scored = score(rows, after)
    print(f"\n| with the verify pass | correct kept | wrong dropped |\n|---|---|---|\n"
          f"| {last} | {result['scores'][last]['correct_kept']:.0%} | "
          f"{result['scores'][last]['wrong_dropped']:.0%} |\n"
          f"| {name} | {scored['correct_kept']:.0%} | {scored['wrong_dropped']:.0%} |")
    per_call = cost["seconds"] / cost["calls"] if cost["calls"] else 0
    print(f"\nverify pass: {cost['calls']} calls (one per story window), {cost['failed']} failed, "
          f"{cost['prompt_tokens']} prompt + {cost['completion_tokens']} completion tokens, "
          f"{cost['seconds']:.1f}s ({per_call:.1f}s a call)")
    result["scores"][name] = scored
    result["verify_cost"] = cost
    result["verdicts"][name] = {row["id"]: why for row, why in zip(rows, after, strict=True)}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("test", "dev", "all"), default="test")
    parser.add_argument("--choose", action="store_true", help="sweep the thresholds on dev")
    parser.add_argument("--no-embed", action="store_true", help="no closeness in meaning")
    parser.add_argument("--errors", action="store_true", help="list the pairs it gets wrong")
    parser.add_argument("--verify-url", help="an OpenAI-compatible server for the verify pass")
    parser.add_argument("--verify-model", default="default", help="the model it serves")
    parser.add_argument("--verify-llamacpp", action="store_true",
                        help="serve the embedded model with llama.cpp for the verify pass")
    parser.add_argument("--verify-max-tokens", type=int, default=1024)
    parser.add_argument("--verify-stories", type=int, help="verify only the first N story windows")
    args = parser.parse_args()
    result = choose(args) if args.choose else table(args)
    if not args.choose and (args.verify_url or args.verify_llamacpp):
        result = verify_table(args, result)
    OUT.mkdir(parents=True, exist_ok=True)
    name = "support_choose.json" if args.choose else f"support_{args.split}.json"
    (OUT / name).write_text(json.dumps(result, indent=1))
    print(f"\nwrote {OUT / name}")


if __name__ == "__main__":
    main()
