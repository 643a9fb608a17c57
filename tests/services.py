"""Real servers for the tests, on loopback and free ports: PostgreSQL (Debian's `postgresql`:
`initdb` into a temporary folder) and an S3-compatible bucket (moto's standalone server).

moto is the S3 server because it installs from PyPI with the dev extras (no MinIO binary is in
the registries here) and DuckDB's httpfs reads and writes it with path-style URLs.

Where a server cannot start (no `initdb` on PATH), its tests skip, except under
`INTERVIEW_REQUIRE_SERVICES=1` (set by `.ci/run`), where they fail: CI never skips them quietly.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def unavailable(why: str):
    import pytest

    if os.environ.get("INTERVIEW_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{why} (INTERVIEW_REQUIRE_SERVICES=1: CI must run these tests)")
    pytest.skip(why)


def _wait_for_port(port: int, process: subprocess.Popen, log: Path, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited ({process.returncode}): {log.read_text()[-2000:]}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"server not listening on {port} after {seconds}s: {log.read_text()[-2000:]}")


class Postgres:
    """A throwaway PostgreSQL cluster; `database()` makes a new empty database per test."""

    def __init__(self):
        initdb = postgres_bin("initdb")
        if initdb is None:
            unavailable("PostgreSQL is not installed (no initdb on PATH or in "
                        "/usr/lib/postgresql/*/bin; apt-get install postgresql)")
        self.bin = Path(initdb).parent
        # Its own folder under /tmp: pytest's folders are private to root, whom initdb refuses.
        folder = Path(tempfile.mkdtemp(prefix="interview-postgres-"))
        self.folder = folder
        self.port = free_port()
        self.user = "postgres"
        self._as_postgres = os.geteuid() == 0  # initdb refuses to run as root
        folder.mkdir(parents=True, exist_ok=True)
        if self._as_postgres:
            owner = pwd.getpwnam("postgres")
            os.chown(folder, owner.pw_uid, owner.pw_gid)
        self._run([str(self.bin / "initdb"), "-D", str(folder / "data"), "-A", "trust", "-U", self.user,
                   "--no-sync", "-E", "UTF8"])
        self.start()

    def start(self) -> None:
        folder = self.folder
        self._run([str(self.bin / "pg_ctl"), "-D", str(folder / "data"), "-l", str(folder / "log"), "-w", "-o",
                   f"-k {folder} -c listen_addresses=127.0.0.1 -p {self.port} -c fsync=off "
                   "-c max_connections=200", "start"])

    def halt(self) -> None:
        """Stop the server as a crash would (its files stay: `start` brings it back)."""
        if not (self.folder / "data" / "postmaster.pid").exists():
            return  # halted already
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop"])

    def _run(self, argv: list[str]) -> None:
        if self._as_postgres:
            argv = ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(_shell_quote(a) for a in argv)]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{argv} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def dsn(self, dbname: str = "postgres") -> str:
        return f"dbname={dbname} host=127.0.0.1 port={self.port} user={self.user}"

    def database(self) -> str:
        import psycopg

        name = f"lake_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.dsn(), autocommit=True) as con:
            con.execute(f"CREATE DATABASE {name}")
        return self.dsn(name)

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.folder, ignore_errors=True)


def postgres_bin(name: str) -> str | None:
    """A PostgreSQL program: on PATH, or where Debian's packages put it (not on PATH)."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                      key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0)
    return str(versions[-1]) if versions else None


def _shell_quote(value: str) -> str:
    return "'" + value.replace("'", "'\\''") + "'"


class S3Server:
    """moto's S3 on loopback; `bucket()` makes a new bucket; `env` is what a client needs."""

    def __init__(self, folder: Path):
        moto = Path(sys.executable).parent / "moto_server"
        if not moto.exists():
            unavailable("moto's server is not installed (pip install -e '.[dev]')")
        self.port = free_port()
        self.log = folder / "moto.log"
        folder.mkdir(parents=True, exist_ok=True)
        with open(self.log, "w") as log:  # the child keeps its own copy of the descriptor
            self.process = subprocess.Popen([str(moto), "-H", "127.0.0.1", "-p", str(self.port)],
                                            stdout=log, stderr=subprocess.STDOUT)
        _wait_for_port(self.port, self.process, self.log)
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.env = {"AWS_ACCESS_KEY_ID": "test-key-id", "AWS_SECRET_ACCESS_KEY": "test-secret-key",
                    "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": self.endpoint}

    def client(self):
        import boto3

        return boto3.client("s3", endpoint_url=self.endpoint, region_name="us-east-1",
                            aws_access_key_id=self.env["AWS_ACCESS_KEY_ID"],
                            aws_secret_access_key=self.env["AWS_SECRET_ACCESS_KEY"])

    def bucket(self) -> str:
        name = f"lake-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name

    def keys(self, bucket: str) -> list[str]:
        found = self.client().list_objects_v2(Bucket=bucket).get("Contents", [])
        return [item["Key"] for item in found]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
