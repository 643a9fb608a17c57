"""Every memory is dated by its events: with no time from the model, `ts_valid_start` is the
earliest cited event's time, whatever the backend (`none`, a model that gives no times; the
embedded llama.cpp model in tests/jobs/test_model_e2e.py)."""

from __future__ import annotations

import json

import pytest

from ingest.nodes import NodeRef
from ingest.sources import read_node
from jobs.api import run_nodes
from jobs.settings import load_settings
from sinks.lake import Lake
from synth.report import parse_ts
from tests import scripted


def undated(prompt) -> str:
    """A grounded report with no time at all: each item restates and cites two events."""
    lines = [line for line in prompt.user.splitlines() if line.startswith("[")]
    first, last = lines[0], lines[-1]
    return json.dumps({
        "worked_on": [{"summary": "Worked on: " + first.split(": ", 1)[-1][:80], "ts_start": None,
                       "ts_end": None, "session_id": None,
                       "evidence": scripted.cited(last) + scripted.cited(first)}],
        "decisions": [{"summary": "Decided: " + last.split(": ", 1)[-1][:80], "rationale": None,
                       "ts": None, "evidence": scripted.cited(last)}],
        "outcomes": [], "blockers": [], "open_questions": [], "preferences_learned": []})


@pytest.mark.parametrize("backend", ["none", "scripted"])
def test_every_memory_is_dated_by_its_earliest_cited_event(ray_cluster, lake_dir, trail_root,
                                                           backend):
    settings = load_settings(lake=lake_dir, claude_code_roots=[str(trail_root)], flush=True,
                             max_windows=50, backend="none" if backend == "none" else "llamacpp",
                             sources=["claude-code"], all_projects=True, since_hours=0,
                             embeddings={"enabled": False})
    factory = scripted.factory(undated) if backend == "scripted" else None
    assert run_nodes(settings, backend_factory=factory).memories_written > 0
    with Lake(lake_dir) as lake:
        rows = lake.con.execute(
            "SELECT m.ts_valid_start, m.evidence_seqs, m.attempt_id, a.cursor_from, n.path, "
            "n.node_id, n.project FROM memories m JOIN (SELECT DISTINCT attempt_id, cursor_from "
            "FROM attempts) a USING (attempt_id) JOIN nodes n USING (node_id)").fetchall()
    assert rows and all(start is not None for start, *_ in rows)
    for start, evidence, _, cursor_from, path, node_id, project in rows:
        events = read_node(NodeRef("claude-code", node_id, path, project), cursor_from)[0].events
        cited = [e for e in events if e.seq in set(evidence or ())] or events[:1]
        assert start == min(parse_ts(e.ts) for e in cited)
