"""The quality bench's baselines through the real pipeline (Ray, the reduce, the support check,
a DuckLake): the oracle reaches the ceiling, copy-prompts falls into the traps a verbatim store
falls into, and the verdict says which backend beats copy-prompts."""

from pathlib import Path

import pytest

from bench.quality_run import load_labels, run_backend
from bench.quality_score import score_memories, verdict
from sinks.lake import Lake

STORIES = ("mobile-app", "dashboard-ui", "semantic-search")


@pytest.fixture(scope="module")
def labels():
    return load_labels()


def some_trails(labels):
    return [t for t in labels["trails"] if t["shape"] == "codex" and t["story"] in STORIES]


def run(backend, labels, tmp_path):
    trails = some_trails(labels)
    done = run_backend(backend, labels, "test", max_window_chars=6000, work=tmp_path,
                       trails=trails)
    return done, score_memories(done.memories, {**labels, "trails": trails}, "test")


def test_oracle_is_the_ceiling_and_copy_prompts_the_bar(ray_cluster, labels, tmp_path):
    oracle, best = run("oracle", labels, tmp_path / "oracle")
    assert oracle.model == "oracle-labels-v1" and oracle.windows >= 3
    assert (best.recall, best.precision, best.traps_violated) == (1.0, 1.0, 0)
    assert best.memories == best.planted == 4 + 4 + 4
    with Lake(tmp_path / "oracle" / "lake", create=False) as lake:
        assert lake.con.execute("SELECT DISTINCT backend FROM attempts").fetchall() == [("oracle",)]

    _, copied = run("copy-prompts", labels, tmp_path / "copy")
    assert 0 < copied.recall < 1 and 0 < copied.precision < 1
    hit = {v["trap"] for v in copied.violations}
    assert "Blocked until the distribution certificate is renewed." in hit  # "stuck until she does"
    assert "The e2e suite can be skipped for hotfix releases." in hit  # the QA paste, verbatim
    assert verdict(best, copied) == "yes"

    _, nothing = run("none", labels, tmp_path / "none")
    assert nothing.memories == oracle.windows and nothing.recall == 0
    assert verdict(nothing, copied).startswith("no (recall 0.0")


def test_the_committed_run_rescores_to_the_readme_verdicts(tmp_path, monkeypatch, capsys):
    """The README's table comes back from the run's saved memories with today's labels and
    matcher: the embedded model is not useful, the oracle is."""
    import bench.quality

    monkeypatch.setattr(bench.quality, "OUT", tmp_path)
    run = Path(bench.quality.ROOT) / "bench" / "quality" / "runs" / "2026-12-04-test.json"
    bench.quality.main(["--rescore", str(run)])
    rows = {line.split(" | ")[0].strip("| "): line for line in capsys.readouterr().out.splitlines()
            if line.startswith("| ") and "of 24" in line}
    assert rows["oracle"].endswith("| 1.0 | 1.0 | 0 of 24 | yes |")
    assert "| no (recall 0.031 ≤ 0.375, precision 0.208 ≤ 0.56) |" in rows["llamacpp"]
    assert rows["copy-prompts"].endswith("| 12 of 24 | baseline |")
