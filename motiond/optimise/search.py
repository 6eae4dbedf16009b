"""The search: CMA-ES over a gait's parameters, every candidate judged in physics.

CMA-ES comes from ``cma`` (Hansen's reference implementation): it is the algorithm UT Austin
Villa used for their walk, it handles bounds, it pickles (so a search checkpoints and resumes
exactly), and it is one small pure-Python package; optuna's CMA-ES sampler would bring a
study database and a trial model this loop does not need.

Each generation asks CMA-ES for ``population`` points of the unit cube, runs every candidate
on every body with every seed (``motiond.optimise.evaluate``), and tells CMA-ES the mean cost.
The state after each generation is written to the checkpoint (atomically), so an interrupted
search resumes where it stopped and ends exactly as an uninterrupted one would.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from motiond.optimise.evaluate import (
    Body,
    CostWeights,
    Figures,
    Protocol,
    cost_terms,
    run_walk,
    with_limits_for,
)
from motiond.optimise.space import OptimiseError, SearchSpace
from skills.walk.params import GaitParameters


def _positive(name: str, minimum: int) -> Callable[[Any, Any, Any], None]:
    def check(instance: Any, attribute: Any, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise OptimiseError(f"{name} must be a whole number >= {minimum}, got {value!r}")

    return check


def _not_empty(instance: Any, attribute: Any, value: Any) -> None:
    if not value:
        raise OptimiseError(f"a search needs at least one of {attribute.name}")


@attrs.frozen
class SearchConfig:
    """Everything that decides a search's result (and its checkpoint's fingerprint)."""

    space: SearchSpace
    base: GaitParameters
    #: The walks each candidate is judged on (each on every body with every seed).
    protocols: tuple[Protocol, ...] = attrs.field(default=(Protocol(),), validator=_not_empty)
    bodies: tuple[Body, ...] = attrs.field(default=(Body(),), validator=_not_empty)
    seeds: tuple[int, ...] = attrs.field(default=(0,), validator=_not_empty)
    generations: int = attrs.field(default=20, validator=_positive("generations", 1))
    population: int = attrs.field(default=8, validator=_positive("population", 2))
    sigma: float = 0.2  # CMA-ES's first step, in the unit cube
    seed: int = attrs.field(default=1, validator=_positive("seed", 0))
    weights: CostWeights = attrs.field(factory=CostWeights)

    @property
    def runs(self) -> int:
        """Walks judging one candidate."""
        return len(self.protocols) * len(self.bodies) * len(self.seeds)

    @property
    def evaluations(self) -> int:
        """Walks run per generation."""
        return self.population * self.runs

    def fingerprint(self) -> str:
        """A digest of the config: a checkpoint resumes only the search that wrote it."""
        return hashlib.sha256(repr(self).encode()).hexdigest()[:16]


@attrs.frozen
class Candidate:
    """One judged gait: its searched values, mean cost, mean cost terms and figures per run."""

    values: dict[str, float]
    cost: float
    terms: dict[str, float]
    figures: tuple[Figures, ...]
    #: Mean truth speed per judged walk (m/s, or rad/s for a turn on the spot).
    speeds: tuple[float, ...] = ()

    @property
    def speed(self) -> float:
        """Mean truth speed of the first judged walk (m/s; rad/s for a turn)."""
        return self.speeds[0] if self.speeds else statistics.fmean(f.speed for f in self.figures)

    @property
    def falls(self) -> int:
        """Runs that fell."""
        return sum(f.fell for f in self.figures)


@attrs.frozen
class Generation:
    """One generation's outcome (``seconds`` is wall time, for progress only)."""

    index: int
    best: Candidate
    median_cost: float
    evaluations: int
    seconds: float


@attrs.frozen
class SearchResult:
    """The search's history and the best candidate over all of it."""

    config: SearchConfig
    history: tuple[Generation, ...]
    best: Candidate

    def gait(self) -> GaitParameters:
        """The best gait: the base (with the limits its walks were judged at) and the best
        searched values."""
        base = with_limits_for(self.config.base, *self.config.protocols)
        return attrs.evolve(base, **self.best.values)


def evaluate_job(job: tuple) -> tuple[Figures, dict[str, float]]:
    """One run of one candidate (picklable, for any backend): figures and cost terms."""
    values, body, seed, protocol, weights = job
    gait = GaitParameters.from_mapping(values, "candidate")
    figures = run_walk(gait, body, seed, protocol)
    return figures, cost_terms(figures, protocol, weights)


