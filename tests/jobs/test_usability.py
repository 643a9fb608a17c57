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
