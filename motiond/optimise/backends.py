"""Where candidate runs execute: in this process, a process pool, or a Ray cluster.

Every backend maps one picklable function over a list of jobs and returns the results in job
order, so a search's result depends only on its seed, never on the backend or on which worker
finished first.
"""

from __future__ import annotations

import multiprocessing
import os
import socket
from collections.abc import Callable, Sequence
from typing import Any

from motiond.optimise.space import OptimiseError


class SerialBackend:
    """Runs every job here, one after another (the reference for speed-ups)."""

    name = "serial"
    workers = 1

    def map(self, fn: Callable[[Any], Any], jobs: Sequence[Any]) -> list[Any]:
        """``fn`` over ``jobs``, in order."""
        return [fn(job) for job in jobs]

    def close(self) -> None:
        """Nothing to release."""


class PoolBackend:
    """A process pool over this machine's cores (naosim is headless and lockstep)."""

    name = "pool"

    def __init__(self, workers: int | None = None) -> None:
        if workers is not None and workers < 1:
            raise OptimiseError(f"a pool needs at least one worker, got {workers}")
        self.workers = workers or os.cpu_count() or 1
        # fork keeps the start cheap; each job builds its own simulator and runtime.
        self._pool = multiprocessing.get_context("fork").Pool(self.workers)

    def map(self, fn: Callable[[Any], Any], jobs: Sequence[Any]) -> list[Any]:
        """``fn`` over ``jobs`` on the pool, results in job order."""
        return self._pool.map(fn, jobs, chunksize=1)

    def close(self) -> None:
        """Stop the workers."""
        self._pool.close()
        self._pool.join()


class RayBackend:
    """Ray tasks: a local Ray runtime (``address`` None) or an existing cluster to join.

    ``ray`` is an optional extra (``pip install 'motiond[ray]'``); a missing package or an
    unreachable address is an :class:`OptimiseError` raised here, before any work.
    """

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise OptimiseError(
                "Ray is not installed: pip install 'motiond[ray]' (or drop --ray)"
            ) from None
        if address is not None:
            _check_reachable(address)
        self._ray = ray
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None:
            options["num_cpus"] = workers or os.cpu_count() or 1
        else:
            options["address"] = address
        try:
            ray.init(**options)
        except Exception as error:  # Ray raises ConnectionError, RuntimeError, ValueError...
            target = address or "a local runtime"
            raise OptimiseError(f"cannot start Ray on {target}: {error}") from None
        self.workers = int(ray.cluster_resources().get("CPU", 1))
        self._remote: dict[Callable, Any] = {}

    def map(self, fn: Callable[[Any], Any], jobs: Sequence[Any]) -> list[Any]:
        """``fn`` over ``jobs`` as Ray tasks, results in job order."""
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(fn)
        return self._ray.get([remote.remote(job) for job in jobs])

    def close(self) -> None:
        """Leave the cluster (a local runtime stops)."""
        self._ray.shutdown()


def _check_reachable(address: str, timeout: float = 3.0) -> None:
    """Refuse a Ray address nobody answers on (ray.init would retry for minutes)."""
    if address == "auto":
        return
    target = address.removeprefix("ray://")
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise OptimiseError(f"a Ray address is HOST:PORT (or ray://HOST:PORT), got {address!r}")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as error:
        raise OptimiseError(f"no Ray cluster answers at {address}: {error}") from None


def make_backend(ray: str | bool | None = None, workers: int | None = None):
    """The backend a command line asks for: ``ray`` False/None → the pool (``workers`` 1 →
    serial), True → a local Ray runtime, a string → the Ray cluster at that address."""
    if ray is True or ray == "local":
        return RayBackend(None, workers)
    if isinstance(ray, str) and ray:
        return RayBackend(ray, workers)
    if workers == 1:
        return SerialBackend()
    return PoolBackend(workers)
