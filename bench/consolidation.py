"""Consolidation against its labelled set (`bench/quality/consolidation/set.json`): does a lake
hold each statement once, never a superseded one, never a closed blocker; how often does it merge
two different statements; and how long does consolidating 10,000 memories take on each catalog.

    python bench/consolidation.py                       # scores on test (the real lake), timing
    python bench/consolidation.py --sweep               # choose the thresholds on dev
    python bench/consolidation.py --lake sqlite --scale 2000     # quicker

Scores (test split, unless --split): each session of every story is committed as one window per
story (the real commit, with embeddings), then `interview consolidate` runs, as a run would after
its commits; at the end
- duplicates: memories in `current_memories` beyond the first of their statement, over the
  current memories;
- superseded still current: current memories whose statement a later one replaced (target 0);
- resolved blockers current or in the digest (`interview context` of the story; target 0);
- lost: statements true at the end with no current memory (over-merging);
- wrong merges: links that join two different statements (a duplicate) or two subjects (a
  supersede or a resolve), over the links made.
The sweep runs the same pass in memory on dev for each threshold set and keeps the one with no
superseded or closed memory left current and the fewest duplicates + wrong links + lost.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SET = ROOT / "bench" / "quality" / "consolidation" / "set.json"
OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))
TENANT = "bench"


def load(split: str) -> list[dict]:
    stories = json.loads(SET.read_text())["stories"]
    return [story for story in stories if split in ("all", story["split"])]


def labelled(stories: list[dict]) -> dict[str, dict]:
    """key → the memory's labels (statement, subject: within its story) and where it was said."""
    return {m["key"]: {**m, "sid": f"{story['story']}/{m['sid']}",
                       "subject": f"{story['story']}/{m['subject']}", "story": story["story"],
                       "session": s["session"], "day": s["day"]}
            for story in stories for s in story["sessions"] for m in s["memories"]}


def score(stories: list[dict], links: list[tuple[str, str | None, str]], current: set[str],
          digests: dict[str, str]) -> dict:
    """The scores of the module docstring; `links` and `current` by memory key."""
    labels = labelled(stories)
    status = {m["sid"]: m["status"] for m in labels.values()}
    current_by_sid: dict[str, int] = {}
    for key in current:
        current_by_sid[labels[key]["sid"]] = current_by_sid.get(labels[key]["sid"], 0) + 1
    duplicates = sum(count - 1 for count in current_by_sid.values() if count > 1)
    stale = sorted(k for k in current if labels[k]["status"] == "superseded")
    closed = sorted(k for k in current if labels[k]["status"] == "closed")
    in_digest = sorted(k for k, m in labels.items() if m["status"] in ("closed", "superseded")
                       and m["type"] in ("task", "decision", "preference")
                       and _said(m["content"]) in digests.get(m["story"], ""))
    lost = sorted(sid for sid, s in status.items() if s == "current" and sid not in current_by_sid)
    made = [(a, b, r) for a, b, r in links if r != "distinct"]
    wrong = [(a, b, r) for a, b, r in made
             if (r == "duplicate" and labels[a]["sid"] != labels[b]["sid"])
             or (r != "duplicate" and labels[a]["subject"] != labels[b]["subject"])]
    return {
        "stories": len(stories), "memories": len(labels), "current": len(current),
        "duplicates": duplicates,
        "duplicates_pct": round(100 * duplicates / max(1, len(current)), 2),
        "superseded_current": len(stale), "closed_current": len(closed),
        "superseded_or_closed_in_digest": len(in_digest), "lost": len(lost),
        "links": len(made), "wrong_links": len(wrong),
        "wrong_pct": round(100 * len(wrong) / max(1, len(made)), 2),
        "wrong_merges": sum(r == "duplicate" for _, _, r in wrong),
        "examples": {"stale": stale[:5], "closed": closed[:5], "lost": lost[:5],
                     "wrong": [[labels[a]["content"], r, labels[b]["content"]]
                               for a, b, r in wrong[:5]]},
    }


def _said(content: str) -> str:
    return " ".join(content.split())[:60]


