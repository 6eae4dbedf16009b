"""Servo providers (one per LoLA joint) and group providers (Head ... Body).

A servo provider writes its task into the :class:`ServoTable` and waits out the duration; it
is Done when the duration has passed (at once for a zero duration). It writes nothing else
and allocates nothing, so a walk re-emitting servo tasks every cycle stays cheap.

A group provider Needs exactly its servos (not its sub-groups: one level of reservation is
cheaper every cycle than a chain Body → Limbs → Legs → LeftLeg, and arbitration is the same
because two groups conflict exactly when they share a servo). It emits one servo task per joint
its command names; the group's other servos stay reserved but keep their last target. It is
Done when every servo it commanded is.
"""

from __future__ import annotations

from director import Context, Director, RunReason
from lola_io.joints import JOINT_INDEX
from providers.actuation.servo_table import ServoTable
from providers.actuation.tasks import GROUP_JOINTS, GROUP_TYPES, SERVO_TASKS

_SUBTASK_DONE = RunReason.SUBTASK_DONE


def _servo_provider(servos: ServoTable, index: int):
    # Servo tasks validate their fields when made; the table need not check them again.
    command = servos.command_checked

    def servo(ctx: Context) -> None:
        if ctx.reason is _SUBTASK_DONE:
            # The only thing a servo waits for is its own deadline.
            ctx.done()
            return
        task = ctx.task
        now = ctx.now
        command(index, task.position, task.stiffness, now, task.duration, task.interpolation)
        if task.duration > 0.0:
            ctx.wait(now + task.duration)
        else:
            ctx.done()

    return servo


def _group_provider(group: type):
    def provide(ctx: Context) -> None:
        command = ctx.task.command
        if ctx.reason is _SUBTASK_DONE:
            uses = ctx.uses
            for name in command.positions:
                if not uses(SERVO_TASKS[name]).done:
                    ctx.continue_()
                    return
            ctx.done()
            return
        for servo_task in command.servo_tasks():
            ctx.emit(servo_task)

    provide.__name__ = group.__name__.lower()
    return provide


def register_servos_and_groups(director: Director, servos: ServoTable) -> None:
    """Register the 25 servo providers and the 9 group providers on ``director``."""
    for name, task_type in SERVO_TASKS.items():
        director.provide(task_type, _servo_provider(servos, JOINT_INDEX[name]), name=name)
    for group in GROUP_TYPES:
        needs = tuple(SERVO_TASKS[j] for j in GROUP_JOINTS[group])
        director.provide(group, _group_provider(group), needs=needs, name=group.__name__)
