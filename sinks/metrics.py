"""The lake's figures for `/metrics` on `interview serve`: per tenant, the inbox's depth and the
age of its oldest waiting window, how long drained windows waited (count and sum), windows
parked, memories written; and the model seconds of the runs. Read-only, one query each."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

import duckdb


@dataclass
class TenantFigures:
    inbox_depth: dict[str, int] = field(default_factory=dict)  # status → jobs not yet done
    oldest_waiting_seconds: float = 0.0
    drained: int = 0
    drain_seconds: float = 0.0
    parked_windows: int = 0
    parked_jobs: int = 0
    memories_written: int = 0


@dataclass
class LakeFigures:
    tenants: dict[str, TenantFigures]
    model_seconds: float
    runs: dict[str, int]  # status → runs


def lake_figures(con: duckdb.DuckDBPyConnection) -> LakeFigures:
    tenants: dict[str, TenantFigures] = {}

    def of(tenant: str) -> TenantFigures:
        return tenants.setdefault(tenant, TenantFigures())

    now = datetime.now(UTC)
    for tenant, status, count, oldest in con.execute(
            "SELECT tenant_id, status, count(*), min(received_at) FROM inbox "
            "WHERE status IN ('pending', 'processing') GROUP BY 1, 2").fetchall():
        figures = of(tenant)
        figures.inbox_depth[status] = int(count)
        if oldest is not None:
            figures.oldest_waiting_seconds = max(figures.oldest_waiting_seconds,
                                                 (now - oldest).total_seconds())
    for tenant, count, seconds, failed in con.execute(
            "SELECT tenant_id, count(*) FILTER (WHERE status = 'done'), "
            "coalesce(sum(epoch(updated_at) - epoch(received_at)) "
            "FILTER (WHERE status = 'done'), 0), "
            "count(*) FILTER (WHERE status = 'failed_permanent') FROM inbox GROUP BY 1").fetchall():
        figures = of(tenant)
        figures.drained, figures.drain_seconds = int(count), float(seconds)
        figures.parked_jobs = int(failed)
    for tenant, count in con.execute(
            "SELECT tenant_id, count(DISTINCT attempt_id) FROM parked WHERE status = 'parked' "
            "GROUP BY 1").fetchall():
        of(tenant).parked_windows = int(count)
    for tenant, count in con.execute(
            "SELECT tenant_id, coalesce(sum(memories_written), 0) FROM attempts "
            "GROUP BY 1").fetchall():
        of(tenant).memories_written = int(count)
    (model_seconds,) = con.execute(
        "SELECT coalesce(sum(TRY_CAST(json_extract(counts, '$.model_seconds') AS DOUBLE)), 0) "
        "FROM runs").fetchone()
    runs = dict(con.execute("SELECT status, count(*) FROM runs GROUP BY 1").fetchall())
    return LakeFigures(tenants, float(model_seconds), {k: int(v) for k, v in runs.items()})
