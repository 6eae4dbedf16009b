"""Judging one candidate gait in physics: one walk on one body, its figures and its cost.

A run is a :class:`motiond.walk_trial.WalkTrial` (naosim and the daemon's cycle in lockstep,
the same code ``motiond bench walk`` measures): stand 1 s, ask for the protocol's velocity,
let the walk accelerate for ``settle`` s, then measure ground truth until ``seconds``. The
figures are the benchmark's own kinds: speed along the request, falls, torso sway, motor
current, odometry error. Everything here is a plain function of its arguments (no clock, no
shared state), so a run gives the same figures in any process, on any backend.
"""

from __future__ import annotations

import math
from pathlib import Path

import attrs
import numpy as np

from skills.walk.params import GaitParameters

#: Samples are taken every this many seconds (8 cycles): enough for a sway figure, cheap.
SAMPLE = 0.096


@attrs.frozen
class Body:
    """A body candidates are judged on: naosim's NAO, a perturbed NAO (``perturbation`` is its
    seed, ``motiond.walk_trial.Perturbation``'s spreads) or a NAO MJCF file (``model``)."""

    perturbation: int | None = None
    model: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.perturbation is not None and self.model is not None:
            raise ValueError("a body is a perturbed NAO or a model file, not both")

    @property
    def label(self) -> str:
        """How the body is named in progress lines and records."""
        if self.model is not None:
            return Path(self.model).name
        if self.perturbation is not None:
            return f"perturbed #{self.perturbation}"
        return "naosim NAO"


@attrs.frozen
class Protocol:
    """The walk a candidate is judged on: the velocity asked (m/s, m/s, rad/s) and timing (s)."""

    forward: float = 0.4
    left: float = 0.0
    turn: float = 0.0
    settle: float = 3.0
    seconds: float = 8.0

    def __attrs_post_init__(self) -> None:
        if not all(math.isfinite(v) for v in (self.forward, self.left, self.turn)):
            raise ValueError("the protocol's velocity must be finite")
        if self.forward == self.left == self.turn == 0.0:
            raise ValueError("the protocol must ask for a motion")
        if not 0.0 < self.settle < self.seconds:
            raise ValueError("the protocol needs 0 < settle < seconds")

    @property
    def turning(self) -> bool:
        """A turn on the spot: judged by its turn rate, not a speed."""
        return self.forward == self.left == 0.0

    @property
    def target(self) -> float:
        """The asked translation speed (m/s), or turn rate (rad/s) when turning on the spot."""
        return abs(self.turn) if self.turning else math.hypot(self.forward, self.left)

    def describe(self) -> str:
        """E.g. ``(0.4, 0, 0)``."""
        return f"({self.forward:g}, {self.left:g}, {self.turn:g})"


@attrs.frozen
class Figures:
    """What one run measured (ground truth unless named otherwise)."""

    speed: float  # m/s along the asked direction (turning: rad/s in the asked sense) over the
    # measured part; 0 if it fell before
    fell: bool
    walked: float  # share of the run's time before a fall (1 without one)
    sway: float  # rad: standard deviation of torso pitch plus that of roll, measured part
    current: float  # A: mean of the summed motor currents, measured part
    odometry_error: float  # |odometry - truth| distance over the truth distance, measured part


@attrs.frozen
class CostWeights:
    """How the figures add up to one cost (lower is better); each term is recorded."""

    speed: float = 1.0  # per share of the asked speed missed (or overshot)
    fall: float = 2.0  # per fall, plus this per share of the run not walked
    sway: float = 1.0  # per rad of sway
    energy: float = 0.005  # per A of mean current
    odometry: float = 0.5  # per share of odometry error


def cost_terms(figures: Figures, protocol: Protocol, weights: CostWeights) -> dict[str, float]:
    """The cost's terms for one run (their sum is the run's cost)."""
    return {
        "speed": weights.speed * abs(1.0 - figures.speed / protocol.target),
        "fall": weights.fall * ((1.0 + (1.0 - figures.walked)) if figures.fell else 0.0),
        "sway": weights.sway * figures.sway,
        "energy": weights.energy * figures.current,
        "odometry": weights.odometry * min(figures.odometry_error, 1.0),
    }


