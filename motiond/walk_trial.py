"""Walking trials in physics: naosim and the daemon's cycle in one process, in lockstep.

The benchmark of record for the walk (``motiond bench walk``) runs many short trials; the
socket adds nothing to what is measured there (``tests/runtime/test_walk_e2e.py`` and the demo
walk over a real LoLA socket), so a trial steps ``Runtime.step`` and ``NaoSim.step`` directly:
the same frames, the same code, ten to twenty times faster than real time.

A trial's body is naosim's NAO, any NAO MJCF (``model``), or a perturbed NAO
(:func:`perturbed_model`: masses, centres of mass, servo gains and damping, floor friction
and the actuation delay off by a few percent), so a walk tuned to one model's quirks shows.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import attrs
import mujoco
import numpy as np

from lola_io.frames import ActuatorFrame
from motiond.runtime import Runtime
from motiond.simulated import start_pose
from naosim.binding import load_model_file
from naosim.model_builder import build_spec
from naosim.sim import NaoSim
from skills.walk import Walk
from skills.walk.odometry import along

__all__ = ["Perturbation", "WalkTrial", "along", "perturbed_model", "trial_sim"]

#: The behaviour name and priority trials emit with.
EMITTER = "trial"
PRIORITY = 1.0


@attrs.frozen
class Perturbation:
    """How far a perturbed body is from the nominal NAO (all relative spreads are ±)."""

    seed: int
    mass: float = 0.05  # relative, per link
    com: float = 0.005  # m, per link and axis
    kp: float = 0.10  # relative, servo gain
    damping: float = 0.10  # relative, joint damping
    friction: tuple[float, float] = (0.7, 1.0)  # floor friction range
    delay: tuple[int, int] = (2, 4)  # actuation delay range, cycles


def perturbed_model(p: Perturbation, *, ball: bool = False) -> tuple[mujoco.MjModel, int]:
    """A randomly perturbed NAO (``p.seed`` decides; with an SPL ball if ``ball``) and the
    actuation delay to use."""
    rng = np.random.default_rng(p.seed)
    spec = build_spec(ball=ball)
    for body in spec.bodies:
        if body.name in ("world", "ball") or body.mass <= 0.0:
            continue
        body.mass = body.mass * (1.0 + rng.uniform(-p.mass, p.mass))
        body.ipos = [c + rng.uniform(-p.com, p.com) for c in body.ipos]
    for actuator in spec.actuators:
        actuator.gainprm[0] = actuator.gainprm[0] * (1.0 + rng.uniform(-p.kp, p.kp))
        actuator.biasprm[1] = -actuator.gainprm[0]
    for joint in spec.joints:
        if joint.type == mujoco.mjtJoint.mjJNT_HINGE:
            joint.damping = [joint.damping[0] * (1.0 + rng.uniform(-p.damping, p.damping)), 0, 0]
    for geom in spec.geoms:
        if geom.name == "floor":
            geom.friction = [rng.uniform(*p.friction), *list(geom.friction)[1:]]
    delay = int(rng.integers(p.delay[0], p.delay[1] + 1))
    return spec.compile(), delay


def trial_sim(
    *,
    model: str | Path | mujoco.MjModel | None = None,
    perturbation: Perturbation | None = None,
    seed: int = 0,
    ball: bool = False,
) -> NaoSim:
    """naosim's NAO, a NAO MJCF (file or compiled), or a perturbed NAO with its delay; naosim's
    NAO and a perturbed one get an SPL ball if ``ball``."""
    delay = 3
    if perturbation is not None:
        model, delay = perturbed_model(perturbation, ball=ball)
    elif isinstance(model, str | Path):
        model = load_model_file(model)
    if model is None:
        return NaoSim(seed=seed, delay_cycles=delay, ball=ball)
    return NaoSim(model, seed=seed, delay_cycles=delay)


def trial_bodies(model: str | None, perturb: int) -> list[dict]:
    """The bodies a kick or safety benchmark runs on, as trial keyword arguments: the NAO MJCF
    ``model`` alone, or naosim's NAO and ``perturb`` perturbed ones."""
    if model:
        return [{"model": model}]
    return [{}] + [{"perturbation": Perturbation(seed=k + 1)} for k in range(perturb)]


