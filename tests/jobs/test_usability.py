"""Usability found trying the CLI as a new user (issue "Safe under misuse", item 8)."""

import json
import logging
import shutil

from click.testing import CliRunner

from jobs.cli import main
from jobs.settings import load_settings
from tests.conftest import SAMPLES


def invoke(*args):
    return CliRunner().invoke(main, [str(arg) for arg in args])


def test_a_root_that_was_not_asked_for_is_not_an_error(ray_cluster, tmp_path, monkeypatch):
    """--roots for Claude Code, no --source: the default Cursor, OpenClaw and Codex roots are
    missing on this machine, and that is fine."""
    monkeypatch.setenv("HOME", str(tmp_path / "empty-home"))
    for variable in ("CODEX_HOME", "OPENCLAW_STATE_DIR", "CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(variable, raising=False)
    shutil.copytree(SAMPLES / "spotter", tmp_path / "projects" / "spotter")
    result = invoke("run", "--roots", tmp_path / "projects", "--all-projects", "--since-hours", 0,
                    "--backend", "none", "--flush", "--lake", tmp_path / "lake", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["windows"] == 3
    missing = invoke("run", "--cursor-roots", tmp_path / "nope", "--all-projects", "--lake", tmp_path / "lake")
    assert missing.exit_code == 1 and "cursor root" in missing.output  # a root the user named


def test_list_settings_take_commas_as_well_as_json(monkeypatch):
    monkeypatch.setenv("INTERVIEW_PROJECTS", "api*, web*")
    monkeypatch.setenv("INTERVIEW_SOURCES", '["cursor", "codex"]')
    monkeypatch.setenv("INTERVIEW_CODEX_ROOTS", "/a,/b")
    settings = load_settings()
    assert (settings.projects, settings.sources, settings.codex_roots) == (
        ["api*", "web*"], ["cursor", "codex"], ["/a", "/b"])


def test_an_unknown_interview_variable_is_a_warning(monkeypatch, caplog):
    monkeypatch.setenv("INTERVIEW_MAX_WINDOW", "3")  # a typo of MAX_WINDOWS
    monkeypatch.setenv("INTERVIEW_RAY__ADDRESS", "auto")
    with caplog.at_level(logging.WARNING, logger="jobs.settings"):
        load_settings()
    assert [r.getMessage().split()[0] for r in caplog.records] == ["INTERVIEW_MAX_WINDOW"]


def test_a_node_selector_that_matches_nothing_says_so(tmp_path):
    result = invoke("run", "--roots", SAMPLES, "--all-projects", "--since-hours", 0,
                    "--node", "cc:*:no-such-session", "--lake", tmp_path / "lake")
    assert result.exit_code == 4
    assert "no node matches --node cc:*:no-such-session" in result.output
    assert not (tmp_path / "lake").exists()


def test_a_rejected_submit_does_not_create_a_lake(tmp_path):
    body = tmp_path / "w.json"
    body.write_text(json.dumps({"node_id": "n", "agent_id": "a", "cursor_from": 5, "cursor_to": 1,
                                "events": []}))
    result = invoke("submit", body, "--lake", tmp_path / "lake", "--backend", "none")
    assert result.exit_code == 2 and '"status_code": 422' in result.output
    assert not (tmp_path / "lake").exists()


def test_an_empty_recall_query_is_an_error(tmp_path):
    result = invoke("recall", "   ", "--lake", tmp_path / "lake")
    assert result.exit_code == 1 and "recall query is empty" in result.output


def test_noise_and_broken_lines_are_counted_per_node_in_the_summary_and_status(ray_cluster, tmp_path):
    """Issue "Safe under misuse" item 7: nothing read is passed over without being counted."""
    def event(i, role):
        return json.dumps({"type": role, "sessionId": "S", "uuid": f"u{i}",
                           "timestamp": f"2026-01-01T10:00:{i:02d}.000Z",
                           "message": {"role": role, "content": f"{role} line {i}: " + "words " * 20}})

    project = tmp_path / "projects" / "proj"
    project.mkdir(parents=True)
    lines = [event(0, "user"),
             '{"type": "user", "message": {"role": "us',  # truncated JSON: broken
             "12345",  # JSON, not an object: noise
             '{"type":"user"\x00}',  # a NUL byte: broken
             "[" * 100_000 + "]" * 100_000,  # deep nesting: noise, never parsed
             '{"type": "progress", "data": {}}',  # not conversation: noise
             event(6, "assistant")]
    (project / "s1.jsonl").write_text("\n".join(lines) + "\n")
    args = ["--roots", tmp_path / "projects", "--all-projects", "--source", "claude-code",
            "--lake", tmp_path / "lake"]
    result = invoke("run", *args, "--since-hours", 0, "--backend", "none", "--flush", "--json")
    summary = json.loads(result.stdout)
    [(node, counts)] = summary["lines_by_node"].items()
    assert counts == {"noise": 3, "bad": 2, "repaired": 0} and (summary["noise_lines"], summary["bad_lines"]) == (3, 2)
    assert [reject["line"] for reject in summary["rejects"]] == [2, 4]
    text = invoke("run", *args, "--since-hours", 0, "--backend", "none", "--flush", "--replay")
    assert "3 noise (not conversation) and 2 broken, in 1 nodes" in text.output
    status = json.loads(invoke("status", *args, "--json").stdout)
    [entry] = status["sources"]["claude-code"]
    assert (entry["node_id"], entry["noise"], entry["lines"]) == (node, 5, 7)
    assert "noise=5" in invoke("status", *args).output


def test_a_prompt_that_is_not_utf8_is_interviewed_and_counted_as_repaired(ray_cluster, tmp_path):
    """Issue 28 item 14: one latin-1 byte in a prompt lost the whole prompt (a broken line); the
    reference client decodes it with U+FFFD and keeps it."""
    def event(i, role, text):
        return json.dumps({"type": role, "sessionId": "S", "uuid": f"u{i}",
                           "timestamp": f"2026-01-01T10:00:{i:02d}.000Z",
                           "message": {"role": role, "content": text}}).encode()

    project = tmp_path / "projects" / "proj"
    project.mkdir(parents=True)
    prompt = event(0, "user", "Order the caf\u00e9 machine for the office; " + "words " * 20)
    prompt = prompt.replace("caf\\u00e9".encode(), "caf\u00e9".encode("latin-1"))
    reply = event(1, "assistant", "Ordered the machine, delivery on Monday. " + "words " * 20)
    (project / "s1.jsonl").write_bytes(prompt + b"\n" + reply + b"\n")
    args = ["--roots", tmp_path / "projects", "--all-projects", "--source", "claude-code",
            "--lake", tmp_path / "lake", "--since-hours", 0, "--backend", "none", "--flush"]
    summary = json.loads(invoke("run", *args, "--json").stdout)
    assert (summary["bad_lines"], summary["repaired_lines"], summary["rejects"]) == (0, 1, [])
    assert list(summary["lines_by_node"].values()) == [{"noise": 0, "bad": 0, "repaired": 1}]
    window = invoke("sql", "select events from attempts", "--lake", tmp_path / "lake", "--format",
                    "csv")
    assert window.stdout.strip().splitlines()[-1] == "2"  # the prompt and the reply
    text = invoke("run", *args, "--replay").output
    assert "0 broken, 1 repaired (not UTF-8: kept with U+FFFD), in 1 nodes" in text
