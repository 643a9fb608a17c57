"""The installer's parts without a client process: the interval rules, the scheduler detection
and its unit files and crontab (through an injected command runner, never the real ones), the
Codex TOML edit, the env file, a file the person edited after install, a broken config."""

from __future__ import annotations

import json
import stat
import subprocess
import tomllib

import pytest

from ingest.errors import UsageError
from jobs.install import clients, installer, paths, schedule
from tests.jobs.install.homes import make_home, use_home


@pytest.mark.parametrize("text, cron, seconds", [
    ("30m", "*/30 * * * *", 1800), ("1m", "*/1 * * * *", 60), ("59m", "*/59 * * * *", 3540),
    ("1h", "0 * * * *", 3600), ("6h", "0 */6 * * *", 21600), ("23h", "0 */23 * * *", 82800),
    ("0m", None, None), ("60m", None, None), ("24h", None, None), ("0h", None, None),
    ("1d", None, None), ("30", None, None), ("", None, None),
])
def test_interval_as_the_reference_parses_it(text, cron, seconds):
    if cron is None:
        with pytest.raises(UsageError, match="use Nm"):
            schedule.parse_interval(text)
    else:
        parsed = schedule.parse_interval(text)
        assert (parsed.cron, parsed.seconds) == (cron, seconds)


class Recorder:
    """A command runner that records each argv and answers as told (a crontab kept in memory)."""

    def __init__(self, answers=None, crontab=None):
        self.calls, self.answers, self.crontab = [], answers or {}, crontab

    def __call__(self, argv, *, input=None):
        self.calls.append(list(argv))
        if argv[:2] == ["crontab", "-l"]:
            if self.crontab is None:
                return subprocess.CompletedProcess(argv, 1, "", "no crontab for me\n")
            return subprocess.CompletedProcess(argv, 0, self.crontab, "")
        if argv[:2] == ["crontab", "-"]:
            self.crontab = input
        if argv[:2] == ["crontab", "-r"]:
            self.crontab = None
        answer = self.answers.get(tuple(argv))
        if isinstance(answer, Exception):
            raise answer
        return subprocess.CompletedProcess(argv, 0, answer or "", "")


@pytest.mark.parametrize("answers, platform, backend", [
    ({("systemctl", "--user", "is-system-running"): "running\n"}, "linux", "systemd"),
    ({("systemctl", "--user", "is-system-running"): "degraded\n"}, "linux", "systemd"),
    ({("systemctl", "--user", "is-system-running"): "offline\n"}, "linux", "cron"),
    ({("systemctl", "--user", "is-system-running"): FileNotFoundError("systemctl")}, "linux",
     "cron"),
    ({}, "darwin", "launchd"),
])
def test_scheduler_detection(answers, platform, backend):
    assert schedule.detect_backend(Recorder(answers), platform) == backend


def test_systemctl_is_absent_here_so_auto_means_crontab():
    assert schedule.detect_backend(schedule.run_command, "linux") == "cron"


def _options(files, **extra):
    return installer.InstallOptions(clients=["claude-code", "cursor", "codex"], projects=["*"],
                                    program=["/usr/bin/interview"], lake="/data/lake",
                                    home=files["home"], codex_home=files["home"] / ".codex",
                                    **extra)


def test_systemd_units_and_their_commands(tmp_path, monkeypatch):
    files = make_home(tmp_path)
    use_home(monkeypatch, tmp_path)
    runner = Recorder()
    options = _options(files, scheduler="systemd", interval="2h")
    plan = installer.plan_install(options, runner)
    installer.apply(plan, options, runner)
    folder = files["home"] / ".config" / "systemd" / "user"
    timer = (folder / "trail-interview.timer").read_text()
    service = (folder / "trail-interview.service").read_text()
    assert "OnUnitActiveSec=7200s" in timer and "WantedBy=timers.target" in timer
    assert "ExecStart=/bin/sh -c" in service and "--config" in service and " run >> " in service
    assert ["systemctl", "--user", "enable", "--now", "trail-interview.timer"] in runner.calls
    runner.calls.clear()
    installer.apply(installer.plan_install(options, runner), options, runner)
    assert runner.calls == []  # nothing changed: nothing enabled again
    installer.uninstall(runner, home=files["home"])
    assert ["systemctl", "--user", "disable", "--now", "trail-interview.timer"] in runner.calls
    assert not folder.exists()  # we made the folder; it goes with its files


