"""Connecting to Ray: a cluster of N nodes on this machine (`--local N`),
an existing cluster (`--address`), or one started by `ray.init()`."""

import contextlib
import os

# This package, shipped to every worker by Ray (a cluster's machines need
# only Python and the binaries, not this checkout on their import path).
PACKAGE = os.path.dirname(os.path.abspath(__file__))

# A local node's object store: a match's tasks pass a few KiB of text, but
# a layered solve passes whole levels (5x5 with 3 walls: 134 MB); with 80 MB
# Ray spilled them to disk and the solve took 30 s instead of 18.
OBJECT_STORE_BYTES = 512 << 20


@contextlib.contextmanager
def connect(local=None, address=None):
    """Yields the worker CPUs the cluster offers; shuts down what it started."""
    import ray

    started = None
    if local is not None:
        from ray.cluster_utils import Cluster

        # The head only coordinates (no CPUs), so every task runs on a worker
        # node, as on a cluster of machines; all of it on 127.0.0.1.
        started = Cluster(initialize_head=True, head_node_args={
            "num_cpus": 0, "include_dashboard": False, "node_ip_address": "127.0.0.1",
            "object_store_memory": OBJECT_STORE_BYTES})
        for _ in range(local):
            started.add_node(num_cpus=1, node_ip_address="127.0.0.1",
                             object_store_memory=OBJECT_STORE_BYTES)
        ray.init(address=started.address, **_driver_options())
        started.wait_for_nodes()
    elif address is not None:
        ray.init(address=address, **_driver_options())
    else:
        ray.init(include_dashboard=False, **_driver_options())
    try:
        yield int(ray.cluster_resources().get("CPU", 0))
    finally:
        ray.shutdown()
        if started is not None:
            started.shutdown()


def _driver_options():
    return {"log_to_driver": False, "logging_level": "ERROR", "runtime_env": {"py_modules": [PACKAGE]}}
