"""`interview doctor`: is this person's setup working, and what fixes what is not.

Each check reads what is there (the model cache, the lake, the install manifest and the files it
names, the hook and run logs, the server) and never writes; a problem carries the command that
fixes it. The report is a dict (`--json` prints it as it is)."""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime
from pathlib import Path

from jobs.install import paths
from jobs.settings import Settings

log = logging.getLogger(__name__)


class Report:
    def __init__(self) -> None:
        self.sections: dict[str, dict] = {}
        self.problems: list[dict] = []

    def problem(self, check: str, detail: str, fix: str) -> None:
        self.problems.append({"check": check, "detail": detail, "fix": fix})

    def to_json(self) -> dict:
        return {"ok": not self.problems, **self.sections, "problems": self.problems}


def check_models(report: Report) -> None:
    from synth.model_store import MINILM_ONNX, MINILM_TOKENIZER, SMOLLM2, find_model, sha256_of

    models = {}
    for model, needed in ((MINILM_ONNX, True), (MINILM_TOKENIZER, True), (SMOLLM2, False)):
        path = find_model(model)
        state = {"path": str(path) if path else None, "needed": needed, "hash_ok": None}
        if path is not None:
            state["hash_ok"] = sha256_of(path) == model.file_sha256
            if not state["hash_ok"]:
                report.problem("models", f"{model.name} at {path} does not have its sha256",
                               f"rm {path} && interview model pull"
                               + (" --llamacpp" if not needed else ""))
        elif needed:
            report.problem("models", f"{model.name} is not in the model cache",
                           "interview model pull")
        models[model.name] = state
    report.sections["models"] = models


def check_lake(report: Report, settings: Settings) -> None:
    from sinks.lake import Lake
    from sinks.operations import last_runs

    location = settings.lake_location
    state = {"where": location.describe(), "catalog": location.kind, "readable": False,
             "last_run": None}
    report.sections["lake"] = state
    if not location.exists():
        report.problem("lake", f"no lake at {location.describe()} yet",
                       "interview run (a hook or the scheduled run creates it too)")
        return
    try:
        with Lake(location, create=False) as lake:
            runs = last_runs(lake.con, 1)
    except Exception as error:  # noqa: BLE001 - a doctor reports, whatever the error
        report.problem("lake", f"cannot read the lake at {location.describe()}: {error}",
                       "interview lake (shows where it is and how it is catalogued)")
        return
    state["readable"] = True
    if runs:
        run = runs[0]
        started = run["started_at"]
        age = (datetime.now(UTC) - started).total_seconds() if started else None
        state["last_run"] = {"run_id": run["run_id"], "kind": run["kind"],
                             "status": run["status"], "age_seconds": round(age or 0, 1),
                             "counts": {k: run["counts"].get(k) for k in
                                        ("windows", "memories_written", "parked", "nodes")
                                        if k in run["counts"]}}


