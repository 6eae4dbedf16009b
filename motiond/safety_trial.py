"""Safety trials in physics: naosim and the daemon's cycle in one process, in lockstep.

What ``motiond bench getup`` and the safety tests measure, one scenario per function, each
on naosim's NAO, a perturbed one (``motiond.walk_trial.perturbed_model``) or a NAO MJCF:

- :func:`getup_trial`: lying still on the front, the back or a side (a random start near the
  lying posture; on a side, the arms as the fall protection leaves them), the daemon's
  automatic get-up until it stands in the walk-ready posture;
- :func:`push_fall_trial`: standing or walking, a push hard enough to topple the robot: when
  the fall was detected, when the body first touched the floor, how fast the head met the
  floor, and the get-up after it;
- :func:`alarm_trial`: walking or standing with nothing wrong: fall alarms raised;
- :func:`startup_trial`: the daemon started under a standing robot: how far it moves;
- :func:`stand_current_trial`: the mean motor current of the walk's stand, plain, saving or high;
- :func:`first_step_trial`: how long a walk request waits for its first step from those stands.
"""

from __future__ import annotations

import math

import attrs
import mujoco
import numpy as np

from lola_io.joints import JOINT_INDEX
from motiond.runtime import Runtime
from motiond.walk_trial import Perturbation, WalkTrial, trial_sim
from naosim import postures
from naosim.impacts import Impact
from naosim.sim import NaoSim
from skills.safety import FallPhase
from skills.safety.fall import FallDirection
from skills.safety.protection import brace_for
from skills.walk import Walk

CYCLE = 0.012
#: When the push lands, s after the trial starts (the walk stands or walks by then).
PUSH_AT = 2.0
#: How long a get-up may take before the trial calls it failed, s.
GETUP_TIMEOUT = 20.0


def make_sim(
    seed: int, perturbation: Perturbation | None = None, model: str | None = None
) -> NaoSim:
    """naosim's NAO (a perturbed one, or the NAO MJCF ``model``) with sensor noise seeded by
    ``seed``."""
    return trial_sim(model=model, perturbation=perturbation, seed=seed)


@attrs.frozen
class GetUpResult:
    """One get-up: whether it stood, the time from lying still to standing (s), attempts."""

    side: str
    seed: int
    stood: bool
    seconds: float
    attempts: int
    fell_after: bool


#: The sides a get-up trial may start lying on.
LYING_SIDES = ("front", "back", "left", "right")


def lie_down(
    sim: NaoSim, side: str, rng: np.random.Generator, *, knees: float | None = None
) -> None:
    """Reset ``sim`` lying limp on ``side`` (one of :data:`LYING_SIDES`), a little off the
    nominal pose. On a side, the arms are where the fall protection's brace for that side
    leaves them and the knees are bent by ``knees`` rad (None: anywhere from straight to 1)."""
    if side not in LYING_SIDES:
        raise ValueError(f"side must be one of {LYING_SIDES}, got {side!r}")
    position = postures.lying() + rng.uniform(-0.1, 0.1, 25)
    if side in ("front", "back"):
        pitch = math.pi / 2 if side == "front" else -math.pi / 2
        rpy = (rng.uniform(-0.1, 0.1), pitch + rng.uniform(-0.05, 0.05), rng.uniform(-3, 3))
        sim.reset_pose(position, torso_rpy=rpy, stiffness=0.0, settle=1.0)
        return
    for name, angle in brace_for(FallDirection(side)).positions().items():
        position[JOINT_INDEX[name]] = angle + rng.uniform(-0.1, 0.1)
    bent = rng.uniform(0.0, 1.0)  # drawn either way: the start's turn below stays the same
    bent = bent if knees is None else knees
    for leg in "LR":
        position[JOINT_INDEX[f"{leg}KneePitch"]] = bent
        position[JOINT_INDEX[f"{leg}HipPitch"]] = position[JOINT_INDEX[f"{leg}AnklePitch"]] = (
            -bent / 2
        )
    roll = math.pi / 2 if side == "right" else -math.pi / 2
    rpy = (roll + rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1), rng.uniform(-3, 3))
    # Longer: a limp robot put on its side settles onto a shoulder and a hip.
    sim.reset_pose(position, torso_rpy=rpy, stiffness=0.0, settle=1.5)


