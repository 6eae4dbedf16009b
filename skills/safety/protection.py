"""Fall protection: when a fall is detected, brace the body as the public engines do, then let
it go soft before it lands (NAOqi's fall manager, rUNSWift's SafetySkill, B-Human's
FallEngine).

``FallProtect(direction)`` takes the whole body (it is emitted above every behaviour, below
Freeze, so the walk loses its legs and stops). It runs every cycle in stages:

1. **Brace** at once (:class:`Brace`, one per direction): falling forwards the arms reach
   forwards, the head tips back, the hips extend and the knees bend; backwards the arms reach
   down behind the hips, the chin goes to the chest and the hips fold to their limit with the
   knees straight (a pike: the seat lands first, and folding turns the torso forwards, so the
   back and the head arrive slowly; B-Human's engine sits down the same way); sideways the
   arms fold in front of the chest and the legs stay where they are, as they do falling from
   a crouch (both knees past ``CROUCHED_KNEE``: low already, straightened legs would lift
   it).
2. **Soft** once the torso tilts past the brace's ``soft_tilt`` (just before the impact):
   every joint at ``SOFT_STIFFNESS``, so the gears do not take it; arms and head stay braced,
   braced legs go back towards the angles they had when the fall began (held at the pike,
   the legs stayed pointing up, and a doubled-spread body's back get-up failed from there).
3. **Lie down**, if ``BRACE_TIME`` passes with no impact (the pike caught a gentle fall
   sitting on the seat, or the robot is propped up): the legs straighten, which lowers the
   torso onto the floor, and everything goes soft at the tilt or ``LIE_DOWN_TIME`` later;
   lying, the get-up takes over.

Why the legs: braced with the arms and head alone (naosim's arms are slower than a NAO's, see
docs/architecture.md) the head met the floor at 2.6-3.5 m/s falling forwards or backwards,
the torso diving head first over planted feet and bent hips. The leg poses, head pitches,
stiffnesses and soft tilts come from a CMA-ES search in naosim that minimised the head's
impact speed and force over pushed falls (standing and walking, three bodies); on three
other perturbed bodies the median head impact went 3.09 -> 1.88 m/s falling forwards and
2.97 -> 0.62 m/s backwards, and every robot got up.

It never ends by itself: the safety supervisor withdraws it when the robot lies still.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from director import Context, Director, RunReason
from lola_io.joints import JOINT_INDEX, JOINT_NAMES
from providers.actuation import GROUP_JOINTS, Body, JointCommand, Legs, ServoTable
from skills.safety.fall import FallDirection

#: Seconds after the start at which a brace that has not gone soft lies the robot down: the
#: impact is overdue, so the fall was caught (the back brace's pike catches a gentle fall on
#: the seat, sitting up) or the robot is propped on something. The legs straighten at
#: ``LIE_DOWN_STIFFNESS`` over ``LIE_DOWN_MOVE`` s, which lowers the torso onto the floor, and
#: everything goes soft at the tilt as before, or ``LIE_DOWN_TIME`` s later whatever the tilt.
BRACE_TIME = 0.8
LIE_DOWN_STIFFNESS = 0.6
LIE_DOWN_MOVE = 1.0
LIE_DOWN_TIME = 1.5
#: Stiffness of every joint when the robot lands.
SOFT_STIFFNESS = 0.1
#: Stiffness of the arms and head while bracing: enough to move them in time, not to fight the
#: fall.
ARM_BRACE_STIFFNESS = 0.8
#: Seconds to reach the brace pose (the joints move at up to their velocity limit).
BRACE_MOVE = 0.15

#: Without a leg brace (falling sideways, or from a crouch) the legs stay where they are at
#: ``LEGS_STAY_STIFFNESS`` and everything goes soft at the tilt ``STAY_SOFT_TILT`` or
#: ``BRACE_TIME`` after the start (nothing to lie down: the legs never moved).
LEGS_STAY_STIFFNESS = 0.3
STAY_SOFT_TILT = 1.0
#: Both knees folded past this (rad) when the fall starts: the robot crouches or sits (a
#: relaxed squat tipping back, say), low already, and straightening its legs would lift it:
#: no leg brace. (One folded knee is a step or a kick: the legs brace.)
CROUCHED_KNEE = 1.5

_LEGS = frozenset(GROUP_JOINTS[Legs])
_LIE_DOWN_JOINTS = ("HipRoll", "HipPitch", "KneePitch", "AnklePitch", "AnkleRoll")
_KNEES = (JOINT_INDEX["LKneePitch"], JOINT_INDEX["RKneePitch"])


@attrs.frozen
class Brace:
    """How the body meets a fall in one direction: the left arm's angles (shoulder pitch,
    shoulder roll, elbow yaw, elbow roll, wrist yaw; the right arm mirrors them), the head's
    pitch, both legs' hip, knee and ankle pitch (hip and ankle rolls at 0; ``None``: the legs
    stay where they are) at ``leg_stiffness``, and the torso tilt past which every joint goes
    soft (rad)."""

    arms: tuple[float, float, float, float, float]
    head_pitch: float
    legs: tuple[float, float, float] | None
    leg_stiffness: float = LEGS_STAY_STIFFNESS
    soft_tilt: float = STAY_SOFT_TILT

    def positions(self) -> dict[str, float]:
        """The brace's angles (LoLA names → rad): arms and head, and the legs when it moves
        them."""
        pitch, roll, elbow_yaw, elbow_roll, wrist = self.arms
        positions = {
            "HeadYaw": 0.0,
            "HeadPitch": self.head_pitch,
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
        if self.legs is not None:
            hip, knee, ankle = self.legs
            angles = {"HipRoll": 0.0, "HipPitch": hip, "KneePitch": knee, "AnklePitch": ankle}
            angles["AnkleRoll"] = 0.0
            for side in "LR":
                positions.update({side + joint: a for joint, a in angles.items()})
        return positions

    def legs_staying(self) -> Brace:
        """This brace with the legs left where they are."""
        return attrs.evolve(
            self, legs=None, leg_stiffness=LEGS_STAY_STIFFNESS, soft_tilt=STAY_SOFT_TILT
        )


_BRACES: dict[FallDirection, Brace] = {
    # Arms forward and a little down, elbows slightly bent to give on impact; head back. The
    # hips extend and the knees bend, so the thighs and chest meet the floor with the head
    # still up (with the walk's bent hips and the feet planted the torso dived head first).
    FallDirection.FRONT: Brace((0.2, 0.25, 0.0, -0.5, 0.0), -0.65, (0.4, 0.5, 0.25), 0.9, 1.5),
    # Chin to the chest, arms down behind the hips. The hips fold to their limit with the
    # knees straight (a pike): the seat lands first and the folding turns the torso forwards,
    # so the back and head arrive slowly.
    FallDirection.BACK: Brace((2.0, 0.3, 0.0, -0.8, 0.0), 0.48, (-1.5, 0.0, -1.0), 1.0, 1.5),
    # Forearms folded in front of the chest; a shoulder and arm take the impact, the head
    # meets the floor slowly already.
    FallDirection.LEFT: Brace((0.6, 0.0, -1.5, -1.4, 0.0), 0.3, None),
    FallDirection.RIGHT: Brace((0.6, 0.0, -1.5, -1.4, 0.0), 0.3, None),
}


def _direction(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if not isinstance(value, FallDirection):
        raise TypeError(f"direction must be a FallDirection, got {value!r}")


@attrs.frozen
class FallProtect:
    """Brace for a fall in ``direction``, then go soft before the impact."""

    direction: FallDirection = attrs.field(validator=_direction)


def brace_for(direction: FallDirection) -> Brace:
    """The brace the protection takes for a fall in ``direction``."""
    return _BRACES[direction]


def brace_at_start(direction: FallDirection, position: Any) -> Brace:
    """The brace for a fall in ``direction`` starting at the joint angles ``position``: the
    direction's, without its legs when the robot crouches (``CROUCHED_KNEE``)."""
    brace = _BRACES[direction]
    knees = [float(position[i]) for i in _KNEES]
    crouched = all(math.isfinite(k) and k > CROUCHED_KNEE for k in knees)
    return brace.legs_staying() if crouched and brace.legs is not None else brace


