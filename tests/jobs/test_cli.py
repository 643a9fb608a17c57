import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from jobs.cli import main


def invoke(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def window_body(**over):
    body = {"tenant_id": "t", "node_id": "cc:m:n1", "agent_id": "agent", "cursor_from": 0,
            "cursor_to": 9, "events": [
                {"seq": 0, "ts": "2026-01-01T10:00:00Z", "role": "user", "kind": "prompt",
                 "content": "Fix the login test; mail me at jane@example.com"},
                {"seq": 4, "ts": "2026-01-01T10:02:00Z", "role": "assistant", "kind": "reply",
                 "content": "Raised the timeout to 30s; the suite passes."}]}
    body.update(over)
    return body


@pytest.fixture
def body_file(tmp_path):
    def write(**over):
        path = tmp_path / "window.json"
        path.write_text(json.dumps(window_body(**over)))
        return str(path)
    return write


def test_submit_twice_then_watermark(lake_dir, body_file):
    path = body_file()
    first = invoke("submit", path, "--lake", str(lake_dir), "--backend", "none", "--tenant", "t")
    assert json.loads(first.stdout) == {"status": "committed", "watermark": 9, "memories_written": 1,
                                        "errors": 0}
    second = invoke("submit", path, "--lake", str(lake_dir), "--backend", "none", "--tenant", "t")
    assert json.loads(second.stdout)["memories_written"] == 0
    mark = invoke("watermark", "cc:m:n1", "--lake", str(lake_dir), "--tenant", "t")
    document = json.loads(mark.stdout)
    assert mark.exit_code == 0 and document["last_seq"] == 9 and document["doc_id"].startswith("wm_")


def test_rejected_window_exits_2_with_the_detail_and_writes_nothing(lake_dir, body_file):
    result = invoke("submit", body_file(cursor_to=2), "--lake", str(lake_dir), "--backend", "none")
    assert result.exit_code == 2
    assert json.loads(result.stderr) == {
        "status_code": 422, "detail": "event seq range must lie within [cursor_from, cursor_to]"}
    assert not lake_dir.exists()  # nothing written, not even an empty lake


def test_a_window_for_a_tenant_not_enabled_here_is_refused(lake_dir, body_file):
    """Every way in gates the tenant: without tenant settings only the run's own tenant
    (--tenant, default local) may be submitted for; another's window never moves a watermark."""
    result = invoke("submit", body_file(tenant_id="other"), "--lake", str(lake_dir), "--backend",
                    "none", "--tenant", "t")
    assert result.exit_code == 2
    assert json.loads(result.stderr) == {"status_code": 403,
                                         "detail": "interviewer is not enabled for this tenant"}
    assert not lake_dir.exists()


def test_body_that_is_not_json_is_a_422(lake_dir, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{oops")
    result = invoke("submit", str(path), "--lake", str(lake_dir), "--backend", "none")
    assert result.exit_code == 2 and json.loads(result.stderr)["status_code"] == 422


def test_unknown_node_watermark_exits_4(lake_dir):
    result = invoke("watermark", "cc:nope:x", "--lake", str(lake_dir))
    assert result.exit_code == 4
    assert json.loads(result.stdout)["last_seq"] == -1


def test_sql_formats(lake_dir, body_file):
    invoke("submit", body_file(), "--lake", str(lake_dir), "--backend", "none", "--tenant", "t")
    query = "select memory_type, count(*) as n from memories group by 1"
    table = invoke("sql", query, "--lake", str(lake_dir))
    assert "memory_type" in table.stdout and "episode" in table.stdout and "(1 row)" in table.stdout
    as_json = json.loads(invoke("sql", query, "--lake", str(lake_dir), "--format", "json").stdout)
    assert as_json == [{"memory_type": "episode", "n": 1}]


def test_sql_errors_are_one_clear_line(lake_dir, body_file):
    invoke("submit", body_file(), "--lake", str(lake_dir), "--backend", "none", "--tenant", "t")
    result = CliRunner().invoke(main, ["sql", "select nope from memories", "--lake", str(lake_dir)])
    assert result.exit_code == 1 and "query failed" in result.stderr and "Traceback" not in result.stderr


def test_sql_on_a_missing_lake_says_what_to_do(tmp_path):
    result = CliRunner().invoke(main, ["sql", "select 1", "--lake", str(tmp_path / "none")])
    assert result.exit_code == 1 and "interview run" in result.stderr


def test_mask_reads_stdin():
    result = invoke("mask", input="key AKIAIOSFODNN7EXAMPLE for jane@example.com\n")
    assert result.stdout == "key «API_KEY» for «EMAIL»\n"


def test_unknown_backend_lists_the_valid_ones(lake_dir, body_file):
    result = CliRunner().invoke(main, ["submit", body_file(), "--lake", str(lake_dir), "--backend", "gpt"])
    assert result.exit_code == 1 and "choose one of: none, " in result.stderr
    assert all(name in result.stderr for name in ("llamacpp", "openai", "vllm"))


def test_bad_config_file_names_the_file_and_the_key(tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text("max_windowz = 3\n")
    result = CliRunner().invoke(main, ["--config", str(config), "watermark", "x"])
    assert result.exit_code == 1 and str(config) in result.stderr and "max_windowz" in result.stderr


@pytest.mark.parametrize("command", [[], ["run"], ["submit"], ["watermark"], ["sql"], ["mask"],
                                     ["model", "pull"], ["recall"], ["embed"]])
def test_every_command_has_help(command):
    result = invoke(*command, "--help")
    assert result.exit_code == 0 and "Usage:" in result.stdout


def test_importing_the_cli_pulls_in_no_heavy_engine():
    code = ("import sys, jobs.cli; heavy = [m for m in ('ray', 'xllamacpp', 'vllm', 'duckdb') "
            "if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_run_node_by_transcript_path_interviews_only_that_session(trail_root, lake_dir):
    """What a Claude Code SessionEnd hook does: `--node <transcript path>`."""
    sessions = sorted(trail_root.rglob("*.jsonl"), key=lambda p: p.stat().st_size)
    chosen = sessions[-1]
    result = invoke("run", "--roots", str(trail_root), "--source", "claude-code", "--all-projects",
                    "--since-hours", "0", "--backend", "none", "--flush", "--lake", str(lake_dir),
                    "--node", str(chosen), "--json")
    assert result.exit_code == 0, result.output
    out = invoke("sql", "--lake", str(lake_dir), "--format", "json",
                 "SELECT DISTINCT node_id FROM attempts")
    nodes = [row["node_id"] for row in json.loads(out.stdout)]
    assert len(nodes) == 1 and nodes[0].endswith(chosen.stem)