def getup_trial(
    side: str,
    seed: int,
    perturbation: Perturbation | None = None,
    hold: float = 1.0,
    model: str | None = None,
) -> GetUpResult:
    """Lying on ``side`` (:data:`LYING_SIDES`), the daemon's automatic get-up; then ``hold``
    s standing."""
    sim = make_sim(seed, perturbation, model)
    lie_down(sim, side, np.random.default_rng(seed))
    runtime = Runtime()
    frame = sim.first_frame()
    start: float | None = None
    t = 0.0
    while t < GETUP_TIMEOUT:
        frame = sim.step(runtime.step(frame))
        t += CYCLE
        status = runtime.supervisor.status().getup
        if start is None and status.active:
            start = status.started
        if status.result in ("standing", "gave_up"):
            break
    status = runtime.supervisor.status().getup
    stood = status.result == "standing"
    seconds = (status.finished or t) - (start or 0.0) if stood else math.inf
    fell_after = False
    if stood:
        for _ in range(round(hold / CYCLE)):
            frame = sim.step(runtime.step(frame))
        fell_after = sim.truth().tilt > 0.5
    return GetUpResult(side, seed, stood and not fell_after, seconds, status.attempts, fell_after)


@attrs.frozen
class FallResult:
    """One push that toppled the robot: detection lead, protection, and the get-up after."""

    direction: str
    walking: bool
    detected_at: float | None
    impact_at: float | None
    protected: bool
    stood: bool
    #: The head's first touch of the floor before the get-up began (``naosim.impacts``), or
    #: None if it did not touch; ``head_watched`` is False for a model without a ``Head``.
    head: Impact | None = None
    head_watched: bool = False
    #: When the get-up after the fall reported standing (s since the trial began), or None.
    stood_at: float | None = None

    @property
    def getup_seconds(self) -> float | None:
        """Seconds from the push to standing again (the fall, the protection, the get-up with
        its retries), or None if it did not stand."""
        return None if self.stood_at is None else self.stood_at - PUSH_AT

    @property
    def lead(self) -> float | None:
        """Seconds between the fall's detection and the body's first touch of the floor."""
        if self.detected_at is None or self.impact_at is None:
            return None
        return self.impact_at - self.detected_at


_PUSH_DIRECTIONS = {"front": (1, 0), "back": (-1, 0), "left": (0, 1), "right": (0, -1)}


def push_fall_trial(
    direction: str,
    *,
    walking: bool,
    seed: int = 0,
    impulse: float = 7.0,
    perturbation: Perturbation | None = None,
    model: str | None = None,
    walk_speed: float = 0.2,
) -> FallResult:
    """Stand (or walk forwards at ``walk_speed`` m/s), push the torso towards ``direction``
    with ``impulse`` N s over 0.1 s, and follow the fall, the protection and the get-up (up to
    20 s)."""
    trial = WalkTrial(model=model, perturbation=perturbation, seed=seed)
    if walking:
        trial.walk(walk_speed)
    runtime = trial.runtime
    dx, dy = _PUSH_DIRECTIONS[direction]
    detected = impact = None
    protected = False
    trial.run(PUSH_AT)
    force = impulse / 0.1
    trial.push((force * dx, force * dy, 0.0), 0.1)
    has_head = mujoco.mj_name2id(trial.sim.model, mujoco.mjtObj.mjOBJ_BODY, "Head") >= 0
    impacts = trial.sim.watch_impacts("Head") if has_head else None
    while trial.t < PUSH_AT + GETUP_TIMEOUT:
        trial.step()
        status = runtime.supervisor.status()
        if status.getup.active:
            trial.sim.stop_watching()  # the get-up's own touches are not the fall's
        if detected is None and status.fall.phase is FallPhase.FALLING:
            detected = trial.t
        if detected is not None and not protected:
            protected = _running(runtime, "FallProtect")
        if impact is None and trial.sim.body_on_floor():
            impact = trial.t
        if impact is not None and status.getup.result in ("standing", "gave_up"):
            break
    getup = runtime.supervisor.status().getup
    stood = getup.result == "standing" and trial.truth.tilt < 0.5
    trial.sim.stop_watching()
    head = impacts.impact("Head") if impacts is not None else None
    stood_at = getup.finished if stood else None
    return FallResult(
        direction, walking, detected, impact, protected, stood, head, has_head, stood_at
    )


