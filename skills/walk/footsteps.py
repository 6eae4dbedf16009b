"""Footsteps (NAOqi's setFootSteps and setFootStepsWithSpeed): the task and its provider.

- ``Footstep(foot, x, y, theta, duration=None, speed=None)``: ``foot`` (left/LLeg,
  right/RLeg) lands at (x, y, theta) in the frame of the other foot (NAOqi's convention;
  ``footstep_clip`` clips it as ALMotion's planner does), in ``duration`` s or at ``speed``
  (a share of the step frequency range, as ``Walk.frequency``; the gait's period by default).
- ``Footsteps(steps, clear=True)``: walk exactly these steps. The feet must alternate
  (motiond's walk steps each foot in turn; NAOqi accepts a foot twice). ``clear`` replaces
  the steps not begun yet,
  else the new steps are appended. The step under way is unchangeable (NAOqi keeps its first
  ones: its preview controller has already planned them; this walk has planned only the
  step it is making). Done once the last step has landed and the feet are together.

How it walks: the provider hands the clipped steps to the generator's queue
(``WalkGenerator.steps``, ``skills.walk.footstep_queue``) and Needs a ``Walk()`` (zero request)
to drive it. From a stand the generator first makes a step in place with the other foot (its
usual start), then takes the queued steps one per step; when they are used up it closes the
feet and stands. A step is placed symmetrically about the hips: each foot moves half of the
planned relative pose.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import attrs

from director import Context, Director, RunReason
from skills.walk.footstep_clip import clip_footstep
from skills.walk.odometry import Pose2D
from skills.walk.tasks import Walk

if TYPE_CHECKING:
    from skills.walk.engine import WalkEngine

#: A step's duration, s: the gait's range of step periods (NAOqi's is 0.42 to 0.6).
MIN_DURATION = 0.15
MAX_DURATION = 1.0
_FEET = {"left": "left", "LLeg": "left", "right": "right", "RLeg": "right"}
_NEW = (RunReason.NEW_TASK, RunReason.STARTED)


@attrs.frozen
class PlannedStep:
    """A step the generator will make: which foot, where it lands (the other foot's frame,
    clipped), in how long."""

    left: bool
    move: Pose2D
    period: float


def _foot(value: Any) -> str:
    foot = _FEET.get(value) if isinstance(value, str) else None
    if foot is None:
        raise ValueError(f"foot must be 'left'/'LLeg' or 'right'/'RLeg', got {value!r}")
    return foot


def _finite(what: str, limit: float):
    def convert(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"footstep {what} must be a number, got {value!r}")
        value = float(value)
        if not (math.isfinite(value) and abs(value) <= limit):
            raise ValueError(f"footstep {what} must be finite and within ±{limit:g}, got {value!r}")
        return value

    return convert


def _duration(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"footstep duration must be a number of seconds, got {value!r}")
    if not (math.isfinite(value) and MIN_DURATION <= value <= MAX_DURATION):
        raise ValueError(
            f"footstep duration must be within [{MIN_DURATION:g}, {MAX_DURATION:g}] s,"
            f" got {value!r}"
        )
    return float(value)


def _speed(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"footstep speed must be a number in (0, 1], got {value!r}")
    if not (math.isfinite(value) and 0.0 < value <= 1.0):
        raise ValueError(f"footstep speed must be within (0, 1], got {value!r}")
    return float(value)


@attrs.frozen
class Footstep:
    """``foot`` lands at (x, y, theta) in the frame of the other foot (m, m, rad), the step
    taking ``duration`` s, or the gait's period at ``speed`` (a share of the step frequency
    range, as ``Walk.frequency``); neither: the gait's period."""

    foot: str = attrs.field(converter=_foot)
    x: float = attrs.field(converter=_finite("x", 1.0))
    y: float = attrs.field(converter=_finite("y", 1.0))
    theta: float = attrs.field(default=0.0, converter=_finite("theta", math.pi))
    duration: float | None = attrs.field(default=None, converter=_duration)
    speed: float | None = attrs.field(default=None, converter=_speed)

    def __attrs_post_init__(self) -> None:
        if self.duration is not None and self.speed is not None:
            raise ValueError("a footstep takes a duration or a speed, not both")

    @property
    def left(self) -> bool:
        """Whether the left foot steps."""
        return self.foot == "left"

    def clipped(self) -> Pose2D:
        """Where it lands after ALMotion's three clips."""
        return clip_footstep(Pose2D(self.x, self.y, self.theta), left_support=not self.left)


