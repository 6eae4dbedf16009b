"""Walk to a pose (NAOqi's moveTo): the tasks, the velocity law and the providers.

- ``WalkTo(x, y, theta)``: to the pose (m, m, rad) relative to the robot's pose when the task
  first runs, then stand; Done standing within ``tolerance_xy`` (m) and ``tolerance_theta``
  (rad) of it by the walk's odometry. ``speed`` in (0, 1]: a share of the gait's limits.
  ``theta`` wraps (the robot turns the short way).
- ``WalkPath(targets)``: through such poses, each relative to the one before (moveTo with
  lists). A target on the way counts once within the tolerances; the robot stands at the last.

Decisions, and why:

- **The goal is fixed in the odometry frame** on the move's first run; every cycle the error is
  the goal seen from the odometry pose and :func:`plan_velocity` (pure) makes it a ``Walk``.
  The walk rate-limits every step, so the law only shapes the speed.
- **Arriving**: ``v = min(reach, sqrt(2 a d), k d)``: braking at a modest ``a``, and a linear
  end (``k`` well under 1 / latency: the walk answers a step or two late) that does not
  overshoot; a floor (``MIN_SPEED``, ``MIN_TURN``) closes the last centimetres. Hysteresis:
  the last target is aimed at within half the tolerances, then ``Walk()``; standing anywhere
  within the tolerances is Done, outside them (the stopping steps carried it) it walks on.
- **Far goals are faced** (forward is the fastest way): the heading aimed at blends from the
  goal's theta to its bearing by the time facing would save (forward instead of aside or
  back, less the turns there and back), only beyond ``NEAR``. That weight does not depend on
  the robot's heading, so no mode flips back and forth; the translation waits while the goal
  is aside. Nearer, the robot walks straight at the point (sideways, backwards) and spreads
  the turn to theta over the approach, so that it crabs slowly only at the end.
- **An interrupted move ends** (result ``"stopped"``): when the task stops running (withdrawn,
  outranked, its legs taken by a fall or a get-up, after which odometry means little) and runs
  again, it is a new move from where the robot then stands, as NAOqi's moveTo ends when the
  walk is killed. Re-emitting an equal task keeps the move; a different one starts anew.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import attrs

from director import Context, Director, RunReason
from skills.walk.odometry import Pose2D
from skills.walk.params import GaitParameters
from skills.walk.request import ZERO, Velocity
from skills.walk.tasks import Walk

if TYPE_CHECKING:
    from skills.walk.engine import WalkEngine

#: Targets beyond these are mistakes, not walks: refused.
ABSURD_DISTANCE = 20.0  # m
ABSURD_ANGLE = 2.0 * math.pi  # rad
MAX_TARGETS = 100
#: Tolerances tighter than the walk's steps can place the robot would never be met.
TOLERANCE_XY = (0.01, 1.0)  # m
TOLERANCE_THETA = (0.02, math.pi)  # rad

APPROACH_ACCEL = 0.1  # m/s²: braking of the approach
TURN_ACCEL = 1.5  # rad/s²
POSITION_GAIN = 1.5  # 1/s: speed per metre left, near the goal
TURN_GAIN = 1.2  # 1/s
TURN_SYNC = 2.0  # turn to theta per share of the approach left (heading error ∝ d²)
MIN_SPEED = 0.03  # m/s
MIN_TURN = 0.15  # rad/s
NEAR = 0.5  # m: within it, straight at the point
FACE_BLEND = 0.3  # m beyond NEAR over which facing the goal comes in
FACE_BAND = 1.0  # s: facing comes in as the time it saves grows from 0 to this
FACE_TOLERANCE = 0.1  # rad: facing the goal this well, the robot walks forwards
ARRIVE = 0.5  # the last target is aimed at within this share of the tolerances


def _number(what: str, unit: str, low: float, high: float, *, open_low: bool = False):
    def convert(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"{what} must be a number ({unit}), got {value!r}")
        value = float(value)
        if not (low < value <= high if open_low else low <= value <= high):  # NaN too
            span = f"{'(' if open_low else '['}{low:g}, {high:g}]"
            raise ValueError(f"{what} must be finite and within {span} {unit}, got {value!r}")
        return value

    return convert


_X = _number("x", "m", -ABSURD_DISTANCE, ABSURD_DISTANCE)
_Y = _number("y", "m", -ABSURD_DISTANCE, ABSURD_DISTANCE)
_THETA = _number("theta", "rad", -ABSURD_ANGLE, ABSURD_ANGLE)
_TOLERANCE_XY = _number("tolerance_xy", "m", *TOLERANCE_XY)
_TOLERANCE_THETA = _number("tolerance_theta", "rad", *TOLERANCE_THETA)
_SPEED = _number("speed", "(a share of the gait's limits)", 0.0, 1.0, open_low=True)


def _targets(value: Any) -> tuple[tuple[float, float, float], ...]:
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise TypeError(f"targets must be a sequence of (x, y, theta) poses, got {value!r}")
    targets = [(t.x, t.y, t.theta) if isinstance(t, Pose2D) else t for t in value]
    if not 1 <= len(targets) <= MAX_TARGETS:
        raise ValueError(f"a WalkPath needs 1 to {MAX_TARGETS} targets, got {len(targets)}")
    for i, target in enumerate(targets):
        if isinstance(target, str | bytes) or not hasattr(target, "__len__") or len(target) != 3:
            raise TypeError(f"targets[{i}] must be an (x, y, theta) pose, got {target!r}")
        try:
            targets[i] = (_X(target[0]), _Y(target[1]), _THETA(target[2]))
        except (TypeError, ValueError) as error:
            raise type(error)(f"targets[{i}]: {error}") from None
    return tuple(targets)


_GAIT = attrs.validators.optional(attrs.validators.instance_of(GaitParameters))


@attrs.frozen
class WalkTo:
    """Walk to (x m, y m, theta rad) relative to the pose when the task first runs; stand."""

    x: float = attrs.field(converter=_X)
    y: float = attrs.field(converter=_Y)
    theta: float = attrs.field(default=0.0, converter=_THETA)
    tolerance_xy: float = attrs.field(default=0.05, kw_only=True, converter=_TOLERANCE_XY)
    tolerance_theta: float = attrs.field(default=0.09, kw_only=True, converter=_TOLERANCE_THETA)
    speed: float = attrs.field(default=1.0, kw_only=True, converter=_SPEED)
    #: The gait to walk with (see ``Walk.gait``); None: the walk's own.
    gait: GaitParameters | None = attrs.field(default=None, kw_only=True, validator=_GAIT)

    @property
    def targets(self) -> tuple[tuple[float, float, float], ...]:
        """The one target, as a path."""
        return ((self.x, self.y, self.theta),)


@attrs.frozen
class WalkPath:
    """Walk through ``targets`` ((x, y, theta), ...), each relative to the one before; stand."""

    targets: tuple[tuple[float, float, float], ...] = attrs.field(converter=_targets)
    tolerance_xy: float = attrs.field(default=0.05, kw_only=True, converter=_TOLERANCE_XY)
    tolerance_theta: float = attrs.field(default=0.09, kw_only=True, converter=_TOLERANCE_THETA)
    speed: float = attrs.field(default=1.0, kw_only=True, converter=_SPEED)
    #: The gait to walk with (see ``Walk.gait``); None: the walk's own.
    gait: GaitParameters | None = attrs.field(default=None, kw_only=True, validator=_GAIT)


@attrs.frozen
class MoveLimits:
    """The speeds a move plans within (m/s, rad/s): the gait's limits times a share."""

    forward: float
    backward: float
    left: float
    turn: float
    turn_when_fast: float = 1.0

    @classmethod
    def from_gait(cls, gait: GaitParameters, speed: float = 1.0) -> MoveLimits:
        """The gait's limits, each times ``speed`` in (0, 1]."""
        g = gait
        top = (g.max_forward, g.max_backward, g.max_left, g.max_turn)
        return cls(*(limit * speed for limit in top), g.turn_when_fast)