def _running(runtime: Runtime, task_type: str) -> bool:
    return any(v.type == task_type and v.state == "running" for v in runtime.director.view().tasks)


def alarm_trial(
    velocity: tuple[float, float, float],
    seconds: float,
    *,
    seed: int = 0,
    perturbation: Perturbation | None = None,
    model: str | None = None,
) -> tuple[int, bool]:
    """Walk at ``velocity`` (zero: stand) for ``seconds``: (fall alarms raised, truly fell)."""
    trial = WalkTrial(model=model, perturbation=perturbation, seed=seed)
    trial.walk(*velocity)
    alarms = 0
    phase = FallPhase.UPRIGHT
    for _ in range(round(seconds / CYCLE)):
        trial.step()
        now = trial.runtime.supervisor.status().fall.phase
        if now is FallPhase.FALLING and phase is not FallPhase.FALLING:
            alarms += 1
        phase = now
    return alarms, trial.fell


def stand_current_trial(
    saving: bool,
    seconds: float,
    *,
    high: bool = False,
    seed: int = 0,
    perturbation: Perturbation | None = None,
    model: str | None = None,
) -> tuple[float, float, float]:
    """Stand for ``seconds`` (saving or not; ``high``: asking for the high stand): (mean total
    motor current over the last ``seconds - 5`` s, A; lowest and highest torso height over
    them, m)."""
    trial = WalkTrial(model=model, perturbation=perturbation, seed=seed)
    trial.runtime.walk.energy.enabled = saving
    if high:
        trial.emit(Walk(high_stand=True))
    current, heights = [], []
    for i in range(round(seconds / CYCLE)):
        frame = trial.step()
        if i * CYCLE >= 5.0:
            current.append(float(frame.current.sum()))
            heights.append(float(trial.truth.torso_position[2]))
    return float(np.mean(current)), min(heights), max(heights)


def first_step_trial(
    high: bool,
    *,
    seed: int = 0,
    perturbation: Perturbation | None = None,
    model: str | None = None,
) -> float:
    """Stand 5 s (the saving stand, or the high stand if ``high``), then walk forwards at
    0.2 m/s: seconds from the request until the first step has ended (inf if it fell)."""
    trial = WalkTrial(model=model, perturbation=perturbation, seed=seed)
    trial.emit(Walk(high_stand=high))
    trial.run(5.0)
    trial.walk(0.2)
    asked = trial.t
    stood = trial.run(2.0, until=lambda t: t.status().step_count > 0)
    return trial.t - asked if stood and trial.status().step_count > 0 else math.inf


@attrs.frozen
class StartupResult:
    """A daemon started under a standing robot: the largest change of the torso's pitch (rad)
    and the deepest sink of its height (m) from the start, and where both ended."""

    lean: float
    sink: float
    end_lean: float
    end_sink: float
    fell: bool


def startup_trial(
    seconds: float,
    *,
    seed: int = 0,
    perturbation: Perturbation | None = None,
    model: str | None = None,
) -> StartupResult:
    """naosim's robot standing, held stiff at the standing posture by the controller before
    (as ``motiond sim --start standing`` is), and the daemon's cycle started on it."""
    sim = make_sim(seed, perturbation, model)
    sim.reset_pose(postures.standing())
    runtime = Runtime()
    frame = sim.first_frame()
    start = sim.truth()
    pitch, height = float(start.torso_rpy[1]), float(start.torso_position[2])
    lean = sink = 0.0
    for _ in range(round(seconds / CYCLE)):
        frame = sim.step(runtime.step(frame))
        truth = sim.truth()
        lean = max(lean, abs(float(truth.torso_rpy[1]) - pitch))
        sink = max(sink, height - float(truth.torso_position[2]))
    end = sim.truth()
    return StartupResult(
        lean,
        sink,
        abs(float(end.torso_rpy[1]) - pitch),
        height - float(end.torso_position[2]),
        end.tilt > 0.5,
    )
