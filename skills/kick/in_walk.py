"""The in-walk kick in the Director: ``InWalkKick`` rides on the walk as a kick request.

``InWalkKick`` (every cycle, no Needs, nothing emitted) hands the walk's generator a
:class:`~skills.walk.kick_step.KickStep` and keeps the ball's position from each sole current
from the odometry (the ball is fixed on the floor where the request put it). The walk makes
the kick as one of its own steps (``skills.walk.kick_step``) while the behaviour keeps walking
towards the ball; the task is Done once the kick step has landed, or after ``in_walk_steps``
steps without the ball coming in reach ("missed"). Withdrawn before the kick step began, the
request is dropped ("interrupted"); a kick step under way always lands.
"""

from __future__ import annotations

from typing import Any

from director import Context, Director, RunReason
from skills.kick.params import KickParameters
from skills.kick.tasks import InWalkKick
from skills.walk.kick_step import KickStep
from skills.walk.odometry import Pose2D

_NEW = (RunReason.NEW_TASK, RunReason.STARTED)


def kick_step(params: KickParameters, left: bool | None) -> KickStep:
    """The walk's kick request for ``params`` (``left``: the kicking foot, None either)."""
    p = params
    return KickStep(
        left=left,
        period_share=p.in_walk_period,
        length=p.in_walk_length,
        max_length=p.in_walk_max_length,
        min_length=p.in_walk_min_length,
        contact_height=p.in_walk_contact_height,
        penetration=p.penetration,
        max_offset=p.in_walk_max_offset,
        line_up_speed=p.in_walk_line_up,
    )


class InWalkKicks:
    """The in-walk kick under way: its task, the ball on the floor, the steps it has waited."""

    def __init__(self, kicks: Any, walk: Any) -> None:
        self._kicks, self._walk = kicks, walk
        self.task: InWalkKick | None = None
        self._ball = Pose2D()
        self._first_step = 0

    def begin(self, task: InWalkKick) -> None:
        """Take ``task`` on: the ball put on the odometry's floor, the request on the walk."""
        odometry = self._walk.odometry
        left, right = odometry.feet
        middle = Pose2D((left.x + right.x) / 2.0, (left.y + right.y) / 2.0)
        self._ball = odometry.pose.compose(middle).compose(Pose2D(task.ball_x, task.ball_y))
        self._walk.generator.kick = kick_step(
            self._kicks.params, None if task.foot == "auto" else task.foot == "left"
        )
        self.task, self._first_step = task, self._walk.generator.step_count
        self._kicks.set_status(phase="walking to the ball", foot=None, outcome=None, reason=None)

    def step(self, ctx: Context) -> None:
        """One cycle: the ball from each sole, and whether the kick is over."""
        gen = self._walk.generator
        kick = gen.kick
        if kick is None:
            self._end("interrupted", "the walk dropped the kick")
            ctx.done()
            return
        odometry = self._walk.odometry
        ball = odometry.pose.inverse().compose(self._ball)
        for left, sole in zip((True, False), odometry.feet, strict=True):
            seen = sole.inverse().compose(ball)
            kick.ball[left] = (seen.x, seen.y)
        if kick.landed:
            gen.kick = None
            self._end("kicked", None)
            ctx.done()
        elif kick.made:
            self._kicks.set_status(phase="kick step", foot="left" if gen.swing_left else "right")
        elif gen.step_count - self._first_step > self._kicks.params.in_walk_steps:
            gen.kick = None
            self._end("missed", "the ball did not come in reach of a kick step")
            ctx.done()

    def stopped(self) -> None:
        """Withdrawn: a kick step not yet begun is dropped (one under way lands)."""
        gen = self._walk.generator
        if self.task is not None and gen.kick is not None and not gen.kick.made:
            gen.kick = None
            self._end("interrupted", "the in-walk kick was withdrawn")

    def _end(self, outcome: str, reason: str | None) -> None:
        self.task = None
        self._kicks.end(outcome, reason)


def register_in_walk_kick(director: Director, kicks: Any, walk: Any) -> InWalkKicks:
    """Register the InWalkKick provider; ``kicks``: the kick engine (parameters, state)."""
    in_walk = InWalkKicks(kicks, walk)

    def provide(ctx: Context) -> None:
        if ctx.reason in _NEW or ctx.task is not in_walk.task:
            in_walk.begin(ctx.task)
        in_walk.step(ctx)

    def stopped(ctx: Context) -> None:
        in_walk.stopped()

    director.provide(InWalkKick, provide, every_cycle=True, name="InWalkKick")
    director.provide(InWalkKick, stopped, kind="stop", name="InWalkKick.stop")
    return in_walk
