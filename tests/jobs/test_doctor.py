"""`interview doctor --json` in a temporary HOME: each state it reports (nothing installed, a
missing or corrupt model, installed hooks and crontab with their last calls, a failed hook, a
push server with a good and a bad key, projects found but not allowed), each problem with its
fix."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.jobs.install.homes import home_env, make_home
from tests.serving import KEYS, Server, write_config


def doctor(env) -> dict:
    done = subprocess.run([sys.executable, "-m", "jobs.cli", "doctor", "--json"], env=env,
                          capture_output=True, text=True, timeout=120)
    report = json.loads(done.stdout)
    assert done.returncode == (0 if report["ok"] else 1), done.stderr
    return report


def install(env, *args):
    done = subprocess.run([sys.executable, "-m", "jobs.cli", "install", "all", *args], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def fixes(report) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for problem in report["problems"]:
        out.setdefault(problem["check"], []).append(problem["fix"])
    return out


def test_nothing_installed_and_models_missing_or_corrupt(tmp_path):
    make_home(tmp_path)
    env = home_env(tmp_path)
    cache = tmp_path / "models"
    cache.mkdir()
    env["INTERVIEW_MODEL_CACHE"] = str(cache)
    from synth.model_store import MINILM_TOKENIZER, find_model

    real = find_model(MINILM_TOKENIZER)
    if real is not None:  # same size, one byte off: the hash check sees it
        data = bytearray(real.read_bytes())
        data[100] ^= 1
        (cache / MINILM_TOKENIZER.cached_file).write_bytes(bytes(data))
    report = doctor(env)
    assert not report["ok"]
    found = fixes(report)
    assert "interview install all --projects GLOB" in found["hooks"]
    assert any("interview model pull" in fix for fix in found["models"])
    if real is not None:
        assert report["models"][MINILM_TOKENIZER.name]["hash_ok"] is False
        assert any(fix.startswith("rm ") for fix in found["models"])
    assert report["lake"]["readable"] is False and "interview run" in found["lake"][0]
    assert report["hooks"]["installed"] is False


def test_installed_hooks_and_crontab_their_last_calls_and_denied_projects(tmp_path):
    files = make_home(tmp_path)
    env = home_env(tmp_path)
    install(env, "--projects", "*spotter*", "--lake", str(tmp_path / "lake"), "--backend", "none",
            "--crontab-file", str(tmp_path / "crontab"))
    report = doctor(env)
    assert report["hooks"]["installed"] is True
    assert set(report["hooks"]["clients"]) == {"claude-code", "cursor", "codex"}
    assert report["scheduler"] == {**report["scheduler"], "backend": "cron", "installed": True,
                                   "interval": "30m", "last_ran": None}
    assert any("claude-mem" in p for p in report["projects"]["not_allowed"])
    assert "projects" in fixes(report)
    # A hook that failed, and a scheduled run that did: each a problem with where to look.
    log = files["home"] / ".local" / "state" / "trail-interview"
    (log / "hook.log").write_text(json.dumps({"at": "2026-12-07T05:00:00Z", "outcome": "error",
                                              "error": "LakeBusy: busy"}) + "\n")
    (log / "run.log").write_text("Error: the lake is gone\n")
    report = doctor(env)
    assert report["hooks"]["last"]["outcome"] == "error"
    assert report["scheduler"]["last_ran"] is not None
    found = fixes(report)
    assert "hook --foreground" in found["hooks"][0] and "run.log" in found["scheduler"][0]
    # The person removed our Cursor hook by hand: the doctor names the fix.
    files["cursor_hooks"].write_text('{"version": 1, "hooks": {}}\n')
    report = doctor(env)
    assert report["hooks"]["clients"]["cursor"]["installed"] is False
    assert "interview install cursor --projects GLOB" in fixes(report)["hooks"]


def test_push_server_reachable_with_the_key_or_not(tmp_path):
    make_home(tmp_path)
    env = home_env(tmp_path)
    server = Server(write_config(tmp_path / "server.toml", tmp_path / "server-lake"))
    try:
        install(env, "--projects", "*", "--server", server.url, "--api-key", KEYS["writer"][0],
                "--scheduler", "none")
        report = doctor(env)
        assert report["server"] == {**report["server"], "mode": "push", "reachable": True,
                                    "key_ok": True}
        install(env, "--projects", "*", "--server", server.url, "--api-key", "ti_wrong",
                "--scheduler", "none")
        report = doctor(env)
        assert report["server"]["key_ok"] is False and "--api-key KEY" in fixes(report)["server"][0]
    finally:
        server.stop()
    report = doctor(env)
    assert report["server"]["reachable"] is False
