"""Kick trials in physics: naosim with a ball and the daemon's cycle in lockstep.

A trial stands the robot in the walk stand (a Walk in place for 1.5 s, as a behaviour that
walked up to the ball would leave it), puts the ball at rest at (``ball_x``, ``ball_y``) in
the robot frame (midway between the ankles, measured by naosim's truth), emits a ``Kick`` above
the walk and steps until the ball has stopped. An in-walk trial instead walks straight at the
ball with an ``InWalkKick`` pending and walks on after it. Every figure is ground truth.
"""

from __future__ import annotations

import math

import attrs
import numpy as np

from motiond.walk_trial import Perturbation, WalkTrial
from skills.kick import InWalkKick, Kick, KickParameters, KickStatus
from skills.safety.fall import FallPhase

#: The kick's priority in trials: above the trial's walk (``walk_trial.PRIORITY``).
KICK_PRIORITY = 2.0
_STAND_SECONDS = 1.5
#: The ball counts as touched once it has moved this far (m).
_TOUCHED = 0.005
_BALL_STILL = 0.01  # m/s


def _ball_ahead(
    kick: Kick | InWalkKick,
    seed: int,
    perturbation: Perturbation | None,
    model: str | None,
    params: KickParameters | None,
) -> tuple[WalkTrial, np.ndarray, float]:
    """A robot standing in the walk stand with the ball at rest at the kick's (ball_x,
    ball_y), kicking with ``params`` (else the shipped ones): the trial, the ball's start and
    the robot's heading."""
    trial = WalkTrial(model=model, perturbation=perturbation, seed=seed, ball=True)
    if params is not None:
        trial.runtime.kick.params = params
    trial.run(_STAND_SECONDS)
    heading = trial.place_ball_ahead(kick.ball_x, kick.ball_y)
    return trial, trial.sim.truth().ball[:2].copy(), heading


def _travel(moved: np.ndarray, heading: float) -> tuple[float, float]:
    """The ball's travel (m) and its direction (rad) in the robot's frame at the kick."""
    direction = math.atan2(float(moved[1]), float(moved[0])) - heading
    return float(np.hypot(*moved)), math.atan2(math.sin(direction), math.cos(direction))


class _Watch:
    """Steps a trial a cycle at a time and keeps what the kick trials add to it: the fall
    detector's alarms and the ball."""

    def __init__(self, trial: WalkTrial, ball: np.ndarray) -> None:
        self.trial = trial
        self.alarmed = False
        self.ball = ball.copy()
        self.still = 0  # cycles the ball has not moved

    def step(self) -> None:
        trial = self.trial
        trial.step()
        upright = trial.runtime.state.fall.phase is FallPhase.UPRIGHT
        self.alarmed = self.alarmed or not upright
        ball = trial.truth.ball[:2].copy()
        speed = float(np.hypot(*(ball - self.ball))) / trial.runtime.period
        self.ball = ball
        self.still = self.still + 1 if speed < _BALL_STILL else 0


@attrs.frozen
class KickResult:
    """What one kick did (truth)."""

    travel: float  # m, the ball's rest position from where it lay
    direction: float  # rad, of that displacement (0 straight ahead of the robot)
    contact_after: float | None  # s from the request to the ball's first movement
    fell: bool
    status: KickStatus
    #: Whether the fall detector left "upright" at any time (a false alarm if not ``fell``).
    alarmed: bool


def kick_trial(
    kick: Kick,
    *,
    seed: int = 0,
    perturbation: Perturbation | None = None,
    model: str | None = None,
    params: KickParameters | None = None,
    max_seconds: float = 14.0,
) -> KickResult:
    """Stand, place the ball, kick (with ``params``, else the shipped ones), and wait until
    the ball stops (or ``max_seconds``)."""
    trial, start, heading = _ball_ahead(kick, seed, perturbation, model, params)
    kicks = trial.runtime.kick
    trial.emit(kick, priority=KICK_PRIORITY)
    t0, contact = trial.t, None
    watch = _Watch(trial, start)
    while trial.t - t0 < max_seconds:
        watch.step()
        if contact is None and float(np.hypot(*(watch.ball - start))) > _TOUCHED:
            contact = trial.t - t0
        done = not kicks.status().active
        if done and watch.still > 10 and (contact is not None or trial.t - t0 > 1.0):
            break
    travel, direction = _travel(watch.ball - start, heading)
    return KickResult(travel, direction, contact, trial.fell, kicks.status(), watch.alarmed)


@attrs.frozen
class InWalkResult:
    """What one in-walk kick did (truth)."""

    travel: float  # m, the ball's rest position from where it lay
    direction: float  # rad, of that displacement, from the walking direction
    fell: bool
    status: KickStatus
    #: Whether the fall detector left "upright" at any time (a false alarm if not ``fell``).
    alarmed: bool
    #: How far the robot walked on (m) in the second after the kick step landed.
    walked_after: float


def in_walk_trial(
    kick: InWalkKick,
    speed: float,
    *,
    seed: int = 0,
    perturbation: Perturbation | None = None,
    model: str | None = None,
    params: KickParameters | None = None,
    max_seconds: float = 12.0,
) -> InWalkResult:
    """Stand, place the ball, walk straight at ``speed`` (m/s) with ``kick`` pending (with
    ``params``, else the shipped ones), walk on for a second after the kick, then stand until
    the ball stops (or ``max_seconds``)."""
    trial, start, heading = _ball_ahead(kick, seed, perturbation, model, params)
    kicks = trial.runtime.kick
    trial.walk(speed)
    trial.emit(kick, priority=KICK_PRIORITY)
    ended_at, walked, stopped, body = None, 0.0, False, None
    watch = _Watch(trial, start)
    t0 = trial.t
    while trial.t - t0 < max_seconds:
        watch.step()
        torso = trial.truth.torso_position[:2]
        if ended_at is None and kicks.status().outcome is not None:
            ended_at, body = trial.t, torso.copy()
        if body is not None and trial.t - ended_at <= 1.0:
            walked = float(np.hypot(*(torso - body)))
        elif body is not None and not stopped:
            # Walked on for a second: stop, before the robot catches up with its own ball.
            trial.walk()
            stopped = True
        if stopped and watch.still > 10:
            break
    travel, direction = _travel(watch.ball - start, heading)
    return InWalkResult(travel, direction, trial.fell, kicks.status(), watch.alarmed, walked)


__all__ = ["KICK_PRIORITY", "InWalkResult", "KickResult", "in_walk_trial", "kick_trial"]
