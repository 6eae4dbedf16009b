"""Benchmarks behind ``motiond bench NAME``.

A benchmark is a module ``motiond.bench.<name>`` with ``run(quick: bool) -> BenchResult``.
Figures are printed one per line for people, and with ``--json`` as one JSON object on the last
line for tools. Goals are printed beside the figures; a missed goal is reported, never hidden.
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys

from motiond.bench.timing import BenchResult, Goal, median_time

#: bench name → module. Later issues add theirs.
BENCHES: dict[str, str] = {
    "lola": "motiond.bench.lola",
    "director": "motiond.bench.director",
    "sim": "motiond.bench.sim",
    "kinematics": "motiond.bench.kinematics",
    "safety": "motiond.bench.safety",
    "cycle": "motiond.bench.cycle",
    "walk": "motiond.bench.walk",
    "optimise": "motiond.bench.optimise",
    "getup": "motiond.bench.getup",
    "api": "motiond.bench.api",
    "navigate": "motiond.bench.navigate",
    "kick": "motiond.bench.kick",
    "sequences": "motiond.bench.sequences",
}


def run_bench(name: str, *, quick: bool, as_json: bool, **options: object) -> int:
    """Run one benchmark, print its figures; exit status 0 (goals are reported, not enforced).

    ``options`` (e.g. ``model``) go to benchmarks that take them; one that does not is an error.
    """
    if name not in BENCHES:
        known = ", ".join(sorted(BENCHES)) or "none yet"
        print(f"motiond bench: unknown benchmark {name!r} (known: {known})", file=sys.stderr)
        return 2
    module = importlib.import_module(BENCHES[name])
    options = {key: value for key, value in options.items() if value}
    refused = [key for key in options if key not in inspect.signature(module.run).parameters]
    if refused:
        given = ", ".join(f"--{key}" for key in refused)
        print(f"motiond bench {name}: does not take {given}", file=sys.stderr)
        return 2
    model_errors: tuple[type[Exception], ...] = ()
    if "model" in options:
        # Imported only then: some benchmarks check that they never load MuJoCo.
        from naosim.binding import ModelContractError

        model_errors = (FileNotFoundError, ModelContractError)
    try:
        result: BenchResult = module.run(quick, **options)
    except model_errors as exc:
        # A --model file that is missing or not a NAO naosim can drive: said, not a traceback.
        print(f"motiond bench {name}: {exc}", file=sys.stderr)
        return 2
    for line in result.lines():
        print(line)
    if as_json:
        print(json.dumps(result.as_dict(), sort_keys=True))
    return 0


__all__ = ["BENCHES", "BenchResult", "Goal", "median_time", "run_bench"]
