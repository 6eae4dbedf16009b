"""Fall protection: when a fall is detected, place the arms and head as the public engines do,
then let the body go soft before it lands (NAOqi's fall manager, rUNSWift's SafetySkill).

``FallProtect(direction)`` takes the whole body (it is emitted above every behaviour, below
Freeze, so the walk loses its legs and stops). It runs every cycle in two stages:

1. **Brace** at once: falling forwards the arms reach forwards and the head tips back (the
   hands, not the face, meet the floor); backwards the arms reach down behind the hips and the
   chin goes to the chest (the head must not whip into the floor); sideways the arms fold in
   front of the chest so the robot does not land on an arm. The legs stay where they are at a
   low stiffness, as the knees fold under the load.
2. **Soft** just before the impact (the tilt past ``IMPACT_TILT``, or ``BRACE_TIME`` after the
   start, whichever comes first): every joint at ``SOFT_STIFFNESS`` in the braced pose, so the
   gears do not take the impact.

It never ends by itself: the safety supervisor withdraws it when the robot lies still.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from director import Context, Director, RunReason
from lola_io.joints import JOINT_NAMES
from providers.actuation import GROUP_JOINTS, Body, JointCommand, Legs, ServoTable
from skills.safety.fall import FallDirection

#: Torso tilt (rad) past which the impact is due within a few cycles: go soft.
IMPACT_TILT = 1.0
#: Seconds after the start at which the body goes soft whatever the tilt says.
BRACE_TIME = 0.35
#: Stiffness of every joint when the robot lands.
SOFT_STIFFNESS = 0.1
#: Stiffness while bracing: enough to move the arms in time, not to fight the fall.
ARM_BRACE_STIFFNESS = 0.8
LEG_BRACE_STIFFNESS = 0.3
#: Seconds to reach the brace pose (the arms move at up to their velocity limit).
BRACE_MOVE = 0.15

_LEGS = frozenset(GROUP_JOINTS[Legs])

# Brace poses (rad), mirrored for the right arm: shoulder pitch, shoulder roll, elbow yaw,
# elbow roll, wrist yaw; then the head pitch.
_BRACES: dict[FallDirection, tuple[tuple[float, float, float, float, float], float]] = {
    # Arms forward and a little down, elbows slightly bent to give on impact.
    FallDirection.FRONT: ((0.2, 0.25, 0.0, -0.5, 0.0), -0.5),
    # Arms down behind the hips, elbows bent: the forearms meet the floor before the head.
    FallDirection.BACK: ((2.0, 0.3, 0.0, -0.8, 0.0), 0.45),
    # Forearms folded in front of the chest.
    FallDirection.LEFT: ((0.6, 0.0, -1.5, -1.4, 0.0), 0.3),
    FallDirection.RIGHT: ((0.6, 0.0, -1.5, -1.4, 0.0), 0.3),
}


def _direction(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if not isinstance(value, FallDirection):
        raise TypeError(f"direction must be a FallDirection, got {value!r}")


@attrs.frozen
class FallProtect:
    """Brace for a fall in ``direction``, then go soft before the impact."""

    direction: FallDirection = attrs.field(validator=_direction)


def brace_positions(direction: FallDirection) -> dict[str, float]:
    """The arm and head angles of the brace for ``direction`` (LoLA names → rad)."""
    (pitch, roll, elbow_yaw, elbow_roll, wrist), head_pitch = _BRACES[direction]
    return {
        "HeadYaw": 0.0,
        "HeadPitch": head_pitch,
        "LShoulderPitch": pitch,
        "LShoulderRoll": roll,
        "LElbowYaw": elbow_yaw,
        "LElbowRoll": elbow_roll,
        "LWristYaw": wrist,
        "RShoulderPitch": pitch,
        "RShoulderRoll": -roll,
        "RElbowYaw": -elbow_yaw,
        "RElbowRoll": -elbow_roll,
        "RWristYaw": -wrist,
    }


class _Protection:
    __slots__ = ("soft", "started", "task")

    def __init__(self) -> None:
        self.task: object = None
        self.started = 0.0
        self.soft = False


def register_fall_protection(director: Director, servos: ServoTable, state: Any) -> None:
    """Register the FallProtect provider (``state.tilt`` and ``state.position`` are read)."""
    run = _Protection()

    def command(ctx: Context, soft: bool) -> None:
        braced = brace_positions(ctx.task.direction)
        positions, stiffness = {}, {}
        for i, name in enumerate(JOINT_NAMES):
            if name in braced:
                positions[name] = braced[name]
            else:
                # Legs and hands stay where they are: folding them is the floor's job.
                angle = float(state.position[i])
                positions[name] = angle if math.isfinite(angle) else servos.target(i)
            if soft:
                stiffness[name] = SOFT_STIFFNESS
            elif name in _LEGS:
                stiffness[name] = LEG_BRACE_STIFFNESS
            else:
                stiffness[name] = ARM_BRACE_STIFFNESS
        ctx.emit(Body(JointCommand(positions, stiffness, BRACE_MOVE)))

    def protect(ctx: Context) -> None:
        if ctx.reason in (RunReason.NEW_TASK, RunReason.STARTED) or run.task is not ctx.task:
            run.task, run.started, run.soft = ctx.task, ctx.now, False
            command(ctx, soft=False)
            return
        due = ctx.now - run.started >= BRACE_TIME or float(state.tilt) > IMPACT_TILT
        if due and not run.soft:
            run.soft = True
            command(ctx, soft=True)
            return
        ctx.continue_()

    director.provide(FallProtect, protect, every_cycle=True, name="FallProtect")
