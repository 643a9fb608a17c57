"""The scheduled run of an installation: a systemd user timer where systemd runs, a launchd agent
on macOS, a managed crontab line otherwise. Pure text builders, plus a command runner that tests
replace (nothing here touches the real crontab or systemd on its own).

`--interval` as the reference client parses it (contract §5.7): `Nm` (1-59) → `*/N * * * *`,
`1h` → `0 * * * *`, `Nh` (2-23) → `0 */N * * *`; anything else is refused.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ingest.errors import UsageError
from jobs.install.paths import MARKER, NAME

UNIT = NAME  # trail-interview.service / .timer
LAUNCHD_LABEL = f"org.{NAME}.run"

Runner = Callable[..., subprocess.CompletedProcess]


def run_command(argv: list[str], *, input: str | None = None) -> subprocess.CompletedProcess:
    """The real runner: C locale (so "no crontab for" reads the same everywhere), no shell."""
    return subprocess.run(argv, input=input, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "LC_ALL": "C"})


@dataclass(frozen=True)
class Interval:
    text: str
    cron: str
    seconds: int


def parse_interval(text: str) -> Interval:
    match = re.fullmatch(r"(\d+)([mh])", text.strip())
    if match:
        number, unit = int(match.group(1)), match.group(2)
        if unit == "m" and 1 <= number <= 59:
            return Interval(text, f"*/{number} * * * *", number * 60)
        if unit == "h" and number == 1:
            return Interval(text, "0 * * * *", 3600)
        if unit == "h" and 2 <= number <= 23:
            return Interval(text, f"0 */{number} * * *", number * 3600)
    raise UsageError(f"--interval {text!r}: use Nm (1-59 minutes), 1h, or Nh (2-23 hours), "
                     "e.g. --interval 30m")


def detect_backend(runner: Runner = run_command, platform: str = sys.platform) -> str:
    """launchd on macOS; systemd when `systemctl --user` answers (running or degraded); cron."""
    if platform == "darwin":
        return "launchd"
    try:
        done = runner(["systemctl", "--user", "is-system-running"])
    except (OSError, subprocess.SubprocessError):
        return "cron"
    if done.stdout.strip() in {"running", "degraded", "starting"}:
        return "systemd"
    return "cron"


def scheduled_shell(argv: list[str], env_file: Path | None, log: Path) -> str:
    """The shell line of one scheduled run: the env file's variables exported, output appended
    to the run log."""
    load = f"set -a && . {shlex.quote(str(env_file))} && set +a && " if env_file else ""
    return f"{{ {load}{shlex.join(argv)}; }} >> {shlex.quote(str(log))} 2>&1"


def cron_line(interval: Interval, argv: list[str], env_file: Path | None, log: Path) -> str:
    return f"{interval.cron} {scheduled_shell(argv, env_file, log)} # {MARKER}"


def crontab_with(current: str | None, line: str) -> str:
    """The crontab with our line (replacing an older line of ours, by its marker)."""
    kept = [row for row in (current or "").splitlines() if not row.endswith(f"# {MARKER}")]
    return "\n".join([*kept, line]) + "\n"


def crontab_without(current: str) -> str:
    rows = [row for row in current.splitlines() if not row.endswith(f"# {MARKER}")]
    return "\n".join(rows) + "\n" if rows else ""


class Crontab:
    """This person's crontab through `crontab -l` / `crontab -` / `crontab -r`."""

    def __init__(self, runner: Runner = run_command) -> None:
        self.runner = runner

    def read(self) -> str | None:
        try:
            done = self.runner(["crontab", "-l"])
        except FileNotFoundError:
            raise UsageError("no `crontab` program on this machine: install cron, or pass "
                             "--scheduler none (and run `interview run` some other way)") from None
        if done.returncode != 0:
            if "no crontab for" in (done.stderr or ""):
                return None
            raise UsageError(f"crontab -l failed: {(done.stderr or '').strip()}")
        return done.stdout

    def write(self, text: str | None) -> None:
        done = (self.runner(["crontab", "-r"]) if text is None
                else self.runner(["crontab", "-"], input=text))
        if done.returncode != 0:
            raise UsageError(f"crontab write failed: {(done.stderr or '').strip()}")


class CrontabFile:
    """A crontab kept in a file (`--crontab-file`): for a system whose cron reads a file of
    the user's, and for tests, which never touch the real crontab."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def read(self) -> str | None:
        return self.path.read_text(encoding="utf-8") if self.path.is_file() else None

    def write(self, text: str | None) -> None:
        if text is None:
            self.path.unlink(missing_ok=True)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(text, encoding="utf-8")


def systemd_units(interval: Interval, argv: list[str], env_file: Path | None,
                  log: Path) -> dict[str, str]:
    """`trail-interview.service` (one run) and `.timer` (every interval, catching up after a
    sleep), as unit file texts."""
    environment = f"EnvironmentFile={env_file}\n" if env_file else ""
    command = f"{shlex.join(argv)} >> {shlex.quote(str(log))} 2>&1"
    service = (f"# {MARKER}\n[Unit]\nDescription=trail-interview: interview new agent sessions\n\n"
               f"[Service]\nType=oneshot\n{environment}"
               f"ExecStart=/bin/sh -c {shlex.quote(command)}\n")
    timer = (f"# {MARKER}\n[Unit]\nDescription=trail-interview every {interval.text}\n\n"
             f"[Timer]\nOnBootSec=5min\nOnUnitActiveSec={interval.seconds}s\nPersistent=true\n\n"
             "[Install]\nWantedBy=timers.target\n")
    return {f"{UNIT}.service": service, f"{UNIT}.timer": timer}


def systemd_dir(home: Path) -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(home / ".config")
    return Path(base) / "systemd" / "user"


def launchd_plist(interval: Interval, argv: list[str], env_file: Path | None, log: Path) -> str:
    from xml.sax.saxutils import escape

    line = scheduled_shell(argv, env_file, log)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
            '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
            f'<!-- {MARKER} -->\n<plist version="1.0">\n<dict>\n'
            f"  <key>Label</key><string>{LAUNCHD_LABEL}</string>\n"
            "  <key>ProgramArguments</key>\n  <array><string>/bin/sh</string><string>-c</string>"
            f"<string>{escape(line)}</string></array>\n"
            f"  <key>StartInterval</key><integer>{interval.seconds}</integer>\n"
            "  <key>RunAtLoad</key><false/>\n</dict>\n</plist>\n")


def launchd_path(home: Path) -> Path:
    return home / "Library" / "LaunchAgents" / f"{LAUNCHD_LABEL}.plist"


def enable_commands(backend: str, home: Path) -> list[list[str]]:
    if backend == "systemd":
        return [["systemctl", "--user", "daemon-reload"],
                ["systemctl", "--user", "enable", "--now", f"{UNIT}.timer"]]
    if backend == "launchd":
        return [["launchctl", "load", "-w", str(launchd_path(home))]]
    return []


def disable_commands(backend: str, home: Path) -> list[list[str]]:
    if backend == "systemd":
        return [["systemctl", "--user", "disable", "--now", f"{UNIT}.timer"]]
    if backend == "launchd":
        return [["launchctl", "unload", "-w", str(launchd_path(home))]]
    return []


def after_removal_commands(backend: str) -> list[list[str]]:
    return [["systemctl", "--user", "daemon-reload"]] if backend == "systemd" else []
