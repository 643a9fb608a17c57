"""The packages are layers: ingest imports nothing of synth, sinks or jobs; synth nothing of sinks
or jobs; sinks nothing of jobs. jobs holds no SQL; no module grows past 400 lines."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"ingest": ("synth", "sinks", "jobs"), "synth": ("sinks", "jobs"), "sinks": ("jobs",)}


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_lower_layers_never_import_higher_ones(package):
    offenders = {str(path.relative_to(ROOT)): sorted(imported(path) & set(FORBIDDEN[package]))
                 for path in modules(package)}
    assert {path: found for path, found in offenders.items() if found} == {}


def test_jobs_holds_no_sql():
    sql = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE)\b[^\n]*\b(FROM|INTO|SET)\b")
    found = [str(path.relative_to(ROOT)) for path in modules("jobs") if sql.search(path.read_text())]
    assert found == []


@pytest.mark.parametrize("package", ["ingest", "synth", "sinks", "jobs"])
def test_no_module_is_over_400_lines(package):
    sizes = {str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in modules(package)}
    assert {path: lines for path, lines in sizes.items() if lines > 400} == {}
