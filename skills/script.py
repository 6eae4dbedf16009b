"""The Script skill: play a keyframe script as a sequence on the smallest group covering it.

A head-only script plays as a ``HeadSequence``, a legs-only one as a ``LegsSequence``, one
touching the head and a leg as a ``BodySequence``: the smallest group leaves every other joint
free for other tasks (a LookAt can run beside a legs-only script).

Each keyframe becomes one ``JointCommand`` naming the keyframe's joints with their positions and
per-joint stiffness, over the keyframe's duration divided by ``speed``, with minimum-jerk
interpolation (zero speed at every keyframe, so no keyframe starts with a velocity jump). A
joint a keyframe does not name keeps its last target. With ``start_time`` in the future the
script waits until then; a past or absent start time starts at once.

There is one Script provider group, so one script plays at a time; a higher-priority Script
takes over in the next cycle, a lower-priority one waits for the playing one to end.

A script that moves the legs, emitted above a walk that is stepping, first lets the walk bring
its feet together (``StopWalk`` as its subtask, as a kick does), then plays: a posture taken
from the middle of a step (StandInit from single support) tipped naosim's NAO over in a quarter
of the tries. Above a standing kick under way it waits for the kick to end (the safe sit after
a LoLA outage mid-swing tipped 2 of 12 kicks). ``interrupt`` takes the legs at once
instead (a dive; the lifted stand). The same holds when the script's sequence lost a group to
a stronger task and waits for it (a look taking the head of a whole-body script): the legs it
freed go to the walk below, and before the sequence would take them back from a stepping walk,
the script withdraws it and lets the walk close its feet (checked every cycle); it then plays
afresh.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import attrs

from director import Context, Director, RunReason, RunState
from lola_io.joints import LEFT_LEG_JOINTS, RIGHT_LEG_JOINTS
from providers.actuation import SEQUENCE_OF, Arrival, JointCommand, smallest_group
from skills.keyframes import KeyframeScript
from skills.walk.tasks import StopWalk

_SUBTASK_DONE = RunReason.SUBTASK_DONE
_EVERY_CYCLE = RunReason.OTHER_TRIGGER


def _script(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if not isinstance(value, KeyframeScript):
        raise TypeError(f"script must be a KeyframeScript, got {value!r}")


def _start_time(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"start_time must be a number of seconds or None, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"start_time must be finite, got {value!r}")
    return float(value)


def _speed(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"speed must be a number, got {value!r}")
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"speed must be a finite factor above 0, got {value!r}")
    return float(value)


def script_sequence(
    script: KeyframeScript,
    speed: float = 1.0,
    arrival: Arrival | None = None,
    group: type | None = None,
) -> Any:
    """The sequence task that plays ``script`` at ``speed`` on ``group`` (None: the smallest
    group covering its joints); with an ``arrival``, each keyframe also waits for its joints
    to catch up."""
    group = smallest_group(script.joints) if group is None else group
    frames = tuple(
        JointCommand(
            {name: target.position for name, target in frame.targets.items()},
            {name: target.stiffness for name, target in frame.targets.items()},
            frame.duration / speed,
        )
        for frame in script.frames
    )
    return SEQUENCE_OF[group](frames, arrival)


@attrs.frozen
class Script:
    """Play ``script`` (a KeyframeScript) from ``start_time`` (None: now) at ``speed``×;
    Done after the last keyframe unless ``hold``."""

    script: KeyframeScript = attrs.field(validator=_script)
    start_time: float | None = attrs.field(default=None, converter=_start_time)
    speed: float = attrs.field(default=1.0, converter=_speed)
    #: Keep the joints after the last keyframe instead of being Done (a posture to hold
    #: until the task is withdrawn or outranked).
    hold: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))
    #: Take the legs at once from a stepping walk or a kick under way (a dive); otherwise a
    #: script that moves the legs lets them finish first.
    interrupt: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))
    # Built at construction so a script that cannot be played fails where it is made.
    sequence: Any = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "sequence", script_sequence(self.script, self.speed))

    @property
    def moves_legs(self) -> bool:
        """Whether the script commands any leg joint."""
        return not _LEGS.isdisjoint(self.script.joints)

    @property
    def waits_for_legs(self) -> bool:
        """Whether it lets a stepping walk or a kick under way finish before it plays."""
        return self.moves_legs and not self.interrupt


_LEGS = frozenset((*LEFT_LEG_JOINTS, *RIGHT_LEG_JOINTS))


def _never(*_: float) -> bool:
    return False


@attrs.frozen
class LegsInMotion:
    """What a script that moves the legs lets finish first (``register_script``):
    ``walk_stepping(now)``, the walk mid-step (``WalkEngine.stepping``), and
    ``kick_moving()`` (``KickEngine.moving``)."""

    walk_stepping: Callable[[float], bool] = _never
    kick_moving: Callable[[], bool] = _never


def _provide_script(ctx: Context, legs: LegsInMotion) -> None:
    task = ctx.task
    sequence = task.sequence
    if ctx.reason is _EVERY_CYCLE:
        # A sequence that lost a group to a stronger task (a look taking the head of a
        # whole-body script) gave the legs up to whatever waits below, a walk that steps on
        # them; when the group frees it would take them back mid-step (a random-sequence run
        # fell so). So the walk closes its feet first, as for a new script, and the script
        # then plays afresh.
        queued = ctx.uses(type(sequence)).run_state is RunState.QUEUED
        if queued and task.waits_for_legs and legs.walk_stepping(ctx.now):
            ctx.emit(StopWalk())
            return
        ctx.continue_()
        return
    waiting = task.start_time is not None and ctx.now < task.start_time
    if ctx.reason is _SUBTASK_DONE:
        uses = ctx.uses(type(sequence))
        if uses.done:
            if task.hold:
                ctx.continue_()
            else:
                ctx.done()
            return
        if uses.run_state is not RunState.NO_TASK or waiting:
            ctx.continue_()
            return
    elif waiting:
        ctx.wait(task.start_time)
        return
    if task.waits_for_legs:
        if legs.walk_stepping(ctx.now):
            # StopWalk is Done once the feet are together; this provider then runs again.
            ctx.emit(StopWalk())
            return
        if legs.kick_moving():
            # The kick keeps the legs until it ends. Any deadline in the future runs this
            # again in the next cycle (as a sequence waiting for its joints does).
            ctx.wait(ctx.now + 1e-3)
            return
    ctx.emit(sequence)


def register_script(director: Director, legs: LegsInMotion | None = None) -> None:
    """Register the Script provider on ``director`` (the actuation tree must be built);
    ``legs``: the motions a script that moves the legs lets finish (none by default)."""
    legs = legs or LegsInMotion()

    def provide(ctx: Context) -> None:
        _provide_script(ctx, legs)

    director.provide(Script, provide, every_cycle=True, name="Script")