def truth_robot_pose(truth) -> tuple[float, float, float]:
    """Ground truth of NAOqi's robot position (``LegOdometry.robot``): the middle of the two
    soles, x, y (m), and the torso's heading (rad). What walking to a pose moves."""
    x, y = (truth.left_sole_position[:2] + truth.right_sole_position[:2]) / 2
    return float(x), float(y), float(truth.torso_rpy[2])


class WalkTrial:
    """One robot standing in StandInit, held by a walk from its first cycle.

    ``model``: an MJCF file (see ``naosim.binding``) or a compiled model; ``perturbation``:
    build a perturbed NAO instead. ``seed`` seeds the sensor noise; ``ball`` adds an SPL ball.
    """

    def __init__(
        self,
        *,
        model: str | Path | mujoco.MjModel | None = None,
        perturbation: Perturbation | None = None,
        seed: int = 0,
        gait=None,
        ball: bool = False,
    ) -> None:
        self.sim = trial_sim(model=model, perturbation=perturbation, seed=seed, ball=ball)
        self.sim.reset_pose(start_pose("StandInit"))
        self.runtime = Runtime()
        if gait is not None:
            self.runtime.walk.set_gait(gait)
        self._behaviour = self.runtime.emitter(EMITTER)
        self._behaviour.emit(Walk(), priority=PRIORITY)
        self._frame = self.sim.first_frame()
        self.fell = False
        #: The last actuator frame the daemon sent.
        self.command: ActuatorFrame | None = None
        self.fell_at: float | None = None
        self.truth = self.sim.truth()

    @property
    def t(self) -> float:
        """Simulated time since the trial started, s."""
        return self.sim.time

    def walk(self, forward: float = 0.0, left: float = 0.0, turn: float = 0.0) -> None:
        """Ask the walk for this velocity from the next cycle on."""
        self._behaviour.emit(Walk(forward, left, turn), priority=PRIORITY)

    def emit(self, task: object, priority: float = PRIORITY) -> None:
        """Emit any task from the trial's behaviour (a kick above the walk, say)."""
        self._behaviour.emit(task, priority=priority)

    def withdraw(self, task_type: type) -> None:
        """Withdraw the trial's behaviour's task of ``task_type``."""
        self._behaviour.emit_none(task_type)

    def place_ball_ahead(self, x: float, y: float) -> float:
        """Put the ball at rest at (``x``, ``y``) (m) in the robot's frame: from the middle of
        the soles, along the torso's heading; that heading (rad)."""
        truth = self.truth
        middle = (truth.left_sole_position + truth.right_sole_position) / 2.0
        heading = float(truth.torso_rpy[2])
        c, s = math.cos(heading), math.sin(heading)
        self.sim.place_ball(float(middle[0] + c * x - s * y), float(middle[1] + s * x + c * y))
        return heading

    def stop(self) -> None:
        """Withdraw the walk (it brings the feet together and stands)."""
        self._behaviour.emit_none(Walk)

    def push(self, force: tuple[float, float, float], duration: float) -> None:
        """Push the torso (world-frame force, N) for ``duration`` s."""
        self.sim.push(force, duration)

    def status(self):
        """The walk's state (``skills.walk.WalkStatus``)."""
        return self.runtime.walk.status()

    def run(self, seconds: float, until: Callable[[WalkTrial], bool] | None = None) -> bool:
        """Step for ``seconds`` (or until ``until(self)``); False once the robot has fallen."""
        end = self.t + seconds - 1e-9
        while self.t < end and not self.fell:
            self.step()
            if not self.fell and until is not None and until(self):
                break
        return not self.fell

    def step(self):
        """One cycle (whether the robot has fallen or not); the sensor frame it read."""
        self.command = self.runtime.step(self._frame)
        self._frame = self.sim.step(self.command)
        self.truth = self.sim.truth()
        if self.truth.fallen and not self.fell:
            self.fell, self.fell_at = True, self.t
        return self._frame

    def pose(self) -> tuple[float, float, float]:
        """Ground truth of the torso: x, y (m) and heading (rad)."""
        t = self.truth
        return float(t.torso_position[0]), float(t.torso_position[1]), float(t.torso_rpy[2])

    def robot_pose(self) -> tuple[float, float, float]:
        """Ground truth of the robot position (:func:`truth_robot_pose`)."""
        return truth_robot_pose(self.truth)
