"""Shared fixtures: one local Ray for the session, an isolated lake per test, clean env."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "jobs" / "samples" / "claude-code"


# Hypothesis profiles: `fast` (the default, for `pytest`) and `ci` (`.ci/run` sets
# HYPOTHESIS_PROFILE=ci). A test's own @settings(max_examples=...) still wins over either.
hypothesis_settings.register_profile("fast", max_examples=25, deadline=None)
hypothesis_settings.register_profile("ci", max_examples=100, deadline=None)  # hypothesis' own default
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))

# The slow tier (`pytest -m slow`; `.ci/run` runs it) is chosen by what a test uses, so a new test
# lands in the right tier by itself: a second service (Postgres, S3, a browser), a two-node Ray, or
# a kill -9 / SIGTERM loop of subprocesses. Explicit @pytest.mark.slow marks the rest.
SLOW_FIXTURES = {"postgres", "s3", "browser", "ui_server"}
SLOW_HELPERS = ("kill_session", "chromium", "start_node")  # kill loops, the browser, two-node Ray


def uses_slow_things(item) -> bool:
    if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("any_lake") == "postgres":
        return True
    module = getattr(item, "module", None)
    return module is not None and any(hasattr(module, name) for name in SLOW_HELPERS)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark slow, before `-m` deselects, every test that uses a slow thing (above)."""
    for item in items:
        if uses_slow_things(item):
            item.add_marker(pytest.mark.slow)


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto`: one worker a core, at most 4. Each worker has its own session fixtures (a local
    Ray, a Postgres, an S3 server, a browser), and most tests start Ray processes of their own, so
    more workers than cores only queue them."""
    return max(1, min(4, os.cpu_count() or 1))


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


@pytest.fixture(scope="session")
def postgres():
    """A real PostgreSQL on loopback for the session (tests.services)."""
    from tests.services import Postgres

    server = Postgres()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def s3(tmp_path_factory):
    """A real S3-compatible server (moto) on loopback for the session."""
    from tests.services import S3Server

    server = S3Server(tmp_path_factory.mktemp("s3"))
    yield server
    server.stop()


def postgres_lake(postgres, data: str) -> str:
    """A new, empty lake in a fresh Postgres database with its data at `data`; the catalog
    keeps the data path, so the returned `ducklake:postgres:...` alone opens it from then on."""
    from sinks.lake import Lake

    url = f"ducklake:postgres:{postgres.database()}"
    Lake(url, writer=True, data=data).close()
    return url


@pytest.fixture(params=["sqlite", "postgres"])
def any_lake(request, tmp_path):
    """A lake on each catalog: a folder (SQLite), and a Postgres catalog with a data folder.
    A test taking it runs once per catalog."""
    if request.param == "sqlite":
        return tmp_path / "lake"
    return postgres_lake(request.getfixturevalue("postgres"), str(tmp_path / "lake-data"))


@pytest.fixture
def trail_root(tmp_path) -> Path:
    """A Claude Code projects folder with copies of the sample trails (safe to append to)."""
    root = tmp_path / "projects"
    shutil.copytree(SAMPLES, root)
    for path in root.rglob("*"):
        path.chmod(0o644 if path.is_file() else 0o755)
    return root
