"""The readers' side of the benchmark: agreement of the two readers on the test split, the
disagreements handed to a third reader, and the memories no label covers handed to a reader
for a verdict. Readers are strong models (subagents) or people reading whole sessions; what they
write comes back as data files under `data/`.

    python -m bench.real.readers agreement                 # Cohen's kappa, A vs B, test split
    python -m bench.real.readers disagreements OUT_DIR     # one task file a session, for reader C
    python -m bench.real.readers pending OUT_DIR [--backends copy-prompts,last-reply]
    python -m bench.real.readers collect IN_DIR            # checks verdict files into data/verdicts
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from bench.real.labels import JUNK, cohen_kappa, reader_labels
from bench.real.score import VERDICTS, judge, memory_key, read_verdicts
from sinks.items import MemoryItem

OUT = Path(__file__).parents[1] / "out"


def _pairs() -> list[tuple[str, int, str, str]]:
    """(session, statement, A's label, B's label) over the test sessions both read."""
    first, second = reader_labels("A"), reader_labels("B")
    out = []
    for name in sorted(set(first) & set(second)):
        if first[name].session.split != "test":
            continue
        a, b = first[name].labels, second[name].labels
        for row in sorted(set(a) & set(b)):
            out.append((name, row, a[row], b[row]))
    return out


def agreement() -> dict:
    pairs = _pairs()
    keep = cohen_kappa([str(a.keep) for *_, a, b in pairs], [str(b.keep) for *_, a, b in pairs])
    kind = cohen_kappa([a.head_class if a.keep else "junk:" + a.kind for *_, a, b in pairs],
                       [b.head_class if b.keep else "junk:" + b.kind for *_, a, b in pairs])
    sessions = len({name for name, *_ in pairs})
    return {"sessions": sessions, "statements": len(pairs), "kappa_keep": round(keep, 3),
            "kappa_class": round(kind, 3),
            "disagree_keep": sum(a.keep != b.keep for *_, a, b in pairs),
            "disagree_class": sum(a.head_class != b.head_class or (not a.keep and a.kind != b.kind)
                                  for *_, a, b in pairs)}


def disagreements(out_dir: Path) -> int:
    """A task file a session listing the statements A and B labelled differently (keep or
    class), without saying who said what."""
    out_dir.mkdir(parents=True, exist_ok=True)
    by_session: dict[str, list[int]] = {}
    for name, row, a, b in _pairs():
        if a.keep != b.keep or a.head_class != b.head_class:
            by_session.setdefault(name, []).append(row)
    first = reader_labels("A")
    for name, rows in by_session.items():
        statements = first[name].session.statements
        lines = [f"# {name}: settle these statements", "",
                 "Read /work/read/{}.md (the whole session), then label each statement below "
                 "with the guide's syntax.".format(name), ""]
        lines += [f"S{row} (seq {statements[row][1].seq}, {statements[row][1].role}): "
                  f"{statements[row][1].text}" for row in rows]
        (out_dir / f"{name}.md").write_text("\n".join(lines) + "\n")
    return sum(len(rows) for rows in by_session.values())


def pending(out_dir: Path, backends: list[str]) -> int:
    """The memories of the given backends' last runs (bench/out/real-memories-*.json) that no
    label and no verdict covers: a task file a session for a reader."""
    labels = reader_labels("A")
    todo: dict[str, dict[str, dict]] = {}
    for backend in backends:
        run = json.loads((OUT / f"real-memories-{backend}.json").read_text())
        for name, memories in run["sessions"].items():
            verdicts = read_verdicts(name)
            for raw in memories:
                item = MemoryItem(0, raw["type"], raw["content"], {}, None, None, None,
                                  tuple(raw["evidence"]))
                if judge(labels[name], item, verdicts).correct is None:
                    todo.setdefault(name, {})[memory_key(name, item)] = raw
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, memories in todo.items():
        gold = labels[name].gold
        lines = [f"# {name}", "", "Gold list (G-ids):"]
        lines += [f"G{i} [{g['type']}] {g['text']}" for i, g in enumerate(gold)]
        lines += ["", "Memories to judge (key: [type] content):"]
        lines += [f"{key}: [{raw['type']}] {raw['content'][:1500]}" for key, raw in memories.items()]
        (out_dir / f"{name}.md").write_text("\n".join(lines) + "\n")
    return sum(len(m) for m in todo.values())


def collect(in_dir: Path) -> Counter:
    """Check verdict files ({key: {keep, type_right, junk, gold}}) and merge them into data/."""
    VERDICTS.mkdir(parents=True, exist_ok=True)
    counts: Counter = Counter()
    for path in sorted(in_dir.glob("*.json")):
        verdicts = json.loads(path.read_text())
        for key, verdict in verdicts.items():
            if not isinstance(verdict.get("keep"), bool):
                raise SystemExit(f"{path}: {key}: 'keep' must be true or false")
            if verdict.get("junk") not in (None, *JUNK):
                raise SystemExit(f"{path}: {key}: junk {verdict['junk']!r} not in {JUNK}")
            counts["keep" if verdict["keep"] else "junk"] += 1
        merged = {**read_verdicts(path.stem), **verdicts}
        (VERDICTS / path.name).write_text(json.dumps(merged, indent=1, sort_keys=True) + "\n")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("agreement", "disagreements", "pending", "collect"))
    parser.add_argument("folder", type=Path, nargs="?")
    parser.add_argument("--backends", default="copy-prompts,last-reply")
    args = parser.parse_args(argv)
    if args.command != "agreement" and args.folder is None:
        print(f"{args.command} needs a folder", file=sys.stderr)
        return 2
    if args.command == "agreement":
        print(json.dumps(agreement()))
    elif args.command == "disagreements":
        print(f"{disagreements(args.folder)} statements to settle, in {args.folder}")
    elif args.command == "pending":
        print(f"{pending(args.folder, args.backends.split(','))} memories to judge, in {args.folder}")
    else:
        print(dict(collect(args.folder)), f"into {VERDICTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
