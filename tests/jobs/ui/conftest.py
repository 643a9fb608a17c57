"""For the `interview ui` tests: a demo-like lake with real memories (the sample trails, one
trail of untrusted text and one pushed window, through a real run with the scripted model), the
real `interview ui` in a subprocess on a free loopback port, and headless Chromium."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import SAMPLES
from tests.processes import terminate
from tests.serving import ROOT

HOSTILE = "<script>__pwned=1</script><img src=x onerror=__pwned=2>"  # sets window.__pwned
HOSTILE_PROMPT = f"Fix the login form: {HOSTILE} and mail alice@example.org about it"
PUSHED_NODE = "cc:pushedmachin:remote-session"


def hostile_trail(folder: Path) -> Path:
    """A Claude Code session whose prompt is markup (and holds an e-mail address to mask)."""
    folder.mkdir(parents=True)
    reply = ("I fixed the login form validation in src/forms/login.ts and wrote a regression "
             "test for the empty e-mail case.")
    lines = [{"type": "user", "sessionId": "xss", "uuid": "u1",
              "timestamp": "2026-11-20T09:00:00.000Z",
              "message": {"role": "user", "content": HOSTILE_PROMPT}},
             {"type": "assistant", "sessionId": "xss", "uuid": "u2",
              "timestamp": "2026-11-20T09:01:00.000Z",
              "message": {"role": "assistant", "content": [{"type": "text", "text": reply}]}}]
    path = folder / "hostile.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def push_one_window(lake: Path) -> None:
    """A window a client pushed: stored in the inbox, as `interview serve` does."""
    from ingest.events import Event
    from ingest.windows import Window
    from sinks.inbox import accept_windows
    from sinks.lake import Lake

    events = (Event(0, "2026-11-21T08:00:00.000Z", "remote", "user", "prompt",
                    "Move the nightly export to the Postgres catalog before Friday"),
              Event(1, "2026-11-21T08:02:00.000Z", "remote", "assistant", "reply",
                    "Moved the nightly export to the Postgres catalog and checked the counts"))
    with Lake(lake, writer=True) as opened:
        accept_windows(opened.con, [Window(PUSHED_NODE, "agent", 0, 1, events, "local")])


@pytest.fixture(scope="session")
def ui_lake(tmp_path_factory, ray_cluster):
    """(lake, trails): the sample trails and the hostile one interviewed by a real run."""
    from jobs.api import run_nodes
    from jobs.settings import load_settings
    from tests import scripted

    base = tmp_path_factory.mktemp("ui")
    trails = base / "projects"
    shutil.copytree(SAMPLES, trails)
    hostile_trail(trails / "webshop")
    lake = base / "lake"
    push_one_window(lake)
    settings = load_settings(lake=lake, claude_code_roots=[str(trails)], flush=True,
                             max_windows=50, backend="llamacpp", sources=["claude-code"],
                             all_projects=True, since_hours=0)
    summary = run_nodes(settings, backend_factory=scripted.factory())
    assert summary.memories_written > 10 and summary.inbox_claimed == 1
    return lake, trails


def lake_copy(ui_lake, tmp_path) -> Path:
    """A copy of the shared lake a test may change (forget)."""
    copy = tmp_path / "lake"
    shutil.copytree(ui_lake[0], copy, ignore=shutil.ignore_patterns("*.lock"))
    return copy


class Ui:
    """`interview [--config CONFIG] ui ARGS --host HOST --port 0`; `url` once it listens."""

    def __init__(self, *args: str, host: str = "127.0.0.1", config: Path | None = None) -> None:
        head = ["--config", str(config)] if config else []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jobs.cli", *head, "ui", *args, "--host", host, "--port", "0"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        line = self.process.stdout.readline()
        if not line.startswith("ui on "):
            raise RuntimeError(f"interview ui did not start: {line}{self.stop()}")
        self.line = line
        port = line.split()[2].rsplit(":", 1)[1]
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while httpx.get(f"{self.url}/healthz").status_code != 200:
            assert time.monotonic() < deadline, "interview ui never answered /healthz"
            time.sleep(0.1)

    def stop(self) -> str:
        terminate(self.process)
        errors = self.process.stderr.read()
        self.process.stdout.close()
        self.process.stderr.close()
        return errors


@pytest.fixture
def start_ui():
    """Start `interview ui` processes; each is stopped after the test."""
    started = []

    def start(*args: str, host: str = "127.0.0.1", config: Path | None = None) -> Ui:
        started.append(Ui(*args, host=host, config=config))
        return started[-1]

    yield start
    for ui in started:
        ui.stop()


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session (tests.browser)."""
    from tests.browser import NoBrowser, chromium
    from tests.services import unavailable

    try:
        driver = chromium()
    except NoBrowser as missing:
        unavailable(str(missing))
    yield driver
    driver.quit()


@pytest.fixture
def page(browser):
    """The browser with no cookie and an empty console log."""
    from tests.browser import console_errors

    browser.get("about:blank")
    browser.delete_all_cookies()  # every test signs in (or not) for itself
    console_errors(browser)
    return browser
