"""A lake folder the user may not write is one clear message, never a traceback: for writers
(a read-only mount, a writer.lock that cannot be opened) and for readers (the WAL catalog needs
to create its -shm file beside itself even to read).

Tests run as root here, where a file mode denies nothing: a read-only bind mount in a mount
namespace of its own (`unshare --mount`) and an immutable `writer.lock` (`chattr +i`) make the
same errors a user without permission gets (EROFS, EPERM)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sinks.lake import Lake
from tests.sinks.test_commit import commit, report, window

ROOT = Path(__file__).resolve().parents[2]


def can(command: list[str]) -> bool:
    try:
        return subprocess.run(command, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture
def made_lake(tmp_path):
    """A folder lake: these are the folder's own failures."""
    with Lake(tmp_path / "lake", writer=True) as lake:
        commit(lake, window(), report("Kept the Postgres ledger"))
    return tmp_path / "lake"


def in_read_only_mount(folder: Path, *args: str) -> subprocess.CompletedProcess:
    script = (f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder} {folder} && "
              f"exec {sys.executable} -m jobs.cli " + " ".join(f"'{a}'" for a in args))
    return subprocess.run(["unshare", "--mount", "sh", "-c", script], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_a_read_only_lake_folder_is_one_clear_message(made_lake, tmp_path):
    if shutil.which("unshare") is None or not can(["unshare", "--mount", "true"]):
        pytest.skip("no mount namespace here (unshare --mount is refused)")
    trails = tmp_path / "trails"
    trails.mkdir()
    writer = in_read_only_mount(made_lake, "run", "--roots", str(trails), "--all-projects",
                                "--backend", "none", "--lake", str(made_lake))
    assert writer.returncode == 1 and "Traceback" not in writer.stderr
    assert "cannot write to the lake at" in writer.stderr and "Read-only file system" in writer.stderr
    reader = in_read_only_mount(made_lake, "sql", "select count(*) from memories",
                                "--lake", str(made_lake))
    assert reader.returncode == 1 and "Traceback" not in reader.stderr
    assert "the folder is read-only for this user" in reader.stderr
    assert "restore catalog.sqlite" not in reader.stderr  # not a broken lake: an access problem


def test_a_writer_lock_that_cannot_be_opened_is_one_clear_message(made_lake):
    lock = made_lake / "writer.lock"
    if not can(["chattr", "+i", str(lock)]):
        pytest.skip("chattr +i is refused on this file system")
    try:
        result = subprocess.run([sys.executable, "-m", "jobs.cli", "compact", "--lake", str(made_lake)],
                                capture_output=True, text=True, cwd=ROOT, timeout=120)
    finally:
        subprocess.run(["chattr", "-i", str(lock)], check=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "cannot write to the lake at" in result.stderr and "writer.lock" in result.stderr
