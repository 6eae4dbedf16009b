"""The kick in the Director: the Kick provider around one :class:`~skills.kick.motion.KickMotion`.

How the kick fits the Director:

- ``Kick`` (every cycle, no Needs) emits ``Legs`` each cycle with the motion's joint targets,
  the support ankle corrected by the gyro in single support. The arms and head stay free.
- **Refusal**: a kick plainly out of reach is Done at once without emitting anything;
  ``KickStatus`` says why. The rest of the plan (``KickPlanner``) is made a few leg
  solutions a cycle ("planning", 2-4 cycles) while the kick holds the legs where they are
  commanded, so a kick refused then has moved nothing either.
- **From a walk**: emitted while the walk steps (above it), the kick first emits ``StopWalk``
  as its own subtask, which brings the feet together through the walk, then plans from there.
  Legs a script left far from the stand go to it through the walk's start the same way.
- **Interruption**: a stronger task (Freeze, fall protection) that takes the legs leaves the
  kick's ``Legs`` queued; the kick sees that in its next cycle and ends ("interrupted"), so it
  never resumes a swing from a body that has since moved. A kick that never had the legs (a
  task at its priority or above holds them) waits for them, asking to hold them where they
  are, and plans from there once it gets them. Withdrawn mid-kick, its stop
  provider records the same.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

from director import Context, Director, RunReason, RunState
from providers.actuation import JointCommand, Legs, ServoTable
from skills.kick.in_walk import InWalkKicks, register_in_walk_kick
from skills.kick.motion import LEG_INDEX, LEG_JOINTS, KickMotion
from skills.kick.params import KickParameters, load_kick_parameters
from skills.kick.planner import KickPlanner
from skills.kick.reach import KickRefused
from skills.kick.tasks import Kick, KickStatus
from skills.walk.tasks import StopWalk

_NEW = (RunReason.NEW_TASK, RunReason.STARTED)
_ANKLES = {
    side: (LEG_JOINTS.index(f"{side[0]}AnklePitch"), LEG_JOINTS.index(f"{side[0]}AnkleRoll"))
    for side in ("L", "R")
}
#: The phases in which a standing kick moves the body: onto one foot, the kick, back.
_MOVING = frozenset(
    ("shifting", "winding", "swinging", "holding", "retracting", "lowering", "returning")
)
_GYRO_FILTER = 0.8
# Swing samples solved per cycle (about 0.3 ms each): the swing is timed long before it begins.
_SAMPLES_PER_CYCLE = 3
# Leg solutions the plan makes per cycle (about 0.25 ms each here).
_PLAN_PER_CYCLE = 8
# Commanded legs this close (rad) to where a plan starts are where it starts.
_SAME_START = 1e-4
_LEGS = list(LEG_INDEX)
# A settle moving a leg joint further than this (rad) goes through the walk's start instead:
# from Zero's straight legs (0.97 rad to the stand's knee) the joint-space settle tipped the
# robot onto its toes, torso 0.32 rad forwards, and a perturbed NAO fell (docs).
_FAR_FROM_STAND = 0.25


def _moved(start_legs: np.ndarray, commanded: np.ndarray) -> bool:
    """Whether the commanded joints (25) have left the legs a plan starts from."""
    return float(np.max(np.abs(start_legs - commanded[_LEGS]))) > _SAME_START


class KickEngine:
    """The kick skill's state: the motion under way and how the last kick ended."""

    def __init__(self, servos: ServoTable, state: Any, walk: Any, params: KickParameters) -> None:
        self.params = params
        self.period = 0.012
        self._servos, self._state, self._walk = servos, state, walk
        self.motion: KickMotion | None = None
        self._planner: KickPlanner | None = None
        self._task: Kick | None = None
        self._started_at: float | None = None
        self._to_stand = False  # the walk was asked to take the legs to its stand first
        self._last_now: float | None = None
        self._emitted = False
        self._granted = False
        self._gyro = np.zeros(2)
        self._status = KickStatus()
        #: The in-walk kick (``skills.kick.in_walk``), set by ``register_kick``.
        self.in_walk: InWalkKicks | None = None

    def status(self) -> KickStatus:
        """The kick state now."""
        return self._status

    def moving(self) -> bool:
        """Whether a standing kick is moving the body (from the shift onto one foot until its
        weight is back on both): a script that moves the legs waits for it."""
        return self._status.phase in _MOVING

    def begin(self, task: Kick, now: float) -> str | None:
        """Take ``task`` on at ``now``; the refusal's reason, or None."""
        self._task, self.motion, self._planner = task, None, None
        self._started_at, self._emitted, self._granted = None, False, False
        self._to_stand = False
        # Planned from the legs now, so that a refusal comes before anything moves.
        reason = self._plan(now, follow_legs=True)
        if reason is None:
            self.set_status(phase="planning", foot=None, outcome=None, reason=None)
        return reason

    def _commanded_legs(self, now: float) -> np.ndarray:
        # Where the legs' moves have got to now, not where they end: taken from a script
        # mid-keyframe, the kick would hold (and plan from) a posture the legs are not in.
        return self._servos.positions_at(now)[_LEGS]

    def _plan(self, now: float, *, follow_legs: bool, solutions: float = 0) -> str | None:
        """Plan on by ``solutions`` leg solutions, afresh if ``follow_legs`` and the legs have
        moved from the plan's start; the refusal's reason, or None (``self.motion`` is set
        once the plan is whole)."""
        try:
            planner = self._planner
            # The legs where their moves have got to; the rest of the body (its centre of
            # mass) where its moves end: arms the walk is still taking back arrive during the
            # kick (planned with them where they were, a kick after the Zero script fell
            # backwards as they swung down).
            here = self._servos.target_array().copy()
            here[_LEGS] = self._servos.positions_at(now)[_LEGS]
            if planner is not None and follow_legs and _moved(planner.motion.start_legs, here):
                planner = None
            if planner is None:
                planner = self._planner = KickPlanner(
                    self._task, self.params, self._walk.base_gait, here, self.period
                )
                self.motion = None
            if self.motion is None and solutions > 0:
                self.motion = planner.advance(solutions)
        except KickRefused as error:
            self._planner = None
            self._end("refused", str(error))
            return str(error)
        return None

    def step(self, ctx: Context) -> None:
        """One cycle of the kick under way."""
        now = ctx.now
        if self._last_now == now:
            ctx.continue_()
            return
        self._last_now = now
        legs = ctx.uses(Legs).run_state if self._emitted else None
        if legs is RunState.QUEUED:
            if self._granted:
                self._end("interrupted", "a stronger task took the legs")
                ctx.done()
                return
            # Never had them: a task at this priority or above holds the legs. Ask to hold
            # them where they are, and plan from there once they come.
            self._started_at = None
            self.set_status(phase="waiting for the legs")
            self._hold(ctx)
            return
        if legs is RunState.RUNNING:
            self._granted = True
        if self._started_at is None:
            # While the walk stops, the plan from where the request found the legs goes on,
            # for its refusal; from the stand the walk leaves, the kick is planned afresh.
            busy = self._walk.stepping(now)
            if self._plan(now, follow_legs=not busy, solutions=_PLAN_PER_CYCLE) is not None:
                ctx.done()
                return
            if busy:
                self.set_status(phase="to the walk stand" if self._to_stand else "stopping walk")
                ctx.emit(StopWalk())
                return
            if self.motion is None:
                self.set_status(phase="planning")
                self._hold(ctx)
                return
            if self.motion.settle_travel > _FAR_FROM_STAND and not self._to_stand:
                # Legs a script left far from the stand (straight in Zero, folded in Crouch):
                # the walk's start takes them there, soles in Cartesian space with its
                # balance and its trim for the arms; then the kick is planned from its stand.
                self._to_stand = True
                self.set_status(phase="to the walk stand")
                ctx.emit(StopWalk())
                return
            self._started_at = now
            self.set_status(foot=self.motion.foot)
        motion = self.motion
        motion.prepare(_SAMPLES_PER_CYCLE)
        k = round((now - self._started_at) / self.period)
        if motion.finished(k):
            self._end("kicked", None)
            ctx.done()
            return
        q = motion.command(k)
        self.set_status(phase=motion.phase(k))
        gyro = self._state.gyro
        if math.isfinite(gyro[0]) and math.isfinite(gyro[1]):
            self._gyro = _GYRO_FILTER * self._gyro + (1.0 - _GYRO_FILTER) * gyro[:2]
        if motion.single_support(k):
            pitch, roll = _ANKLES["R" if motion.foot == "left" else "L"]
            q = q.copy()
            q[pitch] += self.params.gyro_pitch_ankle * self._gyro[1]
            q[roll] += self.params.gyro_roll_ankle * self._gyro[0]
        positions = dict(zip(LEG_JOINTS, q.tolist(), strict=True))
        ctx.emit(Legs(JointCommand(positions, self.params.stiffness)))
        self._emitted = True

    def _hold(self, ctx: Context) -> None:
        """Ask for the legs where they are commanded now (where their moves have got to)."""
        here = self._commanded_legs(ctx.now).tolist()
        ctx.emit(Legs(JointCommand(dict(zip(LEG_JOINTS, here, strict=True)), 1.0)))
        self._emitted = True

    def stopped(self) -> None:
        """The Kick task stopped running (withdrawn, or removed after it ended)."""
        if self._status.phase != "idle":
            self._end("interrupted", "the kick was withdrawn")

    def _end(self, outcome: str, reason: str | None) -> None:
        self.end(outcome, reason, self.motion.foot if self.motion is not None else None)
        self._task, self._planner = None, None

    def end(self, outcome: str, reason: str | None, foot: str | None = None) -> None:
        """A kick (standing or in-walk) ended: ``outcome`` and why."""
        kicks = self._status.kicks + (outcome == "kicked")
        self._status = KickStatus("idle", foot or self._status.foot, outcome, reason, kicks)

    def set_status(self, **changes: Any) -> None:
        """Change fields of the kick state (an in-walk kick reports through it too)."""
        self._status = attrs.evolve(self._status, **changes)


def register_kick(
    director: Director,
    servos: ServoTable,
    state: Any,
    walk: Any,
    params: KickParameters | None = None,
) -> KickEngine:
    """Register the Kick provider on ``director``; the engine (its state and parameters)."""
    if params is None:
        params = load_kick_parameters()
    engine = KickEngine(servos, state, walk, params)

    def kick(ctx: Context) -> None:
        task: Kick = ctx.task
        if ctx.reason in _NEW or task is not engine._task:
            if ctx.reason is RunReason.STARTED and engine._task is task:
                # The legs came back after a stronger task had them: never resume a swing.
                engine._end("interrupted", "a stronger task took the legs")
                ctx.done()
                return
            if engine.begin(task, ctx.now) is not None:
                ctx.done()
                return
        engine.step(ctx)

    def kick_stopped(ctx: Context) -> None:
        engine.stopped()

    director.provide(Kick, kick, every_cycle=True, name="Kick")
    director.provide(Kick, kick_stopped, kind="stop", name="Kick.stop")
    engine.in_walk = register_in_walk_kick(director, engine, walk)
    return engine


__all__ = ["KickEngine", "register_kick"]