def plan_velocity(
    error: Pose2D, limits: MoveLimits, tolerance_xy: float = 0.05, tolerance_theta: float = 0.09
) -> Velocity:
    """The walk velocity towards ``error`` (the goal in the robot frame): zero inside both
    tolerances, always finite and inside ``limits`` (and their ellipsoid, as the walk's)."""
    ex, ey, eth = error.x, error.y, error.theta
    if not math.isfinite(ex + ey + eth):
        return ZERO
    eth = _wrap(eth)
    d = math.hypot(ex, ey)
    if d <= tolerance_xy:
        return _clamp(0.0, 0.0, _turn_law(eth, limits.turn, tolerance_theta, TURN_GAIN), limits)
    ux, uy = ex / d, ey / d
    v = min(_reach(ux, uy, limits), math.sqrt(2.0 * APPROACH_ACCEL * d), POSITION_GAIN * d)
    v = max(min(MIN_SPEED, _reach(ux, uy, limits)), v)
    # The heading to turn to: the goal's theta, or (far) the goal's bearing. ``detour`` is the
    # bearing seen from the goal's heading: it does not change along a straight approach.
    bearing = math.atan2(ey, ex)
    detour = _wrap(bearing - eth)
    w = _face_weight(d, detour, limits)
    heading = eth + w * detour
    other = heading - math.copysign(2.0 * math.pi * w, detour)
    if abs(other) < abs(heading):
        heading = other  # goal behind: keep turning the way the robot already turns
    # Facing, turn briskly; otherwise spread the turn over the approach (heading error ∝ d²),
    # so that the robot crabs slowly sideways only at the end.
    gain = w * TURN_GAIN + (1.0 - w) * min(TURN_GAIN, TURN_SYNC * v / d)
    # Facing needs a tolerance of its own: a loose one for theta would leave the goal aside.
    tolerance = tolerance_theta + w * (min(tolerance_theta, FACE_TOLERANCE) - tolerance_theta)
    turn = _turn_law(heading, limits.turn, tolerance, gain)
    v *= 1.0 - w * (1.0 - max(0.0, ux))  # ux = cos(bearing): facing, wait while it is aside
    return _clamp(v * ux, v * uy, turn, limits)