def with_limits_for(gait: GaitParameters, *protocols: Protocol) -> GaitParameters:
    """``gait`` whose speed limits let every protocol's request through unclamped."""
    return attrs.evolve(
        gait,
        max_forward=max(gait.max_forward, *(p.forward for p in protocols)),
        max_backward=max(gait.max_backward, *(-p.forward for p in protocols)),
        max_left=max(gait.max_left, *(abs(p.left) for p in protocols)),
        max_turn=max(gait.max_turn, *(abs(p.turn) for p in protocols)),
    )


def run_walk(gait: GaitParameters, body: Body, seed: int, protocol: Protocol) -> Figures:
    """One judged walk (module docstring)."""
    from motiond.walk_trial import Perturbation, WalkTrial

    kwargs: dict = {"seed": seed, "gait": with_limits_for(gait, protocol)}
    if body.model is not None:
        kwargs["model"] = body.model
    elif body.perturbation is not None:
        kwargs["perturbation"] = Perturbation(seed=body.perturbation)
    trial = WalkTrial(**kwargs)
    if not trial.run(1.0):
        return Figures(0.0, True, 0.0, 0.0, 0.0, 1.0)
    trial.walk(protocol.forward, protocol.left, protocol.turn)
    start = trial.t
    heading = math.atan2(protocol.left, protocol.forward)
    first = None
    odometry_first = None
    tilts: list[tuple[float, float]] = []
    currents: list[float] = []
    turned = odometry_turned = 0.0  # unwrapped, over the measured part
    last = odometry_last = (0.0, 0.0, 0.0)
    sim = trial.sim
    while trial.t - start < protocol.seconds - 1e-9:
        if not trial.run(SAMPLE):
            break
        if trial.t - start < protocol.settle:
            continue
        x, y, yaw = trial.pose()
        odo = trial.status().odometry
        if first is None:
            first, odometry_first = (x, y, yaw), (odo.x, odo.y, odo.theta)
        else:
            turned += math.remainder(yaw - last[2], math.tau)
            odometry_turned += math.remainder(odo.theta - odometry_last[2], math.tau)
        last, odometry_last = (x, y, yaw), (odo.x, odo.y, odo.theta)
        rpy = trial.truth.torso_rpy
        tilts.append((float(rpy[0]), float(rpy[1])))
        currents.append(float(np.sum(sim.servos.current(sim.data))))
    walked = min(1.0, (trial.t - start) / protocol.seconds)
    if first is None or len(tilts) < 2:
        return Figures(0.0, trial.fell, walked if trial.fell else 1.0, 0.0, 0.0, 1.0)
    duration = (len(tilts) - 1) * SAMPLE
    truth = _displacement(first, last)
    odometry = _displacement(odometry_first, odometry_last)
    if protocol.turning:
        speed = math.copysign(1.0, protocol.turn) * turned / duration
        error = abs(odometry_turned - turned) / max(abs(turned), 0.1)
    else:
        c, s = math.cos(heading), math.sin(heading)
        speed = (c * truth[0] + s * truth[1]) / duration
        distance = math.hypot(*truth)
        error = math.hypot(odometry[0] - truth[0], odometry[1] - truth[1]) / max(distance, 0.05)
    roll, pitch = np.array(tilts).T
    return Figures(
        speed=float(speed),
        fell=trial.fell,
        walked=walked if trial.fell else 1.0,
        sway=float(np.std(roll) + np.std(pitch)),
        current=float(np.mean(currents)),
        odometry_error=float(error),
    )


def _displacement(a: tuple[float, float, float], b: tuple[float, float, float]) -> tuple:
    """From pose ``a`` to ``b`` in ``a``'s frame (x forward, y left)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    c, s = math.cos(a[2]), math.sin(a[2])
    return c * dx + s * dy, -s * dx + c * dy
