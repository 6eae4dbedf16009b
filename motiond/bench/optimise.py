"""``motiond bench optimise``: how fast the gait search judges candidates, per backend.

A fixed small search (8 candidates x 3 generations, ``--quick`` 4 x 2; the default searched
parameters; 4 s walks at 0.3 m/s on naosim's NAO) runs three times from the same seed: in this
process (serial), on the process pool over every core, and on a local Ray runtime. Each is
timed without its start-up (pool fork, Ray init: reported apart); the three must end with the
same best gait, which the benchmark checks.

- ``evaluations_per_s_serial`` / ``_pool`` / ``_ray``: judged walks per second.
- ``speedup_vs_serial``: pool over serial (goal: at least 0.8 x the cores).
- ``best_forward_mps``: the best candidate's truth speed in that short search (the figure of a
  real search is ``motiond bench walk --gait FILE`` on its result).
"""

from __future__ import annotations

import os
import time

from motiond.bench.timing import BenchResult, Goal


def _search(backend, quick: bool):
    from motiond.optimise import Protocol, Search, SearchConfig, SearchSpace
    from skills.walk import load_gait

    config = SearchConfig(
        SearchSpace.of(),
        load_gait(),
        (Protocol(0.3, settle=1.5, seconds=4.0),),
        generations=2 if quick else 3,
        population=4 if quick else 8,
        seed=7,
    )
    started = time.perf_counter()
    result = Search(config, backend).run()
    seconds = time.perf_counter() - started
    return result, config.generations * config.evaluations / seconds


def run(quick: bool = False) -> BenchResult:
    """Time the fixed search on each backend (module docstring)."""
    from motiond.optimise import PoolBackend, RayBackend, SerialBackend

    cores = os.cpu_count() or 1
    serial, serial_rate = _search(SerialBackend(), quick)
    started = time.perf_counter()
    pool = PoolBackend(cores)
    pool_start = time.perf_counter() - started
    try:
        pooled, pool_rate = _search(pool, quick)
    finally:
        pool.close()
    figures = {
        "evaluations_per_s_serial": serial_rate,
        "evaluations_per_s_pool": pool_rate,
        "speedup_vs_serial": pool_rate / serial_rate,
        "pool_start_s": pool_start,
        "cores": float(cores),
        "best_forward_mps": pooled.best.speed,
    }
    notes = [f"{cores} cores; same seed on every backend"]
    same = [serial.best.values == pooled.best.values]
    try:
        started = time.perf_counter()
        ray = RayBackend(None, cores)
        figures["ray_start_s"] = time.perf_counter() - started
    except Exception as error:  # no Ray installed, or it cannot start here
        notes.append(f"ray: not run ({error})")
    else:
        try:
            rayed, ray_rate = _search(ray, quick)
        finally:
            ray.close()
        figures["evaluations_per_s_ray"] = ray_rate
        same.append(serial.best.values == rayed.best.values)
    figures["same_result_every_backend"] = float(all(same))
    return BenchResult(
        name="optimise",
        figures=figures,
        units={
            "evaluations_per_s_serial": "walks/s",
            "evaluations_per_s_pool": "walks/s",
            "evaluations_per_s_ray": "walks/s",
            "speedup_vs_serial": "x",
            "pool_start_s": "s",
            "ray_start_s": "s",
            "cores": "",
            "best_forward_mps": "m/s",
            "same_result_every_backend": "",
        },
        goals={
            "speedup_vs_serial": Goal(0.8 * cores, at_least=True),
            "same_result_every_backend": Goal(1.0, at_least=True),
        },
        notes=tuple(notes),
    )
