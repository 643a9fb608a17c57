"""The fixture trails: real public trails the tests parse, each named by its source.

Every file lives in the repository, once: most are the demo's samples (`jobs/samples/`, laid out
as each tool keeps its files), the rest are in `tests/fixtures/trails/`. A fixture is named
`<tool>/<source>/<file>` (the names of `tests/fixtures/trails/README.md`'s provenance tables and
of the golden files in `tests/goldens/`), whichever of the two folders holds it.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "jobs" / "samples"
EXTRA = ROOT / "tests" / "fixtures" / "trails"

# source name → the folders holding its files (a file's name below the folder is the same in each)
SOURCES: dict[str, tuple[Path, ...]] = {
    "claude-code/marot-spotter": (SAMPLES / "claude-code" / "spotter",
                                  EXTRA / "claude-code" / "marot-spotter"),
    "claude-code/tomjnsn-agentlogs": (SAMPLES / "claude-code" / "agentlogs",
                                      EXTRA / "claude-code" / "tomjnsn-agentlogs"),
    "claude-code/d-kimuson-claude-code-viewer/sample-project": (
        SAMPLES / "claude-code" / "todo-app",
        EXTRA / "claude-code" / "d-kimuson-claude-code-viewer" / "sample-project"),
    "claude-code/daaain-claude-code-log": (EXTRA / "claude-code" / "daaain-claude-code-log",),
    "cursor/slevin48-cursor-history": (
        SAMPLES / "cursor" / "User" / "workspaceStorage" / "ionic-copilot",),
    "cursor/thedotmack-claude-mem": (
        SAMPLES / "cursor" / "projects" / "claude-mem" / "agent-transcripts" / "cursor-session",),
    "openclaw/openclaw-openclaw-devsession": (
        SAMPLES / "openclaw" / "agents" / "main" / "sessions",),
    "openclaw/tomjnsn-agentlogs-pi": (SAMPLES / "openclaw" / "agents" / "pi" / "sessions",),
}
TRAIL_FILES = ("*.jsonl", "state.vscdb")  # a source's folder also holds its LICENSE


def fixture_trails(prefix: str = "") -> dict[str, Path]:
    """Every fixture trail whose name starts with `prefix`: name → file, sorted by name."""
    found: dict[str, Path] = {}
    for source, folders in SOURCES.items():
        for folder in folders:
            if not folder.is_dir():
                raise FileNotFoundError(f"fixture folder {folder} of {source} is missing: "
                                        "restore it from git (git checkout -- tests jobs/samples)")
            for pattern in TRAIL_FILES:
                for path in folder.rglob(pattern):
                    name = f"{source}/{path.relative_to(folder).as_posix()}"
                    if name in found:
                        raise ValueError(f"fixture {name} is in two folders: {found[name]} and "
                                         f"{path}; keep one copy")
                    found[name] = path
    return {name: found[name] for name in sorted(found) if name.startswith(prefix)}


def fixture_path(name: str) -> Path:
    """The file of one fixture trail, by name (`claude-code/marot-spotter/short.jsonl`)."""
    for source, folders in SOURCES.items():
        if name.startswith(source + "/"):
            for folder in folders:
                path = folder / name.removeprefix(source + "/")
                if path.is_file():
                    return path
    raise FileNotFoundError(f"no fixture trail {name!r}: the names are in tests/trails.py "
                            "and tests/fixtures/trails/README.md")


def fixture_name(path: str | Path) -> str | None:
    """A file's fixture name, or None when it is not a fixture trail."""
    path = Path(path)
    for source, folders in SOURCES.items():
        for folder in folders:
            if path.is_relative_to(folder):
                return f"{source}/{PurePosixPath(path.relative_to(folder).as_posix())}"
    return None