def check_install(report: Report, settings: Settings, runner=None) -> dict:
    from jobs.agents.hook import last_records
    from jobs.install.installer import CRONTAB, crontab_of, load_manifest
    from jobs.install.schedule import run_command

    manifest = load_manifest()
    tag = str(paths.config_file())
    clients: dict[str, dict] = {}
    scheduler = {"backend": manifest.get("scheduler"), "installed": False, "last_ran": None,
                 "interval": manifest.get("interval")}
    for target, entry in manifest["targets"].items():
        if entry["client"] == "scheduler":
            if target == CRONTAB:
                text = crontab_of(runner or run_command, manifest.get("crontab_file")).read()
            else:
                text = Path(target).read_text() if Path(target).is_file() else None
            scheduler["installed"] = bool(text and paths.MARKER in text)
            continue
        if entry["client"] == "interview":
            continue
        text = Path(target).read_text(encoding="utf-8") if Path(target).is_file() else ""
        clients.setdefault(entry["client"], {"files": {}})["files"][target] = tag in text
    for name, state in clients.items():
        state["installed"] = all(state["files"].values())
        if not state["installed"]:
            missing = [p for p, ok in state["files"].items() if not ok]
            report.problem("hooks", f"{name}: our entries are gone from {', '.join(missing)}",
                           f"interview install {name} --projects GLOB")
    records = last_records(20)
    last = records[-1] if records else None
    hooks = {"installed": bool(clients) and all(s["installed"] for s in clients.values()),
             "clients": clients, "log": str(paths.hook_log()), "last": last}
    if not manifest["targets"]:
        report.problem("hooks", "nothing is installed for this user",
                       "interview install all --projects GLOB")
    elif last and last.get("outcome") == "error":
        report.problem("hooks", f"the last hook call failed: {last.get('error')}",
                       f"see {paths.hook_log()}; rerun it with `interview hook --foreground`")
    log_file = paths.run_log()
    if log_file.is_file():
        scheduler["last_ran"] = datetime.fromtimestamp(log_file.stat().st_mtime, UTC).isoformat(
            timespec="seconds")
        tail = log_file.read_text(errors="replace").splitlines()[-3:]
        scheduler["log_tail"] = tail
        if any(line.startswith("Error:") for line in tail):
            report.problem("scheduler", f"the last scheduled run failed: {tail[-1]}",
                           f"see {log_file}")
    if manifest["targets"] and manifest.get("scheduler") not in (None, "none") \
            and not scheduler["installed"]:
        report.problem("scheduler", f"the {manifest['scheduler']} entry is gone",
                       "interview install all --projects GLOB")
    report.sections["hooks"] = hooks
    report.sections["scheduler"] = scheduler
    return manifest


def check_server(report: Report, manifest: dict) -> None:
    import httpx

    from jobs.agents.hook import read_env_file

    env = read_env_file(paths.env_file())
    server = env.get("INTERVIEW_PUSH_SERVER")
    state = {"mode": manifest.get("mode", "run"), "url": server, "reachable": None,
             "key_ok": None}
    report.sections["server"] = state
    if not server:
        return
    started = time.perf_counter()
    try:
        answer = httpx.get(f"{server.rstrip('/')}/healthz", timeout=10,
                           headers={"X-API-Key": env.get("INTERVIEW_API_KEY", "")})
    except httpx.HTTPError as error:
        state["reachable"] = False
        report.problem("server", f"{server} does not answer: {error}",
                       f"check that `interview serve` runs there; curl {server}/healthz")
        return
    state["reachable"] = answer.status_code == 200
    state["seconds"] = round(time.perf_counter() - started, 3)
    # /healthz names the lake only to a caller whose key it knows.
    state["key_ok"] = state["reachable"] and "lake" in answer.json()
    if not state["key_ok"]:
        report.problem("server", f"{server} does not accept the installed key",
                       "interview install all --projects GLOB --server URL --api-key KEY")


def check_projects(report: Report, settings: Settings) -> None:
    from ingest.discover import discover
    from ingest.nodes import Allowlist

    allow = Allowlist(tuple(settings.projects), settings.all_projects)
    found = discover(settings.roots(), allow, include_subagents=False, since_hours=0)
    denied = sorted(f"{source}: {project}" for source, project in found.denied_projects)
    report.sections["projects"] = {"allowed": list(settings.projects) or
                                   (["*"] if settings.all_projects else []),
                                   "nodes": len(found.nodes), "not_allowed": denied}
    if denied and not allow.empty:
        report.problem("projects", f"{len(denied)} project(s) found but not allowed: "
                       + ", ".join(denied[:5]),
                       "interview install all --projects GLOB (one per project to allow)")


def diagnose(settings: Settings, *, runner=None) -> dict:
    report = Report()
    check_models(report)
    check_lake(report, settings)
    manifest = check_install(report, settings, runner)
    check_server(report, manifest)
    check_projects(report, settings)
    return json.loads(json.dumps(report.to_json(), default=str))
