"""Walk to a pose (NAOqi's moveTo): the tasks, the velocity law and the providers.

- ``WalkTo(x, y, theta)``: to the pose (m, m, rad) relative to the robot's pose when the task
  first runs, then stand; Done standing within ``tolerance_xy`` (m) and ``tolerance_theta``
  (rad) of it by the walk's odometry. ``speed`` in (0, 1]: a share of the gait's limits.
  ``theta`` wraps (the robot turns the short way).
- ``WalkPath(targets)``: through such poses, each relative to the one before (moveTo with
  lists). A target on the way counts once within the tolerances; the robot stands at the last.

Decisions, and why:

- **The goal is fixed in the odometry frame** on the move's first run; every cycle the error is
  the goal seen from the robot position (``LegOdometry.robot``: the middle of the feet, as
  NAOqi's moveTo moves its FRAME_ROBOT; the body sways 3-5 cm over each foot) and
  :func:`plan_velocity` (pure) makes it a ``Walk``.
  The walk rate-limits every step, so the law only shapes the speed.
- **Arriving**: ``v = min(reach, sqrt(2 a d), k d)``: braking at a modest ``a``, and a linear
  end (``k`` well under 1 / latency: the walk answers a step or two late) that does not
  overshoot; a floor (``MIN_SPEED``, ``MIN_TURN``) closes the last centimetres. Hysteresis:
  the last target is aimed at within half the tolerances, then ``Walk()``; standing anywhere
  within the tolerances is Done, outside them (the stopping steps carried it) it walks on.
  The walk stops as soon as the robot, or where a stop would leave it
  (``WalkEngine.stop_pose``), is within the aim: by the robot alone, turning moves that
  sidestepped at full speed ended about 2.3 degrees short every time (the stop carried little
  and the aim is half of 5.2 degrees), 9 degrees after four of the demo's square.
- **Far goals are faced** (forward is the fastest way): the heading aimed at blends from the
  goal's theta to its bearing by the time facing would save (forward instead of aside or
  back, less the turns there and back; walking backwards counts as 1.5 times slower than the
  gait's limit, since the robot sees nothing of where it goes and falls worst backwards, and
  sideways as 1.25 times, since the walk reaches about 0.8 of that limit),
  only beyond ``NEAR``. That weight does not depend on
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
from collections import deque
from typing import TYPE_CHECKING, Any

import attrs

from director import Context, Director, RunReason
from skills.walk.approach import inside, plan_velocity
from skills.walk.odometry import Pose2D
from skills.walk.params import GaitParameters
from skills.walk.request import ZERO, Limits, Velocity
from skills.walk.tasks import Walk, gait_field

if TYPE_CHECKING:
    from skills.walk.engine import WalkEngine

#: Targets beyond these are mistakes, not walks: refused.
ABSURD_DISTANCE = 20.0  # m
ABSURD_ANGLE = 2.0 * math.pi  # rad
MAX_TARGETS = 100
#: Tolerances tighter than the walk's steps can place the robot would never be met.
TOLERANCE_XY = (0.01, 1.0)  # m
TOLERANCE_THETA = (0.02, math.pi)  # rad

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
    gait: GaitParameters | None = gait_field()

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
    gait: GaitParameters | None = gait_field()


@attrs.frozen
class MoveStatus:
    """The move (WalkTo, WalkPath) under way, or the last one.

    ``target``: the current target in odometry coordinates; ``remaining`` (m) and
    ``remaining_turn`` (rad) from the robot position to it; ``reached`` of ``targets`` passed;
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
    #: The last moves that ended: (number, result), oldest first.
    ended: tuple[tuple[int, str], ...] = ()


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
        self.ended: deque[tuple[int, str]] = deque(maxlen=8)
        self.kills = 0  # the walk's kills seen when the move began
        self._limits = Limits.from_gait(engine.gait)

    def end(self, result: str) -> None:
        """The move is over: reached, replaced, stopped, killed or refused."""
        self.active, self.result = False, result
        self.ended.append((self.number, result))

    def begin(self, task: WalkTo | WalkPath, pose: Pose2D) -> None:
        """A new move from ``pose`` (odometry)."""
        if self.active:
            self.end("replaced")
        self.kills = self._engine.kills
        goals, goal = [], pose
        for x, y, theta in task.targets:
            goal = goal.compose(Pose2D(x, y, theta))
            goals.append(goal)
        self.task, self.goals, self.reached = task, tuple(goals), 0
        self.number += 1
        self.active, self.settling, self.result, self.sent = True, False, None, None
        gait = task.gait if task.gait is not None else self._engine.base_gait
        self._limits = Limits.from_gait(gait, task.speed)

    def step(self, pose: Pose2D, standing: bool) -> Velocity | None:
        """The velocity to walk at now; None once the move is finished (reached)."""
        task = self.task
        assert task is not None
        tol_xy, tol_theta = task.tolerance_xy, task.tolerance_theta
        while True:
            error = pose.inverse().compose(self.goals[self.reached])
            last = self.reached == len(self.goals) - 1
            if last or not inside(error, tol_xy, tol_theta):
                break
            self.reached += 1  # a target on the way: on to the next without stopping
        # Hysteresis: the last target is aimed at within a share of the tolerances, and the
        # robot standing anywhere within them is accepted.
        share = ARRIVE if last else 1.0
        aim_xy = max(share * tol_xy, TOLERANCE_XY[0])
        aim_theta = max(share * tol_theta, TOLERANCE_THETA[0])
        if last and not self.settling and not standing:
            # Where a stop now would stand (the step under way and the closing steps): the
            # walk stops once that is within the aim, not only once the robot itself is.
            ahead = self._engine.stop_pose().inverse().compose(self.goals[self.reached])
            if inside(ahead, aim_xy, aim_theta):
                self.settling = True
        if last and inside(error, aim_xy, aim_theta):
            self.settling = True
        if self.settling:
            if not standing:
                return ZERO
            if inside(error, tol_xy, tol_theta):
                self.reached = len(self.goals)
                self.end("reached")
                return None
            self.settling = False  # the stopping steps carried it out: walk on
        return plan_velocity(error, self._limits, aim_xy, aim_theta)

    def stopped(self, task: Any) -> None:
        """The task stopped running: its move has ended."""
        if self.active and task == self.task:
            self.end("stopped")

    def status(self) -> MoveStatus:
        """A snapshot, distances from the robot position now."""
        if self.task is None:
            return MoveStatus()
        goal = self.goals[min(self.reached, len(self.goals) - 1)]
        e = self._engine.odometry.robot.inverse().compose(goal)
        left, turn = math.hypot(e.x, e.y), abs(e.theta)
        n = len(self.goals)
        return MoveStatus(
            self.task,
            self.active,
            goal,
            left,
            turn,
            self.reached,
            n,
            self.result,
            self.number,
            tuple(self.ended),
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
            move.begin(task, engine.odometry.robot)
            if engine.generator.halted is not None:
                move.end("refused")  # lifted, or tilted: the walk does not step now
                ctx.done()
                return
        if engine.kills != move.kills:
            move.end("killed")  # killMove: the move is over, as NAOqi's
            ctx.done()
            return
        move.task = task  # an equal task re-emitted: the newest value stops the move
        velocity = move.step(engine.odometry.robot, engine.standing())
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


__all__ = ["MoveProgress", "MoveStatus", "WalkPath", "WalkTo", "register_walk_to"]
