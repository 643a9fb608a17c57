"""The machine part of node ids (contract §5.6): first 12 hex of sha1 of the machine identity."""

from __future__ import annotations

import functools
import hashlib
import os
import platform
import re
import socket
import subprocess
from pathlib import Path


def _macos_uuid() -> str | None:
    try:
        out = subprocess.run(
            ["ioreg", "-rd1", "-c", "IOPlatformExpertDevice"], capture_output=True, text=True,
            timeout=5,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    for line in out.splitlines():
        if "IOPlatformUUID" in line:
            return line.split("=")[-1].strip().strip('"')
    return None


def _machine_id_file() -> str | None:
    for candidate in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            value = Path(candidate).read_text().strip()
        except OSError:
            continue
        if value and set(value) != {"0"}:  # a degenerate all-zero id identifies nothing
            return value
    return None


@functools.cache
def machine_identity() -> str:
    if override := os.environ.get("INTERVIEW_MACHINE_ID"):
        return override
    identity = _macos_uuid() if platform.system() == "Darwin" else _machine_id_file()
    return identity or f"{socket.gethostname()}:{Path.home()}"


def machine12(identity: str | None = None) -> str:
    value = identity if identity is not None else machine_identity()
    return hashlib.sha1(value.encode(), usedforsecurity=False).hexdigest()[:12]


# What an id may not hold (ingest.validate refuses it on every way in): C0, DEL, C1, line breaks.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def clean_stem(stem: str) -> str:
    """A file name's stem as an id part: as it is when printable; else each control character
    as `_` and a hash of the exact name after `~`, so two names that differ only there stay
    two nodes, and the same file gets the same id on every run. The name itself stays data
    (the node's path)."""
    if not _CONTROL.search(stem):
        return stem
    digest = hashlib.sha1(stem.encode("utf-8", "surrogateescape"), usedforsecurity=False)
    return f"{_CONTROL.sub('_', stem)}~{digest.hexdigest()[:8]}"


def node_id(prefix: str, stem: str, identity: str | None = None) -> str:
    return f"{prefix}:{machine12(identity)}:{clean_stem(stem)}"