def _reach(ux: float, uy: float, limits: MoveLimits) -> float:
    """The fastest speed (m/s) along the unit direction (ux, uy) on the limits' ellipse."""
    return 1.0 / math.hypot(ux / (limits.forward if ux >= 0 else limits.backward), uy / limits.left)


def _turn_law(angle: float, top: float, tolerance: float, gain: float) -> float:
    a = abs(angle)
    if a <= tolerance:
        return 0.0
    rate = max(min(MIN_TURN, top), min(top, math.sqrt(2.0 * TURN_ACCEL * a), gain * a))
    return math.copysign(rate, angle)


def _inside(e: Pose2D, tolerance_xy: float, tolerance_theta: float) -> bool:
    return math.hypot(e.x, e.y) <= tolerance_xy and abs(_wrap(e.theta)) <= tolerance_theta


def _wrap(angle: float) -> float:
    return math.atan2(math.sin(angle), math.cos(angle))


def _smooth(s: float) -> float:
    s = min(1.0, max(0.0, s))
    return s * s * (3.0 - 2.0 * s)


def _face_weight(d: float, detour: float, limits: MoveLimits) -> float:
    """How much to face the goal (0: straight at it, turning to theta; 1: face it): by the
    time facing saves (walking forwards instead of along ``detour``, less turning there and
    back), only beyond ``NEAR``. Independent of the robot's heading, so it cannot flip-flop."""
    if d <= NEAR:
        return 0.0
    saved = d * (1.0 / _reach(math.cos(detour), math.sin(detour), limits) - 1.0 / limits.forward)
    saved -= 2.0 * abs(detour) / limits.turn
    return _smooth((d - NEAR) / FACE_BLEND) * _smooth(saved / FACE_BAND)


def _clamp(forward: float, left: float, turn: float, limits: MoveLimits) -> Velocity:
    """Onto the limits' ellipsoid and the turn left at speed, as the walk clamps."""
    fmax = limits.forward if forward >= 0.0 else limits.backward
    norm = math.sqrt((forward / fmax) ** 2 + (left / limits.left) ** 2 + (turn / limits.turn) ** 2)
    if norm > 1.0:
        forward, left, turn = forward / norm, left / norm, turn / norm
    share = 1.0 - (1.0 - limits.turn_when_fast) * min(1.0, max(0.0, forward) / limits.forward)
    top = limits.turn * share
    return Velocity(
        max(-limits.backward, min(limits.forward, forward)),
        max(-limits.left, min(limits.left, left)),
        max(-top, min(top, turn)),
    )


@attrs.frozen
class MoveStatus:
    """The move (WalkTo, WalkPath) under way, or the last one.

    ``target``: the current target in odometry coordinates; ``remaining`` (m) and
    ``remaining_turn`` (rad) from the odometry pose to it; ``reached`` of ``targets`` passed;
    ``result``: None while active, then ``"reached"`` (Done) or ``"stopped"`` (the task stopped
    running first); ``number``: moves begun since start (this one's).
    """

    task: WalkTo | WalkPath | None = None
    active: bool = False
    target: Pose2D | None = None
    remaining: float = 0.0
    remaining_turn: float = 0.0
    reached: int = 0
    targets: int = 0
    result: str | None = None
    number: int = 0


