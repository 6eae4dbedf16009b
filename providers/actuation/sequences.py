"""Sequence providers: play JointCommands one after another on one group.

Each sequence type Needs its group and emits ``Group(frames[i])``; when that group command is
Done (and, with an ``arrival``, the measured joints have caught up: ``arrival.py``) it emits
the next one. After the last it answers Done and keeps the last command (the
servos hold their targets) until its parent removes it.

A sequence that (re)starts for any reason other than SUBTASK_DONE (a new task, or being granted
again after losing its group or a servo under it: the Director revokes a provider that loses a
group it Needs) plays from its first frame: the robot may have moved meanwhile, and the first
frame is the one written to start from anywhere.
"""

from __future__ import annotations

from typing import Any

from director import Context, Director, RunReason
from providers.actuation.arrival import ArrivalWait
from providers.actuation.tasks import SEQUENCE_OF

_SUBTASK_DONE = RunReason.SUBTASK_DONE


class _Playing:
    """Which frame the one active task of a sequence group is on (one per sequence type:
    a group serves at most one task at a time)."""

    __slots__ = ("arrival", "index", "task")

    def __init__(self) -> None:
        self.task: object = None
        self.index = 0
        self.arrival: ArrivalWait | None = None


def _sequence_provider(group: type, state: Any):
    playing = _Playing()

    def provide(ctx: Context) -> None:
        task = ctx.task
        if ctx.reason is _SUBTASK_DONE and playing.task is task:
            if not ctx.uses(group).done:
                ctx.continue_()
                return
            arrival = task.arrival
            if (
                arrival is not None
                and arrival.waits_after(playing.index)
                and _still_arriving(ctx, task, playing, state)
            ):
                return
            playing.arrival = None
            playing.index += 1
            if playing.index >= len(task.frames):
                playing.index = len(task.frames)
                ctx.done()
                return
        else:
            playing.task = task
            playing.index = 0
            playing.arrival = None
        ctx.emit(group(task.frames[playing.index]))

    provide.__name__ = f"{group.__name__.lower()}_sequence"
    return provide


def _still_arriving(ctx: Context, task: Any, playing: _Playing, state: Any) -> bool:
    """After a frame's duration: keep it (and run again next cycle) while its joints are
    still catching up."""
    now = ctx.now
    if playing.arrival is None:
        positions = task.frames[playing.index].positions
        playing.arrival = ArrivalWait(task.arrival, positions, now)
    if not playing.arrival.waiting(state.position, now):
        return False
    ctx.continue_()
    # Any deadline in the future runs this again in the next cycle.
    ctx.wait(now + 1e-3)
    return True


def register_sequences(director: Director, state: Any) -> None:
    """Register one sequence provider per group on ``director``; ``state.position`` (measured
    angles) is what a sequence with an ``arrival`` waits on."""
    for group, sequence in SEQUENCE_OF.items():
        director.provide(
            sequence, _sequence_provider(group, state), needs=group, name=sequence.__name__
        )
