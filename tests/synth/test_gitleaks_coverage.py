"""Issue 41: every family of gitleaks' default rules is masked, through every way in.

The lines are not hand-picked: `tests.rule_samples` samples each rule's own expression (seeded)
and keeps what the rule itself reports as a secret, in the forms secrets take in trails. Each
sampled secret must be gone from what `mask_text`, `interview mask`, the server's inbox and a
batch run (prompt and lake) hold. A rule the masker does not cover is listed in EXCEPTIONS with
its reason (at most five).
"""

from __future__ import annotations

import json
import random
import shutil

import pytest
from click.testing import CliRunner

from synth.gitleaks import RULES, WITHOUT_EXPRESSION
from synth.masking import mask_text
from tests.rule_samples import rule_samples

SEED = 41
SAMPLES = {rule.id: rule_samples(rule, random.Random(f"{rule.id}:{SEED}")) for rule in RULES}
# rule id → why the masker leaves its samples (none at present; the test allows five).
EXCEPTIONS: dict[str, str] = {}
ALL = [sample for rule_id in sorted(SAMPLES) if rule_id not in EXCEPTIONS
       for sample in SAMPLES[rule_id]]


def left_in(text: str, samples=ALL) -> list[tuple[str, str]]:
    """(rule, secret) of every sample whose secret survives in `text`."""
    return [(sample.rule, sample.secret) for sample in samples if sample.secret in text]


def test_every_rule_with_an_expression_is_sampled_in_several_forms():
    assert len(RULES) + len(WITHOUT_EXPRESSION) == 222
    assert WITHOUT_EXPRESSION == ("pkcs12-file",)  # a file-name rule: nothing in a trail's text
    unsampled = sorted(rule_id for rule_id, found in SAMPLES.items() if not found)
    assert unsampled == []
    assert len(EXCEPTIONS) <= 5
    assert sum(len(found) for found in SAMPLES.values()) > 4 * len(RULES)


@pytest.mark.parametrize("rule_id", sorted(SAMPLES))
def test_mask_text_hides_every_sample_of(rule_id):
    if rule_id in EXCEPTIONS:
        pytest.skip(EXCEPTIONS[rule_id])
    for sample in SAMPLES[rule_id]:
        masked, found = mask_text(sample.line)
        assert found and sample.secret not in masked, (sample.form, sample.line, masked)


def test_interview_mask_hides_every_sample():
    from jobs.cli import main

    result = CliRunner().invoke(main, ["mask"], input="\n".join(s.line for s in ALL) + "\n")
    assert result.exit_code == 0, result.output
    assert left_in(result.stdout) == []


def windows(node: str, lines: list[str], size: int = 400):
    """Submit bodies holding `lines` as events, `size` a window."""
    for start in range(0, len(lines), size):
        part = lines[start:start + size]
        events = [{"seq": start + i, "ts": f"2026-12-06T10:{(start + i) % 60:02d}:00Z",
                   "session_id": "s1", "role": "user" if i % 2 == 0 else "assistant",
                   "kind": "message", "content": line} for i, line in enumerate(part)]
        yield {"node_id": node, "agent_id": "agent-1", "cursor_from": start,
               "cursor_to": start + len(part) - 1, "events": events}


@pytest.mark.slow  # a server process and a lake
def test_the_server_inbox_holds_no_sample(tmp_path):
    from sinks.lake import Lake
    from tests.serving import Server, write_config

    config = write_config(tmp_path / "server.toml", tmp_path / "lake",
                          tail="[embeddings]\nenabled = false")
    server = Server(config)
    try:
        with server.client() as http:
            for window in windows("n:gitleaks", [s.line for s in ALL]):
                answer = http.post("/api/v1/interview/submit", json=window)
                assert answer.status_code in (200, 202), answer.text
    finally:
        server.stop()
    with Lake(tmp_path / "lake", create=False) as lake:
        stored = "\n".join(str(row) for row in lake.con.execute(
            "SELECT * FROM inbox_jobs").fetchall())
    assert "gitleaks" in stored or "«" in stored  # the windows are there, masked
    assert left_in(stored) == []


def test_a_batch_run_sends_and_stores_no_sample(ray_cluster, lake_dir, tmp_path):
    from jobs.api import run_nodes
    from jobs.settings import load_settings
    from sinks.lake import Lake
    from tests import scripted
    from tests.conftest import SAMPLES as TRAILS
    from tests.jobs.test_planted_secrets import recording

    project = tmp_path / "projects" / "proj"
    project.mkdir(parents=True)
    trail = project / "gitleaks.jsonl"
    shutil.copy(TRAILS / "spotter" / "tool_heavy.jsonl", trail)
    with open(trail, "a") as handle:
        for i, sample in enumerate(ALL):
            role = "user" if i % 2 == 0 else "assistant"
            handle.write(json.dumps({
                "type": role, "sessionId": "S", "uuid": f"g{i}",
                "timestamp": f"2026-12-06T10:{i // 60 % 60:02d}:{i % 60:02d}.000Z",
                "message": {"role": role, "content": f"for the deploy: {sample.line}"}}) + "\n")
    prompts = tmp_path / "prompts.txt"
    settings = load_settings(lake=lake_dir, claude_code_roots=[str(tmp_path / "projects")],
                             flush=True, backend="llamacpp", sources=["claude-code"],
                             all_projects=True, since_hours=0)
    summary = run_nodes(settings, backend_factory=scripted.factory(recording(str(prompts))))
    assert summary.windows >= 1 and not summary.parked
    sent = prompts.read_text()
    assert "for the deploy" in sent
    with Lake(lake_dir) as lake:
        stored = "\n".join(str(row) for table in ("memories", "attempts", "nodes", "runs")
                           for row in lake.con.execute(f"SELECT * FROM {table}").fetchall())
    assert left_in(sent) == []
    assert left_in(stored) == []

