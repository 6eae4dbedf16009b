"""The walk in the Director: Walk, WalkToward, StopWalk and KillWalk providers around one
:class:`~skills.walk.generator.WalkGenerator`.

How the walk fits the Director:

- ``Walk`` (every cycle) Needs ``LegsIK``: each cycle it advances the generator once and emits
  ``LegsIK`` with both sole poses, and the arm swing as *optional* ``LeftArm``/``RightArm``
  tasks, so any other task (a script, a wave) takes an arm without stopping the walk.
- ``WalkToward`` scales its shares by the gait's limits and emits a ``Walk``.
- ``WalkTo`` and ``WalkPath`` (``walk_to.py``, every cycle) emit a ``Walk`` towards a pose.
- **Stopping after a withdrawn walk.** When the Walk task stops running while a foot is off
  its stand place (withdrawn by its behaviour, or its emitter gone), its stop provider emits
  ``StopWalk`` from the walk skill's own emitter, just below the withdrawn walk's priority.
  StopWalk drives the same generator with a zero request until the feet are together, then is
  Done. So the robot is never left on one foot because a task vanished, a new Walk at the old
  priority takes over again at once, and any stronger task (a kick, a get-up, Freeze) still
  takes the legs whenever it wants.
- **Interruptions**: the generator is advanced at most once per cycle whoever asks; when a
  cycle passes without it (the legs were another task's), it starts again from the soles the
  servos are commanded to, through the walk stand.
- ``KillWalk`` stops stepping in the next cycle (the swing foot finishes its lift straight
  down where it is) and the walk holds until its request changes.
"""

from __future__ import annotations

from typing import Any

from director import Context, Director, RunReason
from lola_io.joints import JOINT_INDEX
from providers.actuation import JointCommand, LeftArm, LegsIK, RightArm, ServoTable
from skills.walk.arms import own_arm
from skills.walk.engine import WalkEngine
from skills.walk.footsteps import register_footsteps
from skills.walk.gaits import frequency_share
from skills.walk.params import GaitParameters, load_gait
from skills.walk.posture import WalkTargets
from skills.walk.request import ZERO
from skills.walk.tasks import KillWalk, StopWalk, Walk, WalkToward
from skills.walk.walk_to import register_walk_to

_NEW = (RunReason.NEW_TASK, RunReason.STARTED)
_LEFT_ARM = ("LShoulderPitch", "LShoulderRoll", "LElbowYaw", "LElbowRoll")
_RIGHT_ARM = ("RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll")
#: An arm further than this (rad, any joint) from the walk's own is being taken back from
#: another task's posture; the walk's own swing moves it at most about 0.06 rad a cycle.
_ARM_AWAY = 0.15
#: How fast (rad/s, the joint that moves most) the walk takes an arm back (docs: "Arms taken
#: back"): at the arm's own speed, two arms swinging down 1.5 rad in a quarter second as
#: the walk stopped pitched the robot forwards and it fell.
ARM_RETURN_SPEED = 1.5


def _emit_targets(ctx: Context, engine: WalkEngine, targets: WalkTargets) -> None:
    g = engine.gait
    ctx.emit(
        LegsIK(
            targets.left_sole,
            targets.right_sole,
            stiffness=engine.energy.leg_stiffness(g.leg_stiffness),
            left_weight=targets.left_weight,
        )
    )
    # A disabled arm is simply not in the pack: the Director removes its task and the arm
    # keeps its last target until some other task commands it.
    stiffness = engine.energy.arm_stiffness(g.arm_stiffness)
    arms = (
        (LeftArm, _LEFT_ARM, targets.left_arm, True),
        (RightArm, _RIGHT_ARM, targets.right_arm, False),
    )
    here = engine.commanded_now
    for on, (group, joints, (pitch, roll), left) in zip(engine.arms_enabled, arms, strict=True):
        if on:
            command = dict(zip(joints, own_arm(pitch, roll, left), strict=True))
            ctx.emit(group(_arm_command(command, stiffness, here)), optional=True)


def _arm_command(command: dict[str, float], stiffness: float, here: Any) -> JointCommand:
    """The walk's arm ``command``, taken back at ``ARM_RETURN_SPEED`` (a straight line,
    re-planned every cycle from where the arm has got to) when ``here`` (25 commanded
    angles) is far from it."""
    gap = max(abs(angle - float(here[JOINT_INDEX[name]])) for name, angle in command.items())
    if gap <= _ARM_AWAY:
        return JointCommand(command, stiffness)
    return JointCommand(command, stiffness, gap / ARM_RETURN_SPEED, "linear")


def register_walk(
    director: Director, servos: ServoTable, state: Any, gait: GaitParameters | None = None
) -> WalkEngine:
    """Register Walk, WalkToward, StopWalk, KillWalk, WalkTo and WalkPath on ``director``;
    the engine."""
    engine = WalkEngine(director, servos, state, gait if gait is not None else load_gait())
    # First: its every-cycle run emits the Walk, which then runs once in the same cycle.
    engine.move = register_walk_to(director, engine)
    register_footsteps(director, engine)

    def walk(ctx: Context) -> None:
        if ctx.reason is RunReason.SUBTASK_DONE and engine.ticked(ctx.now):
            # LegsIK finished this cycle's command; the next one comes with the next cycle.
            # (A SUBTASK_DONE that comes first in a cycle, e.g. an arm taken by another task,
            # is this cycle's run: the every-cycle trigger is skipped after it.)
            ctx.continue_()
            return
        task: Walk = ctx.task
        if ctx.reason in _NEW or task is not engine.request:
            if ctx.reason in _NEW:
                engine.cancel_stop()
            engine.set_request(task)
        _emit_targets(ctx, engine, engine.tick(ctx.now))

    def walk_stopped(ctx: Context) -> None:
        engine.request = None
        engine.generator.set_request(ZERO)
        engine.handover_stop(ctx.priority)

    def walk_toward(ctx: Context) -> None:
        t: WalkToward = ctx.task
        g = t.gait if t.gait is not None else engine.base_gait
        scale = frequency_share(t.frequency)
        forward = t.x * (g.max_forward if t.x >= 0 else g.max_backward) * scale
        ctx.emit(
            Walk(
                forward,
                t.y * g.max_left * scale,
                t.theta * g.max_turn * scale,
                frequency=t.frequency,
                gait=t.gait,
                left_gait=t.left_gait,
                right_gait=t.right_gait,
            )
        )

    def stop_walk(ctx: Context) -> None:
        if ctx.reason is RunReason.SUBTASK_DONE and engine.ticked(ctx.now):
            ctx.continue_()
            return
        engine.generator.set_request(ZERO)
        targets = engine.tick(ctx.now)
        if engine.standing():
            ctx.done()
            return
        _emit_targets(ctx, engine, targets)

    def kill_walk(ctx: Context) -> None:
        engine.kill()
        ctx.done()

    director.provide(Walk, walk, needs=LegsIK, every_cycle=True, name="Walk")
    director.provide(Walk, walk_stopped, kind="stop", name="Walk.stop")
    director.provide(WalkToward, walk_toward, needs=Walk, name="WalkToward")
    director.provide(StopWalk, stop_walk, needs=LegsIK, every_cycle=True, name="StopWalk")
    director.provide(KillWalk, kill_walk, name="KillWalk")
    return engine


__all__ = ["register_walk"]
