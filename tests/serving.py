"""A real `interview serve` in a subprocess on a free loopback port, for the HTTP tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.processes import terminate

ROOT = Path(__file__).resolve().parent.parent

# Keys of the test servers: (key, tenant, capabilities).
KEYS = {
    "writer": ("ti_writer_acme", "acme", ["write", "read"]),
    "reader": ("ti_reader_acme", "acme", ["read"]),
    "admin": ("ti_admin_acme", "acme", ["write", "read", "admin"]),
    "beta": ("ti_writer_beta", "beta", ["write", "read"]),
    "gamma": ("ti_writer_gamma", "gamma", ["write", "read"]),
}


def write_config(path: Path, lake: Path, *, extra: str = "", tail: str = "") -> Path:
    from jobs.http.auth import hash_key

    lines = [f'lake = "{lake}"', 'tenant_id = "acme"', 'backend = "none"', "", "[server]",
             "max_body_bytes = 1000000", extra, ""]
    for key, tenant, capabilities in KEYS.values():
        lines += ["[[server.keys]]", f'sha256 = "{hash_key(key)}"', f'tenant = "{tenant}"',
                  f"capabilities = {capabilities!r}".replace("'", '"'), ""]
    lines += ["[tenants.acme.interviewer]", "enabled = true", "",
              "[tenants.beta.interviewer]", "enabled = true", "",
              "[tenants.gamma.interviewer]", "enabled = false", "", tail]
    path.write_text("\n".join(lines))
    return path


class Server:
    """`interview serve --port 0`; `url` once it listens. Kill it with `kill()` (SIGKILL)."""

    def __init__(self, config: Path, *, env: dict | None = None, preexec_fn=None) -> None:
        self.log = config.with_suffix(".log")
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "jobs.cli", "--config", str(config), "serve", "--port", "0"],
                cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True, preexec_fn=preexec_fn,
                env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
        line = self.process.stdout.readline()
        if "listening on" not in line:
            self.kill()
            raise RuntimeError(f"server did not start: {line}{self.log.read_text()}")
        self.url = line.split()[2]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=5).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError("server never answered /healthz")

    def client(self, who: str = "writer") -> httpx.Client:
        return httpx.Client(base_url=self.url, headers={"X-API-Key": KEYS[who][0]}, timeout=60)

    def stop(self) -> None:
        terminate(self.process)
        self.process.stdout.close()

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        self.process.stdout.close()


def body(node: str, start: int, count: int = 10, *, gap: int = 0, **extra) -> dict:
    """A valid window of `count` events from seq `start`."""
    events = [{"seq": start + i, "ts": f"2026-11-02T10:{(start + i) % 60:02d}:00Z",
               "session_id": "s1", "role": "user" if i % 2 == 0 else "assistant",
               "kind": "message",
               "content": f"Event {start + i} of {node}: we chose DuckLake for the catalog."}
              for i in range(count)]
    return {"node_id": node, "agent_id": "agent-1", "cursor_from": start,
            "cursor_to": start + count - 1 + gap, "events": events, **extra}
