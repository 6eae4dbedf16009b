"""Timing helpers and the result type shared by every benchmark."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable

import attrs


def median_time(fn: Callable[[], object], *, repeat: int, number: int = 1) -> float:
    """Median wall time of ``number`` calls of ``fn``, per call, in seconds, over ``repeat`` runs.

    One untimed warm-up run comes first so caches and lazy imports do not count.
    """
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def paired_times(fns: list[Callable[[], object]], *, repeat: int) -> list[list[float]]:
    """Wall times (seconds) of one call of each of ``fns``, taken in turn ``repeat`` times.

    Interleaving keeps the samples of each round under the same machine conditions, so the
    difference of two figures stays meaningful on a shared, noisy machine. One untimed round
    comes first.
    """
    for fn in fns:
        fn()
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, out in zip(fns, samples, strict=True):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return samples


@attrs.frozen
class Goal:
    """A target for one figure: ``value <= limit`` (or ``>=`` when ``at_least``)."""

    limit: float
    at_least: bool = False

    def met(self, value: float) -> bool:
        """Whether ``value`` reaches the goal."""
        return value >= self.limit if self.at_least else value <= self.limit

    def describe(self) -> str:
        """The goal as text, e.g. ``<= 0.3``."""
        return f"{'>=' if self.at_least else '<='} {self.limit:g}"


@attrs.frozen
class BenchResult:
    """What a benchmark measured: named figures with units, and goals for some of them."""

    name: str
    figures: dict[str, float]
    units: dict[str, str] = attrs.field(factory=dict)
    goals: dict[str, Goal] = attrs.field(factory=dict)
    notes: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """Human-readable report, one figure per line."""
        out = [f"bench {self.name}"]
        for key, value in self.figures.items():
            unit = self.units.get(key, "")
            line = f"  {key:<28} {value:>12.4g} {unit}"
            goal = self.goals.get(key)
            if goal is not None:
                verdict = "met" if goal.met(value) else "NOT MET"
                line += f"   (goal {goal.describe()}: {verdict})"
            out.append(line)
        out.extend(f"  note: {note}" for note in self.notes)
        return out

    def as_dict(self) -> dict[str, object]:
        """The figures, plus ``bench`` and a ``goals_met`` map, for ``--json``."""
        # JSON has no infinity or NaN: a figure that is not a number (a sprint that fell) is null.
        figures = {k: (v if math.isfinite(v) else None) for k, v in self.figures.items()}
        data: dict[str, object] = {"bench": self.name, **figures}
        data["goals_met"] = {k: g.met(self.figures[k]) for k, g in self.goals.items()}
        return data
