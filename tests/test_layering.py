"""The packages are layers: ingest imports nothing of synth, sinks or jobs; synth nothing of sinks
or jobs; sinks nothing of jobs. jobs holds no SQL; no module grows past 400 lines; no module
imports itself through others; the front doors of jobs/ are folders."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("ingest", "synth", "sinks", "jobs")
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


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_400_lines(package):
    sizes = {str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in modules(package)}
    assert {path: lines for path, lines in sizes.items() if lines > 400} == {}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(packages=PACKAGES) -> dict[str, set[str]]:
    """Module → the modules of ours it imports, anywhere in it (a function's import runs too);
    `from a import b` names the module `a.b` when there is one, else `a`."""
    paths = {module_name(path): path for package in packages for path in modules(package)}

    def ours(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base
                               for alias in node.names)
        graph[name] = {found for target in targets if (found := ours(target)) not in (None, name)}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle for every back edge a depth-first walk meets, as the modules around it."""
    found, state, stack = [], {}, []

    def visit(module: str) -> None:
        state[module] = "open"
        stack.append(module)
        for imported_module in sorted(graph[module]):
            if state.get(imported_module) == "open":
                found.append(stack[stack.index(imported_module):] + [imported_module])
            elif imported_module not in state:
                visit(imported_module)
        stack.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return found


def test_cycles_are_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    """No module imports itself through others, not even from inside a function: a circle works
    only in the order it happens to be loaded in, and hides which module is the lower one."""
    assert [" -> ".join(cycle) for cycle in cycles(import_graph())] == []


def test_front_doors_are_folders():
    """Each way in has its folder: the commands, the HTTP side (server, keys, push), what agents
    read (MCP, the digest) and the browser UI; jobs/ itself keeps the run machinery."""
    doors = {"cli": "__init__.py", "http": "server.py", "agents": "mcp_server.py", "ui": "app.py"}
    assert {door: (ROOT / "jobs" / door / "__init__.py").is_file()
            and (ROOT / "jobs" / door / module).is_file() for door, module in doors.items()} == \
        dict.fromkeys(doors, True)
    flat = sorted(path.name for pattern in ("cli*.py", "server*.py", "mcp*.py", "push*.py")
                  for path in (ROOT / "jobs").glob(pattern))
    assert flat == []
