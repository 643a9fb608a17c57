"""One small window through the real embedded model (llama.cpp on CPU), end to end."""

import pytest

from jobs.api import run_nodes
from jobs.settings import load_settings
from sinks.lake import Lake
from synth.report import MEMORY_TYPES

pytestmark = pytest.mark.model


def test_real_llamacpp_window_becomes_typed_memories(ray_cluster, lake_dir, trail_root):
    for project in trail_root.iterdir():  # keep one short session
        for path in project.glob("*.jsonl"):
            if path.name != "short.jsonl":
                path.unlink()
    settings = load_settings(lake=lake_dir, claude_code_roots=[str(trail_root)], flush=True,
                             backend="llamacpp", sources=["claude-code"], all_projects=True, since_hours=0)
    summary = run_nodes(settings)
    assert summary.model == "SmolLM2-135M-Instruct-Q4_1"
    assert (summary.windows, summary.parked, summary.retrying) == (1, 0, 0)
    assert summary.chunks == 1
    with Lake(lake_dir) as lake:
        rows = lake.con.execute(
            "SELECT memory_type, content, ts_valid_start, evidence_seqs FROM memories").fetchall()
        ledger = lake.con.execute("SELECT status, model, prompt_version FROM attempts").fetchall()
        events_ts = {"2026-02-10T21:12:00.373Z"}
    assert ledger == [("committed", "SmolLM2-135M-Instruct-Q4_1", "interview-v2-extract")]
    # The embedded default extracts: the model labels the window's own statements, and what
    # lands is the trail's words, each citing the event it was taken from, at that event's time.
    trail = (trail_root / "spotter" / "short.jsonl").read_text()
    assert {row[0] for row in rows} <= set(MEMORY_TYPES.values())
    for _, content, ts, evidence in rows:
        assert len(evidence) == 1
        words = content.removeprefix("[success] ").removeprefix("[failure] ")
        assert words.removeprefix("[partial] ")[:40] in trail
        # Dated by the event it cites.
        assert ts is not None and ts.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z" in events_ts
