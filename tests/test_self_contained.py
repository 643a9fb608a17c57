"""The repository is all a clone needs: no test, benchmark or script reads a path outside it.

The machines that build this project have folders beside the repository that a clone does not;
code that reads them passes there and fails everywhere else, so only this scan catches it. It
reads every code file (Python, shell, TOML, `.ci/run`) for a relative path up out of the tree, an
absolute path of the build machines, and a path built from `__file__` that climbs above the
repository's root (directly, or through a variable such as ROOT or HERE set from `__file__`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CODE_SUFFIXES = {".py", ".sh", ".toml"}
CODE_NAMES = {".ci/run"}
SKIP_DIRS = {"__pycache__", "node_modules", "build", "dist", "lake", "out"}

TEXT_RULES = (
    (re.compile(r"(?<![.\w/])\.\.[/\\]|(?:\.\.[/\\]){2}"), "a relative path up out of the folder"),
    (re.compile(r"""["']/work/"""), "an absolute path of the build machines"),
    (re.compile(r"""/\s*["']shared["']"""), "a 'shared' folder (the build machines' one is "
                                             "beside the repository)"),
)
FROM_FILE = re.compile(r"Path\(__file__\)(?:\.resolve\(\)|\.absolute\(\))?"
                       r"(?P<up>(?:\.parent\b)+|\.parents\[(?P<n>\d+)\])")
ASSIGNED = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)\s*(?::[^=]+)?=\s*" + FROM_FILE.pattern)
CLIMB = r"\b{name}(?P<up>(?:\.parent\b)+|\.parents\[(?P<n>\d+)\])"


def code_files(root: Path = ROOT) -> list[Path]:
    """The repository's code files, without virtual environments, caches and build outputs."""
    found = []
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if any(p in SKIP_DIRS or p.endswith(".egg-info") or (p.startswith(".") and p != ".ci")
               for p in parts[:-1]):
            continue
        if path.is_file() and (path.suffix in CODE_SUFFIXES or "/".join(parts) in CODE_NAMES):
            found.append(path)
    return found


def _levels(match: re.Match) -> int:
    """How many folders up a `.parent.parent` or `.parents[n]` goes."""
    return int(match["n"]) + 1 if match["n"] is not None else match["up"].count(".parent")


def outside_references(relative: str, text: str) -> list[str]:
    """`file:line: what: the line` for each reference outside the repository in one file, whose
    path relative to the repository's root is `relative`."""
    depth = len(Path(relative).parts)  # folders between the file and the root, the file counted
    anchored = {"ROOT": 0}  # a variable set from __file__ → how deep in the tree it points
    for line in text.splitlines():
        if assigned := ASSIGNED.match(line):
            anchored[assigned["name"]] = depth - _levels(assigned)
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        why = [what for rule, what in TEXT_RULES if rule.search(line)]
        if any(_levels(m) > depth for m in FROM_FILE.finditer(line)):
            why.append("a path from __file__ above the repository's root")
        for name, level in anchored.items():
            if any(_levels(m) > level for m in re.finditer(CLIMB.format(name=name), line)):
                why.append(f"{name} climbs above the repository's root")
        found += [f"{relative}:{number}: {what}: {line.strip()}" for what in why]
    return found


def test_no_code_refers_to_a_path_outside_the_repository():
    files = code_files()
    assert len(files) > 50 and ROOT / ".ci" / "run" in files
    found = [hit for path in files for hit in outside_references(
        path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8", errors="replace"))]
    assert found == [], ("code reads paths outside the repository, which a clone does not have; "
                         "put what it reads in the repository (fixture trails: tests/trails.py):\n"
                         + "\n".join(found))


# The bad lines below are spelled apart, so that this file passes its own scan.
UP, FILE, SHARED = "..", "Path(__" + "file__)", '"sh' + 'ared"'


@pytest.mark.parametrize("relative, line", [
    ("tests/conftest.py", f'FIXTURES = ROOT{".parent"} / {SHARED} / "fixtures"'),
    ("tests/goldens.py", f"HERE = {FILE}.resolve().parent\nX = HERE.parent.parent / 'x'"),
    ("tests/ingest/t.py", f"F = {FILE}.resolve().parents[3] / 'x'"),
    ("tests/t.py", f"F = {FILE}.parent.parent.parent"),
    ("bench/b.py", f'data = "{UP}/fixtures/x.jsonl"'),
    ("bench/b.sh", f'cp -r "$(dirname "$0")/{UP}/{UP}/data" .'),
    ("bench/b.py", 'open("/' + 'work/shared/x")'),
    ("bench/b.py", f"p = base / {SHARED}"),
])
def test_the_scan_names_file_and_line_of_each_kind(relative, line):
    found = outside_references(relative, "import x\n" + line)
    assert found and all(hit.startswith(f"{relative}:") for hit in found)
    assert any(hit.startswith(f"{relative}:{1 + line.count(chr(10)) + 1}:") for hit in found)


@pytest.mark.parametrize("relative, line", [
    ("tests/jobs/t.py", f"ROOT = {FILE}.resolve().parents[2]\nX = ROOT / 'jobs'"),
    ("tests/goldens.py", f"HERE = {FILE}.resolve().parent\nX = HERE.parent / 'jobs'"),
    ("bench/b.py", f"ROOT = {FILE}.resolve().parent.parent"),
    (".ci/run", 'cd "$(dirname "$0")/.."'),
    ("configs/server.toml", "# the hourly tick (POST .../schedule/run)"),
    ("tests/t.py", "cwd = '/home/dev/projects/shop'"),
    ("tests/sinks/t.py", "paths = ['data/../server.key']  # climbs back into the lake, not out"),
])
def test_paths_inside_the_repository_pass(relative, line):
    assert outside_references(relative, line) == []
