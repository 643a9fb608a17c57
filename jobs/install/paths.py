"""Where one person's installation keeps its files (XDG base directories, so a test's temporary
HOME and XDG_* variables hold all of it)."""

from __future__ import annotations

import os
from pathlib import Path

NAME = "trail-interview"
MARKER = "trail-interview (managed)"  # on every line or block the installer adds


def _xdg(variable: str, default: str) -> Path:
    return Path(os.environ.get(variable) or Path.home() / default)


def config_dir() -> Path:
    """The settings the installed commands read (config.toml) and the env file (server, key)."""
    return _xdg("XDG_CONFIG_HOME", ".config") / NAME


def state_dir() -> Path:
    """Logs of the hooks and the scheduled run, the install manifest and its backups."""
    return _xdg("XDG_STATE_HOME", ".local/state") / NAME


def data_dir() -> Path:
    """The default lake of an installation."""
    return _xdg("XDG_DATA_HOME", ".local/share") / NAME


def config_file() -> Path:
    return config_dir() / "config.toml"


def env_file() -> Path:
    return config_dir() / "env"


def hook_log() -> Path:
    return state_dir() / "hook.log"


def run_log() -> Path:
    return state_dir() / "run.log"


def manifest_file() -> Path:
    return state_dir() / "install.json"


def codex_home() -> Path:
    return Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex")
