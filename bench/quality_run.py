"""One backend over the quality set through the real pipeline: what it wrote, per trail.

The split's trails are copied into a fresh folder (the agents' usual layouts) and each agent's
trails run as their own tenant (`run_nodes`: discovery, windows, masking, the model on Ray, the
reduce, the support check, the commit) into one fresh lake. A tenant per agent keeps the same
statement written for two agents' trails of one story from resolving as a content duplicate:
each trail is scored on what was written for it.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.quality_backends import BENCH_BACKENDS, bench_factory, register_bench_backends

SET = Path(__file__).resolve().parent / "quality"
SHAPES = ("claude-code", "cursor", "openclaw", "codex")
ROOTS = {"claude-code": ("claude_code_roots", "trails/claude-code"),
         "cursor": ("cursor_roots", "trails/cursor/projects"),
         "openclaw": ("openclaw_roots", "trails/openclaw"),
         "codex": ("codex_roots", "trails/codex")}


@dataclass
class Run:
    """What one backend wrote over one split: memories with their trail file, and the cost."""

    backend: str
    model: str = ""
    windows: int = 0
    seconds: float = 0.0
    model_seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)
    memories: list[dict] = field(default_factory=list)  # type, content, file, evidence


def load_labels(path: Path = SET / "labels.json") -> dict:
    return json.loads(path.read_text())


def trails_of(labels: dict, split: str) -> list[dict]:
    """The trails of one split (`dev`, `test`), or of every story (`all`)."""
    return [t for t in labels["trails"] if split == "all" or t["split"] == split]


def copy_trails(trails: list[dict], into: Path) -> None:
    """The trails' files under `into`, at the same relative paths as in the set."""
    for trail in trails:
        for name in trail["files"]:
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(SET / name, target)


def backend_options(backend: str, labels: dict, llamacpp: dict | None = None,
                    openai: dict | None = None) -> tuple[dict, dict]:
    """(settings flags, bench factory options) for a backend."""
    if backend == "oracle":
        facts = [fact for story in labels["stories"].values() for fact in story["facts"]]
        return {}, {"facts": facts}
    if backend == "llamacpp" and llamacpp:
        return {"llamacpp": llamacpp}, {}
    if backend in ("openai", "vllm") and openai:
        return {backend: openai}, {}
    return {}, {}


def run_backend(backend: str, labels: dict, split: str, *, max_window_chars: int,
                llamacpp: dict | None = None, openai: dict | None = None,
                work: Path | None = None, trails: list[dict] | None = None) -> Run:
    """Run one backend over the split's trails (or the `trails` given) into a fresh lake; read
    back what it wrote."""
    from jobs.api import discover_nodes, run_nodes
    from jobs.settings import load_settings

    register_bench_backends()
    work = Path(work or tempfile.mkdtemp(prefix=f"quality-{backend}-"))
    copy_trails(trails_of(labels, split) if trails is None else trails, work)
    flags, factory_options = backend_options(backend, labels, llamacpp, openai)
    factory = bench_factory(backend, factory_options) if backend in BENCH_BACKENDS else None
    run = Run(backend)
    files: dict[tuple[str, str], str] = {}
    for shape in SHAPES:
        key, root = ROOTS[shape]
        if not (work / root).is_dir():
            continue
        settings = load_settings(
            lake=work / "lake", backend=backend, tenant_id=shape, sources=[shape],
            all_projects=True, since_hours=0, flush=True, max_windows=100_000,
            max_window_chars=max_window_chars, **{key: [str(work / root)]}, **flags)
        started = time.perf_counter()
        summary = run_nodes(settings, backend_factory=factory)
        run.seconds += time.perf_counter() - started
        run.model, run.windows = summary.model, run.windows + summary.windows
        run.model_seconds += summary.model_seconds
        for name, value in summary.to_json().items():
            if isinstance(value, int) and not isinstance(value, bool):
                run.counts[name] = run.counts.get(name, 0) + value
        for node in discover_nodes(settings).nodes:
            where = Path(node.path).resolve().relative_to(work.resolve())
            files[(shape, node.node_id)] = str(where)
    run.memories = read_memories(work / "lake", files)
    return run


def read_memories(lake: Path, files: dict[tuple[str, str], str]) -> list[dict]:
    """Every memory of the lake with the set file of its node (tenant = agent)."""
    from sinks.lake import Lake

    if not lake.exists():
        return []
    with Lake(lake, create=False) as opened:
        rows = opened.con.execute(
            "SELECT tenant_id, memory_type, content, node_id, evidence_seqs FROM memories "
            "ORDER BY tenant_id, node_id, ts_valid_start").fetchall()
    return [{"type": kind, "content": content, "file": files.get((tenant, node_id)),
             "evidence": list(seqs or [])} for tenant, kind, content, node_id, seqs in rows]
