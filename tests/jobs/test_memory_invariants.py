"""What every stored memory holds, whatever the model answered (invariant 5): its evidence is
events of its own window, and its time is the time of one of the events it cites. These were
scores of the quality bench ("timestamps correct", "precision (trail)"); they are invariants."""

import json
import re

from ingest.sources import read_node
from jobs.api import discover_nodes, run_nodes
from jobs.settings import load_settings
from sinks.lake import Lake
from synth.report import parse_ts
from tests import scripted

_LINE = re.compile(r"^\[(\d+)\] (\S+) ")
OUTSIDE = 10**9  # a seq no window holds


def settings_for(lake_dir, trail_root, backend):
    return load_settings(lake=lake_dir, claude_code_roots=[str(trail_root)], flush=True,
                         max_windows=50, backend=backend, sources=["claude-code"],
                         all_projects=True, since_hours=0)


def skewed(prompt):
    """Items grounded in the chunk's words whose times and citations are off: a time of another
    event of the window, an invented time, a seq outside the window, no time at all."""
    lines = [(int(m.group(1)), m.group(2), line.split(": ", 1)[-1][:80])
             for line in prompt.user.splitlines() if (m := _LINE.match(line))]
    (first, first_ts, first_text), (last, last_ts, last_text) = lines[0], lines[-1]
    return json.dumps({
        "worked_on": [{"summary": f"Worked on: {first_text}", "ts_start": last_ts, "ts_end": None,
                       "session_id": None, "evidence": [first]}],
        "decisions": [{"summary": f"Decided: {last_text}", "rationale": None, "ts": first_ts,
                       "evidence": [last]}],
        "outcomes": [{"summary": f"Outcome: {first_text}", "result": "success",
                      "ts": "1999-01-01T00:00:00Z", "evidence": [OUTSIDE, first]}],
        "blockers": [{"summary": f"Blocked: {last_text}", "ts": last_ts, "evidence": [OUTSIDE]}],
        "open_questions": [{"summary": f"Question: {last_text}", "ts": None, "evidence": [last]}],
        "preferences_learned": [],
    })


def stored(lake_dir, settings):
    """Every memory with its window's range and its node's event times by seq."""
    times = {node.node_id: {e.seq: e.ts for e in read_node(node, 0)[0].events}
             for node in discover_nodes(settings).nodes}
    with Lake(lake_dir) as lake:
        rows = lake.con.execute(
            "SELECT m.node_id, m.memory_type, m.evidence_seqs, m.ts_valid_start, m.ts_valid_end, "
            "a.cursor_from, a.cursor_to FROM memories m JOIN attempts a USING (attempt_id)"
        ).fetchall()
    return rows, times


def same_instant(stored_ts, event_ts) -> bool:
    return abs((parse_ts(event_ts) - stored_ts).total_seconds()) < 1


def test_every_memory_cites_its_window_and_takes_a_cited_events_time(
        ray_cluster, lake_dir, trail_root):
    settings = settings_for(lake_dir, trail_root, "llamacpp")
    summary = run_nodes(settings, backend_factory=scripted.factory(skewed))
    assert summary.windows == 6 and summary.dropped_no_evidence == 6  # the blockers: no evidence
    rows, times = stored(lake_dir, settings)
    assert len(rows) >= 6
    for node_id, kind, seqs, start, end, cursor_from, cursor_to in rows:
        cited = {seq: times[node_id][seq] for seq in seqs or []}
        assert cited, f"{kind} on {node_id} cites nothing"
        assert all(cursor_from <= seq <= cursor_to and seq in times[node_id] for seq in cited)
        assert start is not None and any(same_instant(start, ts) for ts in cited.values()), \
            f"{kind} on {node_id}: {start} is not the time of a cited event {cited}"
        assert end is None or any(same_instant(end, ts) for ts in cited.values())


def test_without_a_model_the_episode_takes_its_windows_times(ray_cluster, lake_dir, trail_root):
    settings = settings_for(lake_dir, trail_root, "none")
    run_nodes(settings)
    rows, times = stored(lake_dir, settings)
    assert len(rows) == 6
    for node_id, _, seqs, start, end, cursor_from, cursor_to in rows:
        window = [ts for seq, ts in times[node_id].items() if cursor_from <= seq <= cursor_to]
        assert not seqs
        assert any(same_instant(start, ts) for ts in window)
        assert any(same_instant(end, ts) for ts in window)
