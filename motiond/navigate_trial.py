"""Navigation trials in physics (naosim and the daemon's cycle in lockstep, as
``motiond.walk_trial``): walking to a pose, and walking a list of footsteps, judged by the
simulator's ground truth.

- :func:`move_to_trial`: stand, then ``WalkTo(x, y, theta)``; the truth robot position (the
  middle of the soles, facing the torso's heading: NAOqi's robot frame, which moveTo moves)
  reached in the start's frame against the target, the time taken, and how well the walk's
  next position (NAOqi's getNextRobotPosition: the robot position once the step under way
  has ended) predicted the odometry's robot position at the end of each step.
- :func:`footsteps_trial`: stand, then ``Footsteps(steps)``; every step's truth landing (the
  stepping foot at rest, in the frame of the other foot at rest) against the planned,
  clipped one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from motiond.api.state import next_position
from motiond.walk_trial import PRIORITY, Perturbation, WalkTrial
from skills.walk import Footstep, Footsteps, Walk, WalkTo
from skills.walk.odometry import Pose2D, wrap_angle

#: Seconds of standing before a trial's move starts.
SETTLE = 1.0


@attrs.frozen
class MoveResult:
    """A walk to a pose: the truth errors (m, deg), the time (s), the straight-line distance
    (m), the next-position errors (m, one per sampled step), and whether it fell or gave up."""

    target: tuple[float, float, float]
    error_m: float
    error_deg: float
    seconds: float
    distance: float
    next_errors: tuple[float, ...]
    fell: bool
    reached: bool


@attrs.frozen
class FootstepsResult:
    """A list of footsteps: each step's truth landing error (m, deg), and whether it fell."""

    errors_m: tuple[float, ...]
    errors_deg: tuple[float, ...]
    fell: bool


def _relative(start: tuple[float, float, float], end: tuple[float, float, float]) -> Pose2D:
    return Pose2D(*start).inverse().compose(Pose2D(*end))


def move_to_trial(
    target: tuple[float, float, float],
    seed: int = 0,
    perturbation: Perturbation | None = None,
    timeout: float = 40.0,
) -> MoveResult:
    """Walk to ``target`` (relative to the robot) and judge the result (module docstring)."""
    trial = WalkTrial(seed=seed, perturbation=perturbation)
    trial.run(SETTLE)
    runtime, walk = trial.runtime, trial.runtime.walk
    behaviour = runtime.emitter("trial")
    behaviour.emit_none(Walk)
    behaviour.emit(WalkTo(*target), priority=PRIORITY)
    start, t0 = trial.robot_pose(), trial.t
    next_errors: list[float] = []
    predicted: tuple[int, Pose2D] | None = None
    sample_at = t0 + 0.5
    while trial.t - t0 < timeout and not trial.fell:
        trial.step()
        move = walk.move_status()
        if move.result is not None and trial.t - t0 > 0.1:
            break
        steps = walk.generator.step_count
        if predicted is not None and steps != predicted[0]:
            # The step that was under way has ended: where did the odometry say it got to?
            p, o = predicted[1], walk.odometry.robot
            next_errors.append(math.hypot(o.x - p.x, o.y - p.y))
            predicted = None
        if predicted is None and trial.t >= sample_at and walk.generator.step_remaining > 0.05:
            predicted = (steps, next_position(runtime))
            sample_at = trial.t + 0.7
    seconds = trial.t - t0
    got = _relative(start, trial.robot_pose())
    want = Pose2D(*target)
    turn = wrap_angle(got.theta - want.theta)
    return MoveResult(
        target,
        math.hypot(got.x - want.x, got.y - want.y),
        math.degrees(abs(turn)),
        seconds,
        math.hypot(target[0], target[1]),
        tuple(next_errors),
        trial.fell,
        walk.move_status().result == "reached",
    )


def _foot(truth, left: bool) -> Pose2D:
    if left:
        return Pose2D(*truth.left_sole_position[:2], truth.left_sole_rpy[2])
    return Pose2D(*truth.right_sole_position[:2], truth.right_sole_rpy[2])


def footsteps_trial(
    steps: Sequence[Footstep],
    seed: int = 0,
    perturbation: Perturbation | None = None,
    timeout: float = 30.0,
) -> FootstepsResult:
    """Walk ``steps`` and judge every landing (module docstring).

    Each foot is judged where it rests, not while it moves: a step's landing is the stepping
    foot's truth pose halfway through the next step (it supports the robot then), in the
    frame of the other foot's pose halfway through this step (it supported the robot then).
    """
    trial = WalkTrial(seed=seed, perturbation=perturbation)
    trial.run(SETTLE)
    walk = trial.runtime.walk
    behaviour = trial.runtime.emitter("trial")
    behaviour.emit_none(Walk)
    behaviour.emit(Footsteps(steps), priority=PRIORITY)
    gen = walk.generator
    # Per step made: (planned step, the support foot's pose at mid-step, the time it ended).
    made: list[tuple] = []
    current, started, t0 = None, 0.0, trial.t
    mid_support: Pose2D | None = None
    resting: list[Pose2D | None] = []  # the stepping foot at rest, per step made
    while trial.t - t0 < timeout and not trial.fell:
        trial.step()
        step = gen.steps.current
        if step is not current:
            if current is not None:
                made.append((current, mid_support))
                resting.append(None)
            current, started, mid_support = step, trial.t, None
        halfway = current is not None and trial.t - started >= 0.5 * current.period
        if halfway and mid_support is None:
            mid_support = _foot(trial.truth, not current.left)
            if made and resting[-1] is None:  # the last step's foot now supports
                resting[-1] = _foot(trial.truth, made[-1][0].left)
        if len(made) >= len(steps) and walk.standing():
            break
    if made and resting[-1] is None:  # the last step: its foot rests once the robot stands
        resting[-1] = _foot(trial.truth, made[-1][0].left)
    errors_m: list[float] = []
    errors_deg: list[float] = []
    for (step, reference), rest in zip(made, resting, strict=True):
        if reference is None or rest is None:
            continue
        got, want = reference.inverse().compose(rest), step.move
        errors_m.append(math.hypot(got.x - want.x, got.y - want.y))
        turn = wrap_angle(got.theta - want.theta)
        errors_deg.append(math.degrees(abs(turn)))
    return FootstepsResult(tuple(errors_m), tuple(errors_deg), trial.fell)


__all__ = ["FootstepsResult", "MoveResult", "footsteps_trial", "move_to_trial"]
