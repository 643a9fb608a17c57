"""Docs are tests: the README's two set-up commands, its CLI coverage, and CI's command."""

import re
from pathlib import Path

import click

from jobs.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def setup_commands() -> list[str]:
    head = README.split("\n## ", 1)[0]
    return re.findall(r"```(?:bash|sh)\n(.+?)\n```", head, re.S)


def test_readme_opens_with_exactly_two_commands():
    commands = setup_commands()
    assert len(commands) == 2
    assert all("\n" not in command for command in commands)
    assert "interview run --demo" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert setup_commands()[1] in ci.splitlines()


def test_every_cli_command_is_documented():
    names = []
    for name, command in main.commands.items():
        if isinstance(command, click.Group):
            names += [f"{name} {sub}" for sub in command.commands]
        else:
            names.append(name)
    for name in names:
        assert f"interview {name}" in README, f"README does not mention `interview {name}`"


def readme_queries() -> list[str]:
    section = README.split("Five questions the data team asks", 1)[1].split("`memories` columns", 1)[0]
    return re.findall(r"```sql\n(.+?)\n```", section, re.S)


def test_readme_queries_run_on_a_real_lake(tmp_path):
    import json

    from click.testing import CliRunner

    lake = tmp_path / "lake"
    body = {"tenant_id": "local", "node_id": "cc:m:docs", "agent_id": "a", "cursor_from": 0, "cursor_to": 3,
            "events": [{"seq": 0, "ts": "2026-01-01T10:00:00Z", "role": "user", "kind": "prompt",
                        "content": "Fix the login test"}]}
    (tmp_path / "w.json").write_text(json.dumps(body))
    runner = CliRunner()
    assert runner.invoke(main, ["submit", str(tmp_path / "w.json"), "--lake", str(lake), "--backend", "none"]).exit_code == 0
    queries = readme_queries()
    assert len(queries) == 5
    for query in queries:
        result = runner.invoke(main, ["sql", "--lake", str(lake), "--format", "json", "--", query])
        assert result.exit_code == 0, result.output


def test_readme_recall_sql_runs_with_a_query_vector(tmp_path):
    import json

    from click.testing import CliRunner

    from sinks.lake import Lake
    from synth.embeddings import shared_embedder

    section = README.split("## Recall", 1)[1].split("## Development", 1)[0]
    (query,) = re.findall(r"```sql\n(.+?)\n```", section, re.S)
    lake = tmp_path / "lake"
    body = {"node_id": "cc:m:docs", "agent_id": "a", "cursor_from": 0, "cursor_to": 0,
            "events": [{"seq": 0, "ts": "2026-01-01T10:00:00Z", "role": "user", "kind": "prompt",
                        "content": "Fix the login test"}]}
    (tmp_path / "w.json").write_text(json.dumps(body))
    assert CliRunner().invoke(main, ["submit", str(tmp_path / "w.json"), "--lake", str(lake),
                                     "--backend", "none"]).exit_code == 0
    vector = shared_embedder().embed(["activity"])[0].tolist()
    with Lake(lake, create=False) as opened:
        rows = opened.con.execute(query, {"q": vector}).fetchall()
    assert len(rows) == 1 and 0 < rows[0][1] <= 1