# --- the pure pass on dev, for the sweep --------------------------------------------------------

def memory_values(stories: list[dict]) -> dict[str, object]:
    from synth.consolidate import Memory
    from synth.embeddings import shared_embedder

    labels = labelled(stories)
    keys = sorted(labels)
    vectors = shared_embedder().embed([labels[k]["content"] for k in keys])
    start = datetime(2026, 1, 1, 10, tzinfo=UTC)
    return {k: Memory(k, labels[k]["type"], labels[k]["content"],
                      start + timedelta(days=labels[k]["day"], seconds=i), v,
                      failed=labels[k]["content"].startswith("[failure]"))
            for i, (k, v) in enumerate(zip(keys, vectors))}


def pure_pass(stories: list[dict], values: dict, thresholds) -> tuple[list, set[str]]:
    from synth.consolidate import Judge, consolidate

    judge = Judge(thresholds)
    links, current = [], set()
    for story in stories:
        seen, live = [], set()
        for session in story["sessions"]:
            new = [values[m["key"]] for m in session["memories"]]
            made = consolidate(new, seen, live, judge)
            seen += new
            live |= {m.memory_id for m in new}
            live -= {link.memory_id for link in made if link.relation == "duplicate"}
            live -= {link.target_id for link in made if link.relation in ("supersedes", "resolves")}
            links += [(link.memory_id, link.target_id, link.relation) for link in made]
        current |= live
    return links, current