class Search:
    """A CMA-ES search (module docstring); ``backend`` runs the walks (``backends.py``)."""

    def __init__(self, config: SearchConfig, backend: Any, checkpoint: Path | None = None):
        self.config = config
        self.backend = backend
        self.checkpoint = Path(checkpoint) if checkpoint is not None else None
        self._base = with_limits_for(config.base, *config.protocols)
        self._es, self._history, self._best = self._resume() or self._fresh()

    def _fresh(self):
        import cma

        options = {
            "bounds": [0.0, 1.0],
            "popsize": self.config.population,
            # cma draws a random seed for 0; seeds are offset so that 0 is a seed like any.
            "seed": self.config.seed + 1,
            "verbose": -9,
        }
        x0 = self.config.space.to_unit(self._base)
        return cma.CMAEvolutionStrategy(list(x0), self.config.sigma, options), [], None

    def _resume(self):
        if self.checkpoint is None or not self.checkpoint.exists():
            return None
        try:
            state = pickle.loads(self.checkpoint.read_bytes())
        except Exception as error:
            raise OptimiseError(f"cannot read the checkpoint {self.checkpoint}: {error}") from None
        if not isinstance(state, dict) or "es" not in state:
            raise OptimiseError(f"{self.checkpoint} is not a search checkpoint")
        if state.get("fingerprint") != self.config.fingerprint():
            raise OptimiseError(
                f"the checkpoint {self.checkpoint} belongs to another search "
                "(other parameters, bodies, budget or seed); remove it or name another"
            )
        return state["es"], list(state["history"]), state["best"]

    @property
    def history(self) -> tuple[Generation, ...]:
        """Generations done so far (resumed ones included)."""
        return tuple(self._history)

    def run(
        self,
        progress: Callable[[Generation, Candidate], None] | None = None,
        *,
        stop_after: int | None = None,
    ) -> SearchResult:
        """Run the remaining generations (at most ``stop_after`` of them in this call)."""
        done = 0
        while len(self._history) < self.config.generations:
            if stop_after is not None and done >= stop_after:
                break
            generation = self._generation(len(self._history))
            self._history.append(generation)
            if self._best is None or generation.best.cost < self._best.cost:
                self._best = generation.best
            self._save()
            done += 1
            if progress is not None:
                progress(generation, self._best)
        if self._best is None:
            raise OptimiseError("the search has not run a generation")
        return SearchResult(self.config, tuple(self._history), self._best)

    def _generation(self, index: int) -> Generation:
        config = self.config
        started = time.perf_counter()  # wall time for the progress line only
        points = self._es.ask()
        base = self._base.to_mapping()
        candidates = [config.space.values(x) for x in points]
        jobs = [
            ({**base, **values}, body, seed, protocol, config.weights)
            for values in candidates
            for protocol in config.protocols
            for body in config.bodies
            for seed in config.seeds
        ]
        results = self.backend.map(evaluate_job, jobs)
        runs = config.runs
        judged = []
        per_walk = len(config.bodies) * len(config.seeds)
        for i, values in enumerate(candidates):
            mine = results[i * runs : (i + 1) * runs]
            terms = {key: statistics.fmean(t[key] for _, t in mine) for key in mine[0][1]}
            speeds = tuple(
                statistics.fmean(f.speed for f, _ in mine[k : k + per_walk])
                for k in range(0, runs, per_walk)
            )
            judged.append(
                Candidate(values, sum(terms.values()), terms, tuple(f for f, _ in mine), speeds)
            )
        costs = [c.cost for c in judged]
        self._es.tell(points, costs)
        best = min(judged, key=lambda c: c.cost)
        return Generation(
            index, best, statistics.median(costs), len(jobs), time.perf_counter() - started
        )

    def _save(self) -> None:
        if self.checkpoint is None:
            return
        state = {
            "fingerprint": self.config.fingerprint(),
            "es": self._es,
            "history": self._history,
            "best": self._best,
        }
        partial = self.checkpoint.with_name(self.checkpoint.name + ".partial")
        partial.write_bytes(pickle.dumps(state))
        os.replace(partial, self.checkpoint)
