"""What discovery finds and reading takes: node references, the project allowlist, read options.

A node is one trail with one watermark: a Claude Code or OpenClaw session file, a Cursor
transcript or conversation, the OpenClaw plugin buffer, or one OpenClaw task database. Node ids
are `<prefix>:<machine12>:<stem>` (contract §5.6).
"""

from __future__ import annotations

import errno
import fnmatch
import logging
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ingest.content import DEFAULT_MAX_EVENT_CHARS, DEFAULT_RECALL_TAGS
from ingest.events import Reject

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class NodeRef:
    source: str
    node_id: str
    path: str
    project: str
    kind: str = "cc-session"
    key: str | None = None  # the conversation inside a database file; None: the file is the node


@dataclass
class Allowlist:
    """Projects are denied by default, as in the reference client: a project is read only when it
    matches a glob, or when every project is allowed explicitly."""

    globs: tuple[str, ...] = ()
    allow_all: bool = False

    def allows(self, project: str) -> bool:
        return self.allow_all or any(fnmatch.fnmatchcase(project, glob) for glob in self.globs)

    @property
    def empty(self) -> bool:
        return not self.allow_all and not self.globs


@dataclass
class Discovery:
    nodes: list[NodeRef] = field(default_factory=list)
    denied_projects: set[tuple[str, str]] = field(default_factory=set)  # (source, project)
    rejects: list[Reject] = field(default_factory=list)
    # The trail roots, resolved; a trail whose real location is under none of them is refused.
    # Empty: no check (a caller that walks a folder it was handed).
    roots: tuple[str, ...] = ()
    _seen: dict[str, str] = field(default_factory=dict, repr=False)  # real path → first path

    def inside_roots(self, path: Path) -> bool:
        """Whether `path`, its links followed, stays under a trail root. A link inside a root
        (a project folder linked from elsewhere in it) is followed; one whose target leaves
        every root (`/etc/passwd`, another user's files) is refused with a warning: the roots
        are what the user chose to have read."""
        if not self.roots:
            return True
        real = os.path.realpath(path)
        if any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in self.roots):
            first = self._seen.setdefault(real, str(path))
            if first == str(path):
                return True
            self.rejects.append(Reject(str(path), 0, f"the same trail as {first} (a link); "
                                                     "read once, there"))
            return False
        logger.warning("skipped %s: a link to %s, outside every trail root", path, real)
        self.rejects.append(Reject(str(path), 0, f"a link to {real}, outside every trail root; "
                                                 "skipped, never opened (add its folder as a "
                                                 "root to read it)"))
        return False

    def trail_file(self, path: Path) -> bool:
        """Whether `path` is a regular file to read. Anything else named like a trail is
        reported with why, and never opened: a FIFO would block the run, a symlink loop or a
        dangling link cannot be read, a folder is not a trail."""
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            why = "a symlink to a missing file" if os.path.islink(path) else "vanished"
            self.rejects.append(Reject(str(path), 0, f"{why}; skipped"))
            return False
        except OSError as error:
            reason = "a symlink loop" if error.errno == errno.ELOOP else error.strerror
            self.rejects.append(Reject(str(path), 0, f"cannot read: {reason}; skipped"))
            return False
        if stat.S_ISREG(mode):
            return self.inside_roots(path)
        kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "a device or special file")
        self.rejects.append(Reject(str(path), 0, f"{kind} named like a trail; skipped, never opened"))
        return False

    def readable_folder(self, folder: Path) -> bool:
        """Whether a project folder can be listed; one that cannot is reported."""
        if os.access(folder, os.R_OK | os.X_OK):
            return True
        self.rejects.append(Reject(str(folder), 0, "cannot list the folder: permission denied; "
                                                   "skipped (check its permissions)"))
        return False

    def admit(self, source: str, project: str, allow: Allowlist) -> bool:
        """Whether `project` may be read; a denied one is remembered for the allowlist message."""
        if allow.allows(project):
            return True
        self.denied_projects.add((source, project))
        return False


@dataclass(frozen=True)
class DiscoverOptions:
    include_subagents: bool = False
    since: float | None = None  # only trails modified at or after this epoch time

    def recent(self, path: Path) -> bool:
        try:
            return self.since is None or path.stat().st_mtime >= self.since
        except OSError:
            return False  # vanished between the glob and the stat


@dataclass(frozen=True)
class ReadOptions:
    max_event_chars: int = DEFAULT_MAX_EVENT_CHARS
    recall_tags: tuple[str, ...] = DEFAULT_RECALL_TAGS