class MoveProgress:
    """The one move under way (WalkTo and WalkPath both Need the one Walk)."""

    def __init__(self, engine: WalkEngine) -> None:
        self._engine = engine
        self.task: WalkTo | WalkPath | None = None
        self.goals: tuple[Pose2D, ...] = ()  # in odometry coordinates
        self.reached, self.active, self.settling = 0, False, False
        self.result: str | None = None
        self.sent: Velocity | None = None  # the Walk last emitted
        self.number = 0  # moves begun since start: tells a client's move from the last one
        self._limits = MoveLimits.from_gait(engine.gait)

    def begin(self, task: WalkTo | WalkPath, pose: Pose2D) -> None:
        """A new move from ``pose`` (odometry)."""
        goals, goal = [], pose
        for x, y, theta in task.targets:
            goal = goal.compose(Pose2D(x, y, theta))
            goals.append(goal)
        self.task, self.goals, self.reached = task, tuple(goals), 0
        self.number += 1
        self.active, self.settling, self.result, self.sent = True, False, None, None
        gait = task.gait if task.gait is not None else self._engine.base_gait
        self._limits = MoveLimits.from_gait(gait, task.speed)

    def step(self, pose: Pose2D, standing: bool) -> Velocity | None:
        """The velocity to walk at now; None once the move is finished (reached)."""
        task = self.task
        assert task is not None
        tol_xy, tol_theta = task.tolerance_xy, task.tolerance_theta
        while True:
            error = pose.inverse().compose(self.goals[self.reached])
            last = self.reached == len(self.goals) - 1
            if last or not _inside(error, tol_xy, tol_theta):
                break
            self.reached += 1  # a target on the way: on to the next without stopping
        # Hysteresis: the last target is aimed at within a share of the tolerances, and the
        # robot standing anywhere within them is accepted.
        share = ARRIVE if last else 1.0
        aim_xy = max(share * tol_xy, TOLERANCE_XY[0])
        aim_theta = max(share * tol_theta, TOLERANCE_THETA[0])
        if last and _inside(error, aim_xy, aim_theta):
            self.settling = True
        if self.settling:
            if not standing:
                return ZERO
            if _inside(error, tol_xy, tol_theta):
                self.reached, self.active, self.result = len(self.goals), False, "reached"
                return None
            self.settling = False  # the stopping steps carried it out: walk on
        return plan_velocity(error, self._limits, aim_xy, aim_theta)

    def stopped(self, task: Any) -> None:
        """The task stopped running: its move has ended."""
        if self.active and task == self.task:
            self.active, self.result = False, "stopped"

    def status(self) -> MoveStatus:
        """A snapshot, distances from the odometry pose now."""
        if self.task is None:
            return MoveStatus()
        goal = self.goals[min(self.reached, len(self.goals) - 1)]
        e = self._engine.odometry.pose.inverse().compose(goal)
        left, turn = math.hypot(e.x, e.y), abs(e.theta)
        n = len(self.goals)
        return MoveStatus(
            self.task, self.active, goal, left, turn, self.reached, n, self.result, self.number
        )


def register_walk_to(director: Director, engine: WalkEngine) -> MoveProgress:
    """Register WalkTo and WalkPath (every cycle, Need Walk); the move's state.

    Register before the Walk provider: every-cycle providers run in registration order, so
    the Walk this emits runs once in the same cycle, not once before it and once after.
    """
    move = MoveProgress(engine)

    def provide(ctx: Context) -> None:
        if ctx.reason is RunReason.SUBTASK_DONE:
            ctx.continue_()
            return
        task = ctx.task
        if not move.active or task != move.task:
            move.begin(task, engine.odometry.pose)
        move.task = task  # an equal task re-emitted: the newest value stops the move
        velocity = move.step(engine.odometry.pose, engine.standing())
        if velocity is None:
            ctx.done()
        elif velocity == move.sent and ctx.reason not in (RunReason.NEW_TASK, RunReason.STARTED):
            ctx.continue_()
        else:
            move.sent = velocity
            ctx.emit(Walk(velocity.forward, velocity.left, velocity.turn, gait=task.gait))

    def stopped(ctx: Context) -> None:
        move.stopped(ctx.task)

    for task_type in (WalkTo, WalkPath):
        name = task_type.__name__
        director.provide(task_type, provide, needs=Walk, every_cycle=True, name=name)
        director.provide(task_type, stopped, kind="stop", name=f"{name}.stop")
    return move


__all__ = ["MoveLimits", "MoveProgress", "MoveStatus", "WalkPath", "WalkTo", "plan_velocity"]