def test_crontab_keeps_the_persons_lines_and_gets_them_back(tmp_path, monkeypatch):
    files = make_home(tmp_path)
    use_home(monkeypatch, tmp_path)
    mine = "MAILTO=me\n0 3 * * * backup.sh\n"
    runner = Recorder(crontab=mine)
    options = _options(files, scheduler="cron", server="http://h:1", api_key="k'ey")
    installer.apply(installer.plan_install(options, runner), options, runner)
    lines = runner.crontab.splitlines()
    assert lines[:2] == mine.splitlines() and lines[2].endswith("# trail-interview (managed)")
    assert "set -a && . " in lines[2] and "push --server http://h:1" in lines[2]
    env = paths.env_file()
    assert stat.S_IMODE(env.stat().st_mode) == 0o600
    assert stat.S_IMODE(env.parent.stat().st_mode) == 0o700
    from jobs.agents.hook import read_env_file

    assert read_env_file(env) == {"INTERVIEW_PUSH_SERVER": "http://h:1",
                                  "INTERVIEW_API_KEY": "k'ey"}
    installer.uninstall(runner, home=files["home"])
    assert runner.crontab == mine and not env.exists()


def test_a_file_edited_after_install_keeps_the_edit_and_loses_only_our_entries(tmp_path,
                                                                                monkeypatch):
    files = make_home(tmp_path)
    use_home(monkeypatch, tmp_path)
    options = _options(files, scheduler="none")
    installer.apply(installer.plan_install(options), options)
    data = json.loads(files["claude_settings"].read_text())
    data["model"] = "opus"  # the person, after install
    files["claude_settings"].write_text(json.dumps(data))
    codex = files["codex_config"].read_text() + '\n[tui]\nnotifications = true\n'
    files["codex_config"].write_text(codex)
    done = {r.target: r.how for r in installer.uninstall(home=files["home"])}
    assert done[str(files["claude_settings"])] == "entries_removed"
    left = json.loads(files["claude_settings"].read_text())
    assert left["model"] == "opus" and "SessionEnd" not in left["hooks"]
    assert left["hooks"]["PostToolUse"]  # the person's own hook stays
    parsed = tomllib.loads(files["codex_config"].read_text())
    assert "notify" not in parsed and "trail-memories" not in parsed["mcp_servers"]
    assert parsed["tui"] == {"notifications": True}
    assert done[str(files["cursor_hooks"])] == "restored"


def test_codex_notify_of_the_persons_own_is_kept():
    commands = clients.Commands(hook=["i", "hook"], context=["i", "context"], mcp=["i", "mcp"],
                                tag="/cfg")
    text = 'notify = ["notify-send"]\nmodel = "o3"\n'
    after, notes = clients.codex_add(text, commands)
    parsed = tomllib.loads(after)
    assert parsed["notify"] == ["notify-send"] and parsed["mcp_servers"]["trail-memories"]
    assert notes and "notify" in notes[0]
    assert clients.codex_add(after, commands)[0] == after  # twice = once
    assert clients.codex_remove(after, commands) == text
    fresh, _ = clients.codex_add(None, commands)
    assert tomllib.loads(fresh)["notify"] == ["i", "hook", "--client", "codex"]


def test_a_broken_config_is_never_overwritten(tmp_path, monkeypatch):
    files = make_home(tmp_path)
    use_home(monkeypatch, tmp_path)
    files["cursor_mcp"].write_text("{ not json")
    with pytest.raises(UsageError, match="mcp.json: cannot read it"):
        installer.plan_install(_options(files, scheduler="none"))
    assert files["cursor_mcp"].read_text() == "{ not json"


def test_an_absent_client_is_skipped_with_a_note(tmp_path, monkeypatch):
    files = make_home(tmp_path)
    use_home(monkeypatch, tmp_path)
    import shutil

    shutil.rmtree(files["home"] / ".cursor")
    plan = installer.plan_install(_options(files, scheduler="none"))
    assert any(n.startswith("cursor: not set up") for n in plan.notes)
    assert not any(c.client == "cursor" for c in plan.changes)
    diff = "".join(c.diff() for c in plan.changes if c.changed)
    assert "+++ " in diff and "SessionEnd" in diff
