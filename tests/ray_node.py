"""One Ray node on loopback, kept until this process gets SIGTERM; for the multi-node tests.

    python -m tests.ray_node head CPUS              prints the cluster's address
    python -m tests.ray_node worker ADDRESS CPUS    joins it

`ray start` cannot do this here: with multi-node enabled it swaps 127.0.0.1 for the machine's
routable address. This starts each node as Ray's own `cluster_utils.Cluster` does (a `Node` with
`node_ip_address=127.0.0.1`), one process per node, so a test can run a node in its own mount
namespace.
"""

from __future__ import annotations

import os
import signal
import sys


def main(argv: list[str]) -> None:
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # every address stays loopback
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    from ray._private.node import Node
    from ray._private.parameter import RayParams

    role = argv[0]
    params = RayParams(node_ip_address="127.0.0.1", num_cpus=int(argv[-1]), num_gpus=0,
                       object_store_memory=128 * 1024 * 1024, min_worker_port=0,
                       max_worker_port=0, include_dashboard=False)
    if role == "head":
        node = Node(params, head=True, shutdown_at_exit=True, spawn_reaper=True)
    else:
        params.update_if_absent(gcs_address=argv[1], include_log_monitor=False, node_manager_port=0)
        params.dashboard_agent_listen_port = None
        node = Node(params, head=False, shutdown_at_exit=True, spawn_reaper=True)
    print(node.gcs_address if role == "head" else node.node_id, flush=True)
    stop = []
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stop.append(True))
    while not stop:
        signal.pause()
    node.kill_all_processes(check_alive=False, allow_graceful=True)


if __name__ == "__main__":
    main(sys.argv[1:])
