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