def _steps(value: Any) -> tuple[Footstep, ...]:
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise TypeError(f"steps must be a list of footsteps, got {value!r}")
    steps = []
    for i, step in enumerate(value):
        if isinstance(step, Footstep):
            steps.append(step)
        elif isinstance(step, dict):
            try:
                steps.append(Footstep(**step))
            except (TypeError, ValueError) as error:
                raise type(error)(f"steps[{i}]: {error}") from None
        else:
            raise TypeError(f"steps[{i}] must be a Footstep or a map, got {step!r}")
    if not steps:
        raise ValueError("steps must not be empty")
    if len(steps) > 200:
        raise ValueError(f"at most 200 footsteps at once, got {len(steps)}")
    for i in range(1, len(steps)):
        if steps[i].foot == steps[i - 1].foot:
            raise ValueError(
                f"steps[{i}]: the {steps[i].foot} foot steps twice in a row; feet must"
                " alternate (motiond's walk steps each foot in turn)"
            )
    return tuple(steps)


@attrs.frozen
class Footsteps:
    """Walk exactly these steps, each clipped (see the module docstring)."""

    steps: tuple[Footstep, ...] = attrs.field(converter=_steps)
    clear: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool))


@attrs.frozen
class FootstepStatus:
    """The footsteps: the one under way, those planned after it, the last ones made (in the
    order they were made; at most 64)."""

    current: PlannedStep | None
    planned: tuple[PlannedStep, ...]
    done: tuple[PlannedStep, ...]


def plan(task: Footsteps, engine: WalkEngine) -> list[PlannedStep]:
    """The task's steps clipped and timed."""
    return [
        PlannedStep(
            s.left,
            s.clipped(),
            s.duration if s.duration is not None else engine.step_period_at(s.speed or 1.0),
        )
        for s in task.steps
    ]


def register_footsteps(director: Director, engine: WalkEngine) -> None:
    """Register Footsteps (every cycle, Needs Walk) on ``director``."""
    # The request being walked, and the last one that was interrupted.
    state: dict[str, Any] = {"task": None, "ended": None}

    def provide(ctx: Context) -> None:
        if ctx.reason is RunReason.SUBTASK_DONE:
            ctx.continue_()
            return
        task: Footsteps = ctx.task
        gen = engine.generator
        if task == state["ended"]:
            # Interrupted (outranked, withdrawn): its steps were dropped, as NAOqi drops a
            # killed move's; the same request running again does not walk them from scratch.
            ctx.done()
            return
        if task != state["task"]:
            # A new request (an equal one re-emitted changes nothing).
            state["task"] = task
            gen.steps.add(plan(task, engine), clear=task.clear)
            ctx.emit(Walk())
            return
        if ctx.reason in _NEW:
            ctx.emit(Walk())
        elif not gen.steps.pending and engine.standing():
            state["task"] = None  # walked: the same request emitted again walks it again
            ctx.done()
        else:
            ctx.continue_()

    def stopped(ctx: Context) -> None:
        # Withdrawn or outranked: the step under way ends, the others are dropped.
        if ctx.task != state["task"]:
            return
        queue = engine.generator.steps
        if queue.pending:
            state["ended"] = ctx.task
        queue.cancel()
        state["task"] = None

    director.provide(Footsteps, provide, needs=Walk, every_cycle=True, name="Footsteps")
    director.provide(Footsteps, stopped, kind="stop", name="Footsteps.stop")


__all__ = [
    "MAX_DURATION",
    "MIN_DURATION",
    "Footstep",
    "FootstepStatus",
    "Footsteps",
    "PlannedStep",
    "plan",
    "register_footsteps",
]
