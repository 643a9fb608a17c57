"""A lake to look at: real Claude Code trail files and memories that cite their lines, for
`bench/ui.py` (the timing of a 1,000-memory page, and the screenshots in docs/).

Each project has sessions (trail files under `<trails>/<project>/`); each window of 10 lines
gives memories of several types whose evidence is lines of that window, so a memory's page shows
its events with FILE:LINE. The busiest project holds `memories` memories, two others a tenth
each; one memory is the untrusted text `<script>…</script>` (it must show as text).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

TOPICS = ["the login page", "CSV export", "the flaky integration test", "dark mode",
          "the billing webhook", "pagination of the search API", "the Docker image size",
          "TypeScript strict mode", "the onboarding e-mail", "rate limits on the public API",
          "the nightly cron job", "memory usage of the parser", "the release checklist",
          "the postgres catalog", "the S3 bucket policy", "the retry budget"]
SECTION_TEXT = {  # section → how a memory of it reads
    "worked_on": "Worked on {topic}: {detail}",
    "decisions": "Use {choice} for {topic}",
    "outcomes": "Fixed {topic}; {detail}",
    "blockers": "Blocked: {topic} waits for {choice}",
    "open_questions": "Open question: should {topic} use {choice}?",
    "preferences_learned": "The user prefers {choice} for {topic}",
}
CHOICES = ["a feature flag", "Postgres", "DuckLake", "the retry queue", "small commits",
           "pytest fixtures", "a read-only key", "server-side rendering", "uvicorn workers"]
DETAILS = ["the tests pass again", "the p99 dropped to 80 ms", "the migration ran in 3 s",
           "the page loads offline", "two callers were updated", "no data was lost"]
PROJECTS = ("billing-api", "web-frontend", "infra")
PLANTED = '<script>alert("memories are untrusted text")</script> stays text'


@dataclass(frozen=True)
class TrailNode:  # what `sinks.nodes.record_nodes` needs of a node
    source: str
    node_id: str
    path: str
    project: str


def _line(kind: str, session: str, ts: datetime, text: str, n: int) -> str:
    message = {"role": kind, "content": text if kind == "user" else [{"type": "text",
                                                                      "text": text}]}
    return json.dumps({"type": kind, "sessionId": session, "uuid": f"{session}-{n}",
                       "timestamp": ts.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "message": message})


def build(root: Path, trails: Path, memories: int = 1000, *, days: int = 60,
          embed: bool = True) -> dict:
    """The lake at `root` and its trails under `trails`; returns what was planted."""
    from ingest.events import Event
    from ingest.windows import Window
    from sinks.commit import CommitContext, ItemVectors, PendingWindow, commit_windows
    from sinks.items import report_to_items
    from sinks.lake import Lake
    from sinks.nodes import record_nodes
    from synth.report import SECTIONS

    rng = random.Random(26)
    context = CommitContext("run_ui_bench", "scripted", "scripted-v1", "v")
    embedder = None
    if embed:
        from synth.embeddings import shared_embedder

        embedder = shared_embedder()
    start = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)
    pending, nodes, planted = [], [], {}
    for project, share in zip(PROJECTS, (memories, memories // 10, memories // 10)):
        windows = max(1, share // 5)  # five memories a window
        sessions = max(1, windows // 8)
        folder = trails / project
        folder.mkdir(parents=True, exist_ok=True)
        for s in range(sessions):
            session = f"{project[:3]}{s:04d}"
            path = folder / f"{session}.jsonl"
            node = TrailNode("claude-code", f"cc:uibench00000:{session}", str(path), project)
            lines, events = [], []
            count = windows // sessions + (1 if s < windows % sessions else 0)
            for w in range(count):
                day = start + timedelta(days=rng.randrange(days), minutes=rng.randrange(600))
                topic = rng.choice(TOPICS)
                for n in range(10):
                    seq = len(lines)
                    kind = "user" if n % 2 == 0 else "assistant"
                    detail, choice = rng.choice(DETAILS), rng.choice(CHOICES)
                    text = (f"Let us look at {topic} again: {detail}; maybe {choice} (mail "
                            "ops@example.org if it breaks)" if kind == "user" else
                            f"I checked {topic}: {detail}, using {choice}.")
                    if project == "web-frontend" and s == 0 and w == 0 and n == 0:
                        text = PLANTED + " — seen in a pasted snippet"
                    ts = day + timedelta(minutes=n)
                    lines.append(_line(kind, session, ts, text, seq))
                    events.append(Event(seq, ts.strftime("%Y-%m-%dT%H:%M:%S.000Z"), session,
                                        kind, "prompt" if kind == "user" else "reply", text))
                window_events = tuple(events[-10:])
                first = window_events[0].seq
                window = Window(node.node_id, "agent", first, first + 9, window_events, "local")
                body = {name: [] for name in SECTIONS}
                for section in rng.sample(list(SECTIONS), 5):
                    seq = first + rng.randrange(10)
                    summary = SECTION_TEXT[section].format(
                        topic=topic, choice=rng.choice(CHOICES), detail=rng.choice(DETAILS))
                    summary += f" (ticket {1000 + 10 * len(pending) + rng.randrange(10)})"
                    if window_events[seq - first].content.startswith(PLANTED):
                        summary, seq = PLANTED, first
                    ts = window_events[seq - first].ts
                    body[section].append({"summary": summary, "ts": ts, "ts_start": ts,
                                          "evidence": [seq], "session_id": session})
                items = report_to_items(body, window)
                vectors = None
                if embedder is not None:
                    values = embedder.embed([item.content for item in items])
                    vectors = ItemVectors(embedder.model, {item.index: v for item, v in
                                                           zip(items, values)})
                pending.append(PendingWindow(window, items, context, vectors))
                if any(item.content == PLANTED for item in items):
                    planted = {"node_id": node.node_id, "path": str(path)}
            path.write_text("\n".join(lines) + "\n")
            nodes.append((node, len(lines)))
    with Lake(root, writer=True) as lake:
        record_nodes(lake.con, "local", nodes)
        for at in range(0, len(pending), 50):
            commit_windows(lake.con, pending[at:at + 50])
    return planted
