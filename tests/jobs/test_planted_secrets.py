"""Credentials planted in real trails never reach a prompt, a log line, the ledger or the lake."""

import json
import logging
import shutil

from jobs.api import run_nodes
from jobs.settings import load_settings
from sinks.lake import Lake
from tests import scripted
from tests.conftest import SAMPLES

PLANTED = {
    "aws": "AKIAZ7QW4RTY2UIO8PLM",
    "aws_secret": "aws_secret_access_key = Zq8vN3kR7tW2xY5bC1dF6gH9jK4mP0sL2uV7wX3e",
    "github": "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ987654",
    "openai": "sk-proj-Aq1Ws2Ed3Rf4Tg5Yh6Uj7Ik8Ol9Pz0Xc",
    "anthropic": "sk-ant-api03-Qw3Er4Ty5Ui6Op7As8Df9Gh0Jk1Lz2Xc",
    "slack": "xoxb-123456789012-987654321098-AbCdEfGhIjKlMnOpQrStUv",
    "stripe": "sk_live_51HqLyjWDarjtT1zdp7dc",
    "hf": "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",
    "db_password": "postgres://app:Tr0ub4dor-and-3@db.internal:5432/prod",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXZhbHVlLWhlcmU",
    "email": "jane.q.private@example.org",
    "card": "4539 1488 0343 6467",
    "pem": "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq98Ab\n-----END RSA PRIVATE KEY-----",
}
# What must never appear, for each planted value (the part that is the secret).
SECRET_PARTS = ["AKIAZ7QW4RTY2UIO8PLM", "Zq8vN3kR7tW2xY5bC1dF6gH9jK4mP0sL2uV7wX3e",
                "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ987654", "sk-proj-Aq1Ws2Ed3Rf4Tg5Yh6Uj7Ik8Ol9Pz0Xc",
                "sk-ant-api03-Qw3Er4Ty5Ui6Op7As8Df9Gh0Jk1Lz2Xc", "AbCdEfGhIjKlMnOpQrStUv",
                "sk_live_51HqLyjWDarjtT1zdp7dc", "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", "Tr0ub4dor-and-3",
                "c2lnbmF0dXJlLXZhbHVlLWhlcmU", "jane.q.private@example.org", "4539 1488 0343 6467",
                "MIIEpAIBAAKCAQEA7bq98Ab"]


def recording(prompts_file):
    """A scripted model that keeps every prompt it was sent, then parrots the trail back."""
    def answer(prompt):
        with open(prompts_file, "a") as handle:
            handle.write(prompt.as_text() + "\n")
        lines = [line for line in prompt.user.splitlines() if line.startswith("[")]
        return json.dumps({"worked_on": [{"summary": line.split(": ", 1)[-1][:600], "ts_start": None,
                                          "ts_end": None, "session_id": None,
                                          "evidence": scripted.cited(line)} for line in lines[:15]]})
    return answer


def test_planted_credentials_never_leave_the_masking(ray_cluster, lake_dir, tmp_path, caplog):
    root = tmp_path / "projects" / "proj"
    root.mkdir(parents=True)
    shutil.copy(SAMPLES / "spotter" / "tool_heavy.jsonl", root / "planted.jsonl")
    with open(root / "planted.jsonl", "a") as handle:
        for i, (family, value) in enumerate(PLANTED.items()):
            handle.write(json.dumps({
                "type": "user" if i % 2 == 0 else "assistant", "sessionId": "S", "uuid": f"p{i}",
                "timestamp": f"2026-03-01T10:00:{i:02d}.000Z",
                "message": {"role": "user" if i % 2 == 0 else "assistant",
                            "content": f"Here is the {family} credential for the deploy: {value} — keep it safe."},
            }) + "\n")
    prompts = tmp_path / "prompts.txt"
    caplog.set_level(logging.DEBUG)
    settings = load_settings(lake=lake_dir, claude_code_roots=[str(tmp_path / "projects")], flush=True,
                             backend="llamacpp", sources=["claude-code"], all_projects=True, since_hours=0)
    summary = run_nodes(settings, backend_factory=scripted.factory(recording(str(prompts))))
    assert summary.windows == 1 and summary.masked_spans > 0
    sent = prompts.read_text()
    assert "credential for the deploy" in sent  # the events did reach the model, masked
    with Lake(lake_dir) as lake:
        dumped = "\n".join(
            str(row) for table in ("memories", "attempts", "watermarks", "nodes", "parked", "runs")
            for row in lake.con.execute(f"SELECT * FROM {table}").fetchall())
    files = "".join(p.read_bytes().decode("utf-8", "replace") for p in (lake_dir / "data").rglob("*") if p.is_file())
    logs = caplog.text + json.dumps(summary.to_json())
    for secret in SECRET_PARTS:
        for where, text in (("prompt", sent), ("lake", dumped), ("data files", files), ("logs", logs)):
            assert secret not in text, f"{secret!r} reached the {where}"
