"""`GET /metrics` of `interview serve`, in the Prometheus text format (`prometheus_client`).

What this process counted since it started (windows accepted per tenant, refused per tenant and
reason, submit latency), and what the lake holds at scrape time (per tenant: the inbox's depth
and its oldest waiting window, how long drained windows waited, parked windows, memories
written; the runs' model seconds). A key with `read` sees its own tenant's series, an admin key
every tenant's (as the other reads of the server).
"""

from __future__ import annotations

import threading
from collections import Counter

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    SummaryMetricFamily,
)

from sinks.metrics import LakeFigures

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# What a refusal's status says, as a label (contract §1.1's rows).
REASONS = {400: "bad_request", 401: "unauthenticated", 403: "forbidden", 404: "not_found",
           408: "body_timeout", 409: "refused_permanent", 413: "too_large", 422: "invalid",
           500: "server_error", 503: "unavailable", 504: "interview_timeout"}


def reason_of(status: int) -> str:
    return REASONS.get(status, str(status))


class ServerMetrics:
    """The counters of one server process; `exposition` renders them with the lake's figures
    for one caller's tenants."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.accepted: Counter = Counter()  # tenant → windows
        self.rejected: Counter = Counter()  # (tenant or "", reason) → requests
        self.process = CollectorRegistry(auto_describe=True)
        self.submit_seconds = Histogram(
            "interview_submit_seconds", "Time to answer a submit request (accepted or refused)",
            registry=self.process, buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10))

    def accept(self, tenant: str) -> None:
        with self._lock:
            self.accepted[tenant] += 1

    def reject(self, tenant: str | None, status: int) -> None:
        with self._lock:
            self.rejected[(tenant or "", reason_of(status))] += 1

    def exposition(self, figures: LakeFigures | None, tenants: set[str] | None) -> bytes:
        """The text format for a caller who may see `tenants` (None: every tenant)."""
        registry = CollectorRegistry(auto_describe=False)
        registry.register(_Scoped(self, figures, tenants))
        return generate_latest(registry)


class _Scoped:
    def __init__(self, metrics: ServerMetrics, figures: LakeFigures | None,
                 tenants: set[str] | None) -> None:
        self.metrics, self.figures, self.tenants = metrics, figures, tenants

    def _seen(self, tenant: str) -> bool:
        return self.tenants is None or tenant in self.tenants

    def collect(self):
        yield from self.metrics.process.collect()
        with self.metrics._lock:
            accepted = dict(self.metrics.accepted)
            rejected = dict(self.metrics.rejected)
        family = CounterMetricFamily("interview_windows_accepted",
                                     "Windows accepted into the inbox (or interviewed inline)",
                                     labels=["tenant"])
        for tenant, count in sorted(accepted.items()):
            if self._seen(tenant):
                family.add_metric([tenant], count)
        yield family
        family = CounterMetricFamily("interview_windows_rejected",
                                     "Submit requests refused, by reason (tenant empty before "
                                     "the key was known)", labels=["tenant", "reason"])
        for (tenant, reason), count in sorted(rejected.items()):
            if self._seen(tenant):
                family.add_metric([tenant, reason], count)
        yield family
        if self.figures is None:
            return
        yield from self._lake()

    def _lake(self):
        figures = self.figures
        tenants = {t: f for t, f in sorted(figures.tenants.items()) if self._seen(t)}
        depth = GaugeMetricFamily("interview_inbox_depth", "Pushed windows waiting in the inbox",
                                  labels=["tenant", "status"])
        oldest = GaugeMetricFamily("interview_inbox_oldest_age_seconds",
                                   "Age of the oldest window waiting in the inbox",
                                   labels=["tenant"])
        drain = SummaryMetricFamily("interview_inbox_drain_seconds",
                                    "From accepted to committed, for drained windows",
                                    labels=["tenant"])
        parked = GaugeMetricFamily("interview_parked_windows",
                                   "Windows parked after their retry budget (`interview retry`)",
                                   labels=["tenant", "way"])
        memories = CounterMetricFamily("interview_memories_written", "Memories written",
                                       labels=["tenant"])
        for tenant, f in tenants.items():
            for status in ("pending", "processing"):
                depth.add_metric([tenant, status], f.inbox_depth.get(status, 0))
            oldest.add_metric([tenant], f.oldest_waiting_seconds)
            drain.add_metric([tenant], count_value=f.drained, sum_value=f.drain_seconds)
            parked.add_metric([tenant, "disk"], f.parked_windows)
            parked.add_metric([tenant, "pushed"], f.parked_jobs)
            memories.add_metric([tenant], f.memories_written)
        yield from (depth, oldest, drain, parked, memories)
        if self.tenants is None:  # runs are not a tenant's: admin keys only
            yield CounterMetricFamily("interview_model_seconds", "Model seconds of every run",
                                      value=figures.model_seconds)
            runs = GaugeMetricFamily("interview_runs", "Runs in the lake by status",
                                     labels=["status"])
            for status, count in sorted(figures.runs.items()):
                runs.add_metric([status], count)
            yield runs
