"""Ray set-up: a local cluster on loopback by default, or an existing cluster by address."""

from __future__ import annotations

import logging
import os
import signal
import threading

from jobs.settings import RaySettings

log = logging.getLogger(__name__)


def ensure_ray(settings: RaySettings) -> None:
    """Start (or join) Ray once per process; a second call is a no-op. A SIGTERM handler the
    caller installed (a run's graceful stop) stays: `ray.init` puts in its own, which aborts."""
    import ray

    if ray.is_initialized():
        return
    on_main_thread = threading.current_thread() is threading.main_thread()
    caller_handler = signal.getsignal(signal.SIGTERM) if on_main_thread else None
    try:
        _init_ray(settings)
    finally:
        if callable(caller_handler):
            signal.signal(signal.SIGTERM, caller_handler)


def _init_ray(settings: RaySettings) -> None:
    import ray

    if settings.address:
        log.info("joining the Ray cluster at %s", settings.address)
        ray.init(address=settings.address, log_to_driver=False)
        return
    _stay_on_loopback()
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a local cluster needs no auth token
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(
        num_cpus=settings.num_cpus or max(2, os.cpu_count() or 2),
        include_dashboard=False,
        object_store_memory=settings.object_store_mb * 1024 * 1024,
        _node_ip_address="127.0.0.1",
        log_to_driver=False,
        configure_logging=False,
    )


def _stay_on_loopback() -> None:
    """A local cluster's node address is 127.0.0.1, never the machine's routable address (Ray then
    advertises and dials that address). Ray reads RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER once, when it
    is imported, so `_node_ip_address` alone is not enough: the variable is set for the processes
    Ray starts, and the constant for this one, where ray is already imported."""
    from ray._private import ray_constants

    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