class _Protection:
    __slots__ = ("brace", "legs_before", "lying_down", "soft", "started", "task")

    def __init__(self) -> None:
        self.task: object = None
        self.brace: Brace | None = None
        self.legs_before: dict[str, float] = {}
        self.started = 0.0
        self.soft = False
        self.lying_down = False


def register_fall_protection(director: Director, servos: ServoTable, state: Any) -> None:
    """Register the FallProtect provider (``state.tilt`` and ``state.position`` are read)."""
    run = _Protection()

    def command(ctx: Context, stage: str) -> None:
        brace = run.brace
        braced = brace.positions()
        if stage == "lie down":
            braced.update({f"{side}{joint}": 0.0 for side in "LR" for joint in _LIE_DOWN_JOINTS})
        elif stage == "soft" and brace.legs is not None:
            # Off the brace (held, the pike's legs pointed up), also once laid down: knees
            # bent is where the back get-up starts (kept straight, a doubled-spread body's
            # first attempt failed from there).
            braced.update(run.legs_before)
        positions, stiffness = {}, {}
        for i, name in enumerate(JOINT_NAMES):
            if name in braced:
                positions[name] = braced[name]
            else:
                # What the brace leaves (the hands, and the legs without a leg brace) stays
                # where it is: folding it is the floor's job.
                angle = float(state.position[i])
                positions[name] = angle if math.isfinite(angle) else servos.target(i)
            if stage == "soft":
                stiffness[name] = SOFT_STIFFNESS
            elif name not in _LEGS:
                stiffness[name] = ARM_BRACE_STIFFNESS
            elif stage == "lie down":
                stiffness[name] = LIE_DOWN_STIFFNESS
            else:
                stiffness[name] = brace.leg_stiffness
        move = LIE_DOWN_MOVE if stage == "lie down" else BRACE_MOVE
        ctx.emit(Body(JointCommand(positions, stiffness, move)))

    def protect(ctx: Context) -> None:
        if ctx.reason in (RunReason.NEW_TASK, RunReason.STARTED) or run.task is not ctx.task:
            run.task, run.started, run.soft, run.lying_down = ctx.task, ctx.now, False, False
            run.brace = brace_at_start(ctx.task.direction, state.position)
            run.legs_before = {
                name: float(state.position[i])
                for i, name in enumerate(JOINT_NAMES)
                if name in _LEGS and math.isfinite(float(state.position[i]))
            }
            command(ctx, "brace")
            return
        if run.soft:
            ctx.continue_()
            return
        since = ctx.now - run.started
        overdue = since >= BRACE_TIME + (LIE_DOWN_TIME if run.brace.legs is not None else 0.0)
        if float(state.tilt) > run.brace.soft_tilt or overdue:
            run.soft = True
            command(ctx, "soft")
        elif since >= BRACE_TIME and not run.lying_down:
            run.lying_down = True
            command(ctx, "lie down")
        else:
            ctx.continue_()

    director.provide(FallProtect, protect, every_cycle=True, name="FallProtect")
