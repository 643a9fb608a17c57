"""Shared fixtures: one local Ray for the session, an isolated lake per test, clean env."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT.parent / "shared" / "fixtures" / "trails"
SAMPLES = ROOT / "jobs" / "samples" / "claude-code"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for key in list(os.environ):
        if key.startswith("INTERVIEW_") and key != "INTERVIEW_MODEL_CACHE":
            monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("INTERVIEW_MACHINE_ID", "test-machine")


@pytest.fixture(scope="session")
def ray_cluster():
    import ray
    from ray import cloudpickle

    import tests.scripted
    from jobs.cluster import ensure_ray
    from jobs.settings import RaySettings

    cloudpickle.register_pickle_by_value(tests.scripted)
    ensure_ray(RaySettings(num_cpus=2, object_store_mb=256))
    yield ray
    ray.shutdown()


@pytest.fixture
def lake_dir(tmp_path) -> Path:
    return tmp_path / "lake"


@pytest.fixture
def trail_root(tmp_path) -> Path:
    """A Claude Code projects folder with copies of the sample trails (safe to append to)."""
    root = tmp_path / "projects"
    shutil.copytree(SAMPLES, root)
    for path in root.rglob("*"):
        path.chmod(0o644 if path.is_file() else 0o755)
    return root


def fixture_path(*parts: str) -> Path:
    return FIXTURES.joinpath(*parts)
