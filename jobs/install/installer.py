"""`interview install` / `uninstall`: plan every change as (target, text before, text after),
show it as a diff (`--dry-run`), or apply it with a backup of each file it edits and a manifest
of what it wrote; uninstall gives every file back byte for byte when it is as we left it, and
otherwise takes out only our entries.

Targets are files (client configs, our own config and env file, systemd or launchd units) and
the crontab (through `schedule.Crontab`). Installing twice changes nothing: every edit is
"make our entry present", and a text that is already right is never rewritten.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import logging
import os
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ingest.errors import UsageError
from jobs.install import clients, paths, schedule

log = logging.getLogger(__name__)
CRONTAB = "crontab"  # the target name of the crontab in plans and the manifest
MANIFEST_VERSION = 1


@dataclass
class InstallOptions:
    clients: list[str]
    projects: list[str]
    program: list[str]  # how the installed commands call us (argv prefix)
    lake: str
    backend: str | None = None
    interval: str = "30m"
    scheduler: str = "auto"  # auto, systemd, launchd, cron, none
    server: str | None = None  # push mode
    api_key: str | None = None
    crontab_file: Path | None = None  # a crontab kept in a file instead of `crontab`
    home: Path = field(default_factory=Path.home)
    codex_home: Path = field(default_factory=paths.codex_home)


@dataclass
class Change:
    target: str  # a file path, or CRONTAB
    client: str  # claude-code, cursor, codex, scheduler, interview
    before: str | None
    after: str | None
    mode: int = 0o644
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        return "".join(difflib.unified_diff(
            (self.before or "").splitlines(keepends=True),
            (self.after or "").splitlines(keepends=True),
            fromfile=f"{self.target} (now)" if self.before is not None else "/dev/null",
            tofile=f"{self.target} (installed)"))


@dataclass
class Plan:
    changes: list[Change]
    scheduler: str
    notes: list[str]
    enable: list[list[str]]


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def _sha(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode()).hexdigest()


def settings_text(options: InstallOptions) -> str:
    lines = [f"# {paths.MARKER}: settings of the installed hooks and scheduled run; "
             "`interview uninstall` removes this file",
             f"lake = {json.dumps(options.lake)}",
             f"projects = [{', '.join(json.dumps(p) for p in options.projects)}]"]
    if options.backend:
        lines.append(f"backend = {json.dumps(options.backend)}")
    return "\n".join(lines) + "\n"


def env_text(options: InstallOptions) -> str:
    def quoted(value: str) -> str:
        return "'" + value.replace("'", "'\\''") + "'"

    return (f"# {paths.MARKER}: the push server and its key (mode 0600)\n"
            f"INTERVIEW_PUSH_SERVER={quoted(options.server)}\n"
            f"INTERVIEW_API_KEY={quoted(options.api_key)}\n")


def commands_of(options: InstallOptions) -> clients.Commands:
    config = str(paths.config_file())
    base = [*options.program, "--config", config]
    return clients.Commands(hook=[*base, "hook"], context=[*base, "context", "--hook-input"],
                            mcp=[*base, "mcp"], tag=config)


def crontab_of(runner, crontab_file: Path | str | None):
    return schedule.CrontabFile(Path(crontab_file)) if crontab_file else schedule.Crontab(runner)


def plan_install(options: InstallOptions, runner=schedule.run_command) -> Plan:
    """Every change install would make, with the text before and after; nothing written."""
    if not options.projects:
        raise UsageError("no project is allowed: pass --projects GLOB (repeatable; '*' for every "
                         "project). The hooks never read a project you did not name.")
    if options.server and not options.api_key:
        raise UsageError(f"push mode needs the server's key: --api-key KEY (or INTERVIEW_API_KEY) "
                         f"for {options.server}")
    interval = schedule.parse_interval(options.interval)
    commands = commands_of(options)
    notes: list[str] = []
    changes = [Change(str(paths.config_file()), "interview", _read(paths.config_file()),
                      settings_text(options))]
    env = paths.env_file() if options.server else None
    if env is not None:
        changes.append(Change(str(env), "interview", _read(env), env_text(options), mode=0o600))
    for edit in clients.client_files(options.home, options.codex_home):
        if edit.client not in options.clients:
            continue
        if not clients.client_present(edit.client, options.home, options.codex_home):
            notes.append(f"{edit.client}: not set up for this user ({edit.path.parent} missing): "
                         "skipped; install it again after the client's first start")
            continue
        before = _read(edit.path)
        try:
            after, edit_notes = edit.add(before, commands)
        except ValueError as error:  # JSON or TOML the person broke: never overwritten
            raise UsageError(f"{edit.path}: cannot read it ({error}); fix the file, then install "
                             "again") from None
        changes.append(Change(str(edit.path), edit.client, before, after,
                              notes=[f"{edit.client}: {n}" for n in edit_notes]))
        notes += changes[-1].notes
    backend = (schedule.detect_backend(runner) if options.scheduler == "auto"
               else options.scheduler)
    run_argv = [*options.program, "--config", str(paths.config_file())]
    run_argv += ["push", "--server", options.server] if options.server else ["run"]
    log_path = paths.run_log()
    if backend == "cron":
        before = crontab_of(runner, options.crontab_file).read()
        line = schedule.cron_line(interval, run_argv, env, log_path)
        after = schedule.crontab_with(before, line)
        changes.append(Change(CRONTAB, "scheduler", before, before if before and line in
                              before.splitlines() else after))
    elif backend == "systemd":
        folder = schedule.systemd_dir(options.home)
        for name, text in schedule.systemd_units(interval, run_argv, env, log_path).items():
            changes.append(Change(str(folder / name), "scheduler", _read(folder / name), text))
    elif backend == "launchd":
        path = schedule.launchd_path(options.home)
        changes.append(Change(str(path), "scheduler", _read(path),
                              schedule.launchd_plist(interval, run_argv, env, log_path)))
    elif backend != "none":
        raise UsageError(f"--scheduler {backend}: one of auto, systemd, launchd, cron, none")
    scheduler_changed = any(c.changed for c in changes if c.client == "scheduler")
    enable = schedule.enable_commands(backend, options.home) if scheduler_changed else []
    return Plan(changes, backend, notes, enable)


def _write_atomic(path: Path, text: str, mode: int, created: list[str]) -> None:
    missing = []
    parent = path.parent
    while not parent.exists():
        missing.append(parent)
        parent = parent.parent
    for folder in reversed(missing):
        folder.mkdir(mode=0o700 if mode == 0o600 else 0o755)
        created.append(str(folder))
    if mode == 0o600:  # a secret: its folder (ours) is the owner's only, as the reference's
        os.chmod(path.parent, 0o700)
    elif path.exists():
        mode = path.stat().st_mode & 0o777
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def load_manifest() -> dict:
    path = paths.manifest_file()
    if not path.is_file():
        return {"version": MANIFEST_VERSION, "targets": {}, "created_dirs": []}
    return json.loads(path.read_text(encoding="utf-8"))


def apply(plan: Plan, options: InstallOptions, runner=schedule.run_command) -> list[Change]:
    """Write the changed targets (a backup of each first, kept from the first install), record
    them in the manifest, and enable the scheduler when its files changed."""
    manifest = load_manifest()
    targets = manifest["targets"]
    backups = paths.state_dir() / "backups"
    written = []
    created: list[str] = manifest["created_dirs"]
    for change in plan.changes:
        if not change.changed:
            continue
        entry = targets.get(change.target)
        if entry is None:  # the original, before any install of ours
            entry = {"client": change.client, "existed": change.before is not None,
                     "backup": None, "mode": None}
            if change.before is not None:
                backups.mkdir(parents=True, exist_ok=True)
                digest = hashlib.sha1(change.target.encode()).hexdigest()[:10]
                backup = backups / f"{Path(change.target).name}.{digest}"
                backup.write_text(change.before, encoding="utf-8")
                entry["backup"] = str(backup)
                if change.target != CRONTAB:
                    entry["mode"] = Path(change.target).stat().st_mode & 0o777
            targets[change.target] = entry
        if change.target == CRONTAB:
            crontab_of(runner, options.crontab_file).write(change.after)
        else:
            _write_atomic(Path(change.target), change.after, change.mode, created)
        entry["written_sha256"] = _sha(change.after)
        written.append(change)
    for argv in plan.enable:
        done = runner(argv)
        if done.returncode != 0:
            log.warning("%s failed: %s", " ".join(argv), (done.stderr or "").strip())
    if written or not paths.manifest_file().exists():
        manifest.update(clients=sorted(set(manifest.get("clients", [])) | set(options.clients)),
                        scheduler=plan.scheduler, interval=options.interval,
                        mode="push" if options.server else "run", lake=options.lake,
                        projects=options.projects, program=options.program,
                        crontab_file=str(options.crontab_file) if options.crontab_file else None,
                        installed_at=datetime.now(UTC).isoformat(timespec="seconds"))
        paths.state_dir().mkdir(parents=True, exist_ok=True)
        _write_atomic(paths.manifest_file(), json.dumps(manifest, indent=2) + "\n", 0o644, [])
    return written


@dataclass
class Restored:
    target: str
    how: str  # restored, removed, entries_removed, missing


def uninstall(runner=schedule.run_command, home: Path | None = None,
              keep_env: bool = False) -> list[Restored]:
    """Every target of the manifest back as it was: byte for byte when it is still as we wrote
    it; else only our entries taken out (the person's later edits kept)."""
    manifest = load_manifest()
    if not manifest["targets"]:
        return []
    home = home or Path.home()
    crontab = crontab_of(runner, manifest.get("crontab_file"))
    commands = clients.Commands(hook=[], context=[], mcp=[], tag=str(paths.config_file()))
    removers = {str(e.path): e.remove for e in clients.client_files(home, paths.codex_home())}
    for argv in schedule.disable_commands(manifest.get("scheduler", "none"), home):
        runner(argv)
    done: list[Restored] = []
    for target, entry in manifest["targets"].items():
        if keep_env and target == str(paths.env_file()):
            continue
        cron = target == CRONTAB
        current = crontab.read() if cron else _read(Path(target))
        original = (Path(entry["backup"]).read_text(encoding="utf-8") if entry["backup"]
                    else None)
        if current is None and not cron:
            done.append(Restored(target, "missing"))
            continue
        if _sha(current) == entry.get("written_sha256"):
            after, how = original, "restored" if entry["existed"] else "removed"
        elif cron:
            after, how = schedule.crontab_without(current or "") or None, "entries_removed"
        elif target in removers:
            after, how = removers[target](current, commands), "entries_removed"
        else:  # a file only we write (our config, a unit): ours to remove
            after, how = None, "removed"
        if cron:
            crontab.write(after)
        elif after is None:
            Path(target).unlink(missing_ok=True)
        else:
            _write_atomic(Path(target), after, entry.get("mode") or 0o644, [])
            if entry.get("mode") is not None:
                os.chmod(target, entry["mode"])
        done.append(Restored(target, how))
    for argv in schedule.after_removal_commands(manifest.get("scheduler", "none")):
        runner(argv)
    for folder in sorted(manifest.get("created_dirs", []), key=len, reverse=True):
        try:
            Path(folder).rmdir()
        except OSError:
            pass  # not empty: something else lives there now
    backups = paths.state_dir() / "backups"
    for entry in manifest["targets"].values():
        if entry["backup"]:
            Path(entry["backup"]).unlink(missing_ok=True)
    if backups.is_dir() and not any(backups.iterdir()):
        backups.rmdir()
    paths.manifest_file().unlink(missing_ok=True)
    return done
