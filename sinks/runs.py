"""The `runs` table: one row per run (or submit), opened when it starts and closed with its counts."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import duckdb
import orjson

from sinks.lake import records, write_transaction
from sinks.tables import RUNS, insert

MAX_ERRORS_KEPT = 200


def new_run_id() -> str:
    return "run_" + datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ_") + uuid.uuid4().hex[:8]


def start_run(con: duckdb.DuckDBPyConnection, run_id: str, kind: str, backend: str,
              prompt_version: str) -> None:
    """Open the run record; `finish_run` names the model, known once its engine has loaded.

    Runs still `running` become `abandoned`: the caller holds the lake's writer lock, so any
    earlier run that never finished was killed (its process let the lock go when it died)."""
    def write(con) -> None:
        con.execute("UPDATE runs SET status = 'abandoned', finished_at = ? WHERE status = 'running' "
                    "AND kind <> 'serve'", [datetime.now(UTC)])
        insert(con, RUNS, [{
            "run_id": run_id, "kind": kind, "started_at": datetime.now(UTC), "finished_at": None,
            "status": "running", "backend": backend, "model": None,
            "prompt_version": prompt_version, "counts": None, "errors": None,
        }])

    write_transaction(con, write)


def finish_run(con: duckdb.DuckDBPyConnection, run_id: str, status: str, model: str,
               counts: dict, errors: list) -> None:
    """Close the run record, naming the model its engine reported."""
    write_transaction(con, lambda con: con.execute(
        "UPDATE runs SET finished_at = now(), status = ?, model = ?, counts = ?, errors = ? "
        "WHERE run_id = ?",
        [status, model, orjson.dumps(counts).decode(),
         orjson.dumps(errors[:MAX_ERRORS_KEPT]).decode(), run_id],
    ))


def recent_runs(con: duckdb.DuckDBPyConnection, limit: int = 5) -> list[dict]:
    cursor = con.execute(
        "SELECT run_id, kind, status, started_at FROM runs ORDER BY started_at DESC LIMIT ?", [limit])
    return records(cursor)