def sweep(split: str = "dev") -> dict:
    from synth.consolidate import DEFAULT_THRESHOLDS

    stories = load(split)
    values = memory_values(stories)
    grid = {"same_cosine": (0.7, 0.75, 0.8, 0.85), "same_subject": (0.5, 0.7),
            "update_cosine": (0.4, 0.45, 0.5, 0.55), "update_subject": (0.5, 0.6, 0.75),
            "resolve_cosine": (0.4, 0.5, 0.6), "resolve_subject": (0.4, 0.6),
            "extra_cost": (0.04, 0.08, 0.12)}
    rows = []
    for combo in itertools.product(*grid.values()):
        thresholds = replace(DEFAULT_THRESHOLDS, **dict(zip(grid, combo)))
        links, current = pure_pass(stories, values, thresholds)
        scores = score(stories, links, current, {})
        bad = scores["superseded_current"] + scores["closed_current"]
        cost = scores["duplicates"] + scores["wrong_links"] + scores["lost"]
        rows.append((bad, cost, combo, scores))
    rows.sort(key=lambda row: (row[0], row[1], row[2]))
    top = [row for row in rows if row[:2] == rows[0][:2]]
    # Of the sets that score best, the one nearest the middle of them (per threshold, in grid
    # steps): the thresholds furthest from where the scores start to fall.
    middle = [sorted(combo[i] for _, _, combo, _ in top)[len(top) // 2] for i in range(len(grid))]
    steps = [list(values) for values in grid.values()]

    def distance(combo) -> int:
        return sum(abs(steps[i].index(v) - steps[i].index(m))
                   for i, (v, m) in enumerate(zip(combo, middle)))

    best = min(top, key=lambda row: (distance(row[2]), row[2]))
    print(f"sweep on {split}: {len(rows)} threshold sets, {len(top)} score best "
          f"(superseded or closed left current {best[0]}, duplicates + wrong + lost {best[1]})")
    for bad, cost, combo, scores in rows[:3]:
        print(f"  {dict(zip(grid, combo))}  stale+closed {bad}  dup+wrong+lost {cost}")
    print(f"chosen (the middle of the best): {dict(zip(grid, best[2]))}")
    return {"split": split, "chosen": dict(zip(grid, best[2])), "scores": best[3],
            "best_sets": len(top), "sets": len(rows)}


# --- the real lake ------------------------------------------------------------------------------

def pending(story: dict, session: dict, vectors: dict | None = None, tenant: str = TENANT,
            suffix: str = ""):
    from ingest.events import Event
    from ingest.windows import Window
    from sinks.commit import CommitContext, ItemVectors, PendingWindow
    from sinks.items import report_to_items
    from synth.embeddings import EMBEDDING_MODEL
    from synth.report import SECTIONS

    section = {"decision": "decisions", "task": "blockers", "outcome": "outcomes",
               "fact": "open_questions", "preference": "preferences_learned",
               "episode": "worked_on"}
    day = datetime(2026, 1, 1, 10, tzinfo=UTC) + timedelta(days=session["day"])
    memories = session["memories"]
    events = tuple(Event(i, (day + timedelta(seconds=i)).isoformat().replace("+00:00", "Z"),
                         f"{story['story']}:{session['session']}", "user", "prompt",
                         m["content"] + suffix) for i, m in enumerate(memories))
    window = Window(f"cc:bench:{story['story']}-{session['session']}", "agent", 0,
                    len(memories) - 1, events, tenant_id=tenant)
    report = {name: [] for name in SECTIONS}
    for i, m in enumerate(memories):
        text = m["content"] + suffix
        item = {"summary": text, "ts": None, "evidence": [i]}
        if m["type"] == "outcome":
            result, _, text = text[1:].partition("] ")
            item.update(summary=text, result=result)
        report[section[m["type"]]].append(item)
    items = report_to_items(report, window)
    given = None
    if vectors is not None:
        given = ItemVectors(EMBEDDING_MODEL, {item.index: vectors[item.content.removesuffix(suffix)]
                                              for item in items})
    context = CommitContext(run_id="bench", backend="bench", model="bench", prompt_version="v")
    return PendingWindow(window, items, context, given)


def lake_scores(stories: list[dict], lake: str, judge=None) -> dict:
    """Session by session, every story (a tenant of its own: a tenant's equal texts are one
    memory) committed and then consolidated; the scores at the end."""
    from jobs.agents.context import SECTIONS, render_digest
    from sinks.commit import commit_windows
    from sinks.lake import Lake
    from sinks.links import consolidate_lake
    from sinks.memory_read import recent_for_projects
    from synth.embeddings import EMBEDDING_MODEL, shared_embedder

    embedder = shared_embedder()
    rounds = max(len(story["sessions"]) for story in stories)
    key_of = {(m["story"], m["content"]): m["key"] for m in labelled(stories).values()}
    links, current, digests = [], set(), {}
    with Lake(lake, writer=True) as opened:
        con = opened.con
        for index in range(rounds):
            for story in stories:
                if index < len(story["sessions"]):
                    commit_windows(con, [pending(story, story["sessions"][index],
                                                 tenant=story["story"])], embedder=embedder)
                    consolidate_lake(con, story["story"], run_id=f"round{index}",
                                     model=EMBEDDING_MODEL, judge=judge)
        for story in stories:
            name = story["story"]
            by_id = {memory_id: key_of[(name, text)] for memory_id, text in con.execute(
                "SELECT memory_id, content FROM memories WHERE tenant_id = ?", [name]).fetchall()}
            current |= {by_id[row[0]] for row in con.execute(
                "SELECT memory_id FROM current_memories WHERE tenant_id = ?", [name]).fetchall()}
            links += [(by_id[a], by_id.get(b), r) for a, b, r in con.execute(
                "SELECT memory_id, target_id, relation FROM memory_links WHERE tenant_id = ?",
                [name]).fetchall()]
            rows = recent_for_projects(con, name, [name], tuple(kind for kind, _ in SECTIONS))
            digests[name] = render_digest(rows, name, 100_000)
    return score(stories, links, current, digests)


def timing(lake: str, scale: int) -> dict:
    """`scale` memories (the set's stories copied under new project names), committed with their
    embeddings, then consolidated in one call, as `interview consolidate` on a backfilled lake."""
    from sinks.commit import commit_windows
    from sinks.lake import Lake
    from sinks.links import consolidate_lake
    from synth.embeddings import EMBEDDING_MODEL, shared_embedder

    base = load("all")
    texts = sorted({m["content"] for story in base for s in story["sessions"]
                    for m in s["memories"]})
    vectors = dict(zip(texts, shared_embedder().embed(texts)))
    per_copy = sum(len(s["memories"]) for story in base for s in story["sessions"])
    windows = []
    for copy in range(-(-scale // per_copy)):
        for number, story in enumerate(base):
            code = _letters(copy * len(base) + number)  # a tenant's equal texts are one memory
            copied = {**story, "story": f"{story['story']}-{code}"}
            windows += [pending(copied, session, vectors, suffix=f" (project {code})")
                        for session in story["sessions"]]
    with Lake(lake, writer=True) as opened:
        started = time.perf_counter()
        for i in range(0, len(windows), 64):
            commit_windows(opened.con, windows[i:i + 64])
        written = time.perf_counter() - started
        count = opened.con.execute("SELECT count(*) FROM memories").fetchone()[0]
        result = consolidate_lake(opened.con, TENANT, run_id="timing", model=EMBEDDING_MODEL)
    return {"memories": count, "projects": result.projects, "commit_seconds": round(written, 1),
            "consolidate_seconds": result.seconds,
            "seconds_per_10k": round(result.seconds * 10_000 / count, 1), "links": result.links}


def _letters(number: int) -> str:
    """A number in letters (no figure for the rules to read): 0 → "a", 27 → "bb"."""
    text = ""
    while True:
        number, digit = divmod(number, 26)
        text = "abcdefghijklmnopqrstuvwxyz"[digit] + text
        if number == 0:
            return text + "x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="test", choices=["test", "dev", "all"])
    parser.add_argument("--sweep", action="store_true", help="choose the thresholds on dev")
    parser.add_argument("--lake", default="sqlite,postgres", help="catalogs to time")
    parser.add_argument("--scale", type=int, default=10_000, help="memories to time (0: none)")
    parser.add_argument("--model-judge", metavar="BACKEND",
                        help="score the model path: pairs asked to this backend (llamacpp, "
                             "openai, vllm; its settings from --config)")
    parser.add_argument("--config", help="settings file for --model-judge")
    parser.add_argument("--stories", type=int, help="only the first N stories of the split")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    if args.sweep:
        result = sweep()
        (OUT / "consolidation_sweep.json").write_text(json.dumps(result, indent=2, default=str))
        print(json.dumps(result["chosen"]))
        return
    scratch = Path(tempfile.mkdtemp(prefix="consolidation-"))
    report = {"split": args.split, "when": datetime.now(UTC).isoformat()}
    stories = load(args.split)[:args.stories]
    judge, pool = None, None
    if args.model_judge:
        from jobs.consolidation import _model_pool
        from jobs.settings import load_settings
        from synth.judge import ModelJudge

        settings = load_settings(args.config, backend=args.model_judge)
        pool = _model_pool(settings, None)
        judge = ModelJudge(pool.complete, pool.info["model"])
        report["judge"] = judge.name
    started = time.perf_counter()
    report["scores"] = lake_scores(stories, str(scratch / "scores"), judge)
    report["scores_seconds"] = round(time.perf_counter() - started, 1)
    if judge is not None:
        report["pairs_asked"] = judge.asked
        report["answers_unusable"] = len(judge.unusable)
        pool.shutdown()
    print(f"{args.split} ({report.get('judge', 'rules')}, {report['scores_seconds']}s): "
          + json.dumps({k: v for k, v in report["scores"].items() if k != "examples"}))
    print("  examples: " + json.dumps(report["scores"]["examples"], indent=1))
    postgres = None
    for catalog in [c for c in args.lake.split(",") if c] if args.scale else []:
        if catalog == "postgres":
            from tests.services import Postgres

            postgres = postgres or Postgres()
            lake = f"ducklake:postgres:{postgres.database()}"
            from sinks.lake import Lake

            Lake(lake, writer=True, data=str(scratch / "pg-data")).close()
        else:
            lake = str(scratch / "timing")
        report[f"timing_{catalog}"] = timing(lake, args.scale)
        print(f"{catalog}: " + json.dumps(report[f"timing_{catalog}"]))
    if postgres is not None:
        postgres.stop()
    name = "consolidation_model.json" if args.model_judge else "consolidation.json"
    (OUT / name).write_text(json.dumps(report, indent=2, default=str))


if __name__ == "__main__":
    main()
