"""Sequence providers: play JointCommands one after another on one group.

Each sequence type Needs its group and emits ``Group(frames[i])``; when that group command is
Done it emits the next one. After the last it answers Done and keeps the last command (the
servos hold their targets) until its parent removes it.

A sequence that (re)starts for any reason other than SUBTASK_DONE (a new task, or being granted
again after losing its group or a servo under it: the Director revokes a provider that loses a
group it Needs) plays from its first frame: the robot may have moved meanwhile, and the first
frame is the one written to start from anywhere.
"""

from __future__ import annotations

from director import Context, Director, RunReason
from providers.actuation.tasks import SEQUENCE_OF

_SUBTASK_DONE = RunReason.SUBTASK_DONE


class _Playing:
    """Which frame the one active task of a sequence group is on (one per sequence type:
    a group serves at most one task at a time)."""

    __slots__ = ("index", "task")

    def __init__(self) -> None:
        self.task: object = None
        self.index = 0


def _sequence_provider(group: type):
    playing = _Playing()

    def provide(ctx: Context) -> None:
        task = ctx.task
        if ctx.reason is _SUBTASK_DONE and playing.task is task:
            if not ctx.uses(group).done:
                ctx.continue_()
                return
            playing.index += 1
            if playing.index >= len(task.frames):
                playing.index = len(task.frames)
                ctx.done()
                return
        else:
            playing.task = task
            playing.index = 0
        ctx.emit(group(task.frames[playing.index]))

    provide.__name__ = f"{group.__name__.lower()}_sequence"
    return provide


def register_sequences(director: Director) -> None:
    """Register one sequence provider per group on ``director``."""
    for group, sequence in SEQUENCE_OF.items():
        director.provide(sequence, _sequence_provider(group), needs=group, name=sequence.__name__)
