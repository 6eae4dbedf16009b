"""The walk's body every cycle: the posture a speed calls for, the filtered sensors its balance
reads, and the sole targets that result.

The step planner (``skills.walk.generator``) says where the feet are in the upright hip frame
``H``; this module turns that into what the leg IK is given: the torso's lean, the centre of
mass moved over the feet, the hips' sway (towards the swing foot, as shipped), the balance
offsets (``skills.walk.balance``) of each foot's role and the hip pitch's load compensation
(``providers.model.statics``), as sole poses in the torso frame.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

from lola_io.joints import LEG_INDICES
from providers.model.statics import LEG_CHAINS, SERVO_STIFFNESS, nao_leg_statics
from skills.walk.arms import SHOULDER_PITCH
from skills.walk.balance import balance_offsets
from skills.walk.params import GaitParameters, between, share_of
from skills.walk.request import Velocity
from skills.walk.soles import SoleGeometry
from skills.walk.step import Foot

#: The feet carry the robot when their FSRs sum to more than this (kg): the runtime's contact
#: threshold for one foot.
LOADED_KG = 0.3
#: Share of the new FSR load share taken each cycle (a 12 ms cycle: about 20 ms to settle).
LOAD_FILTER = 0.5
_LEG_INDICES = np.array(LEG_INDICES)
_LEFT_HIP_PITCH = LEG_CHAINS[0].index("LHipPitch")
_RIGHT_HIP_PITCH = 6 + LEG_CHAINS[1].index("RHipPitch")


@attrs.frozen
class WalkTargets:
    """One cycle's output: sole poses (4x4, torso frame), whose hip yaw-pitch request wins,
    and the arms' shoulder pitch and roll (left, right)."""

    left_sole: np.ndarray
    right_sole: np.ndarray
    left_weight: float
    left_arm: tuple[float, float]
    right_arm: tuple[float, float]


@attrs.frozen
class WalkPosture:
    """What a forward speed asks of the body: the torso's lean (rad), how far the centre of
    mass is moved ahead of the feet (m, the energy-saving stand's trim included), the
    speed's share of the gait's forward limit (0 in place or backwards, 1 at full speed), the
    hips' sway (m, ``hip_sway``; none walking backwards), how much of a straight sideways
    walk at full speed this is (``sideways_share``), the support hip's sag compensation
    (rad: ``sag_hip_roll``, ``sag_hip_roll_forward`` at full speed), and the share of the hip
    pitch's static load commanded away (``load_hip_pitch``, ``load_hip_pitch_forward``)."""

    lean: float
    com: float
    forward_share: float
    sway: float
    side_share: float = 0.0
    sag: float = 0.0
    load: float = 0.0


def posture(
    gait: GaitParameters,
    forward: float,
    stand_trim: float = 0.0,
    left: float = 0.0,
    turn: float = 0.0,
    stand_lean: float = 0.0,
) -> WalkPosture:
    """The posture for a forward speed (m/s): the offsets move from their in-place values to
    their full-speed ones with the forward share, the lean with its square; backwards, the
    offset moves to its own.
    ``left`` (m/s) and ``turn`` (rad/s) only set ``side_share``; ``stand_trim`` (m) and
    ``stand_lean`` (rad) are the energy-saving stand's offsets."""
    if forward >= 0.0:
        share = share_of(forward, gait.max_forward)
        com = between(gait.com_offset, gait.com_offset_forward, share)
        sway = gait.hip_sway
    else:
        share = 0.0
        com = between(gait.com_offset, gait.com_offset_backward, -forward / gait.max_backward)
        # The sway towards the swing foot made backward walks slower on weak bodies (docs:
        # "The hips lean into the swing"): walking backwards the hips do not sway.
        sway = 0.0
    # The lean grows with the square of the speed: at full speed the hip pitch's load
    # compensation needs it (docs: "the hip pitch's load commanded away"), at half speed a
    # torso leaning that far fell to pushes from behind.
    lean = gait.torso_lean + gait.torso_lean_forward * share * share + stand_lean
    side = sideways_share(gait, forward, left, turn)
    sag = between(gait.sag_hip_roll, gait.sag_hip_roll_forward, share)
    load = between(gait.load_hip_pitch, gait.load_hip_pitch_forward, share)
    return WalkPosture(lean, com + stand_trim, share, sway, side, sag, load)


def step_posture(
    gait: GaitParameters,
    executed: Velocity,
    target: Velocity,
    *,
    footsteps: bool,
    trim: float,
    stand_lean: float,
    lining_up: bool,
) -> WalkPosture:
    """The walk's posture for a step at ``executed`` (the request ``target``), or the in-place
    one while making ``footsteps``; ``trim`` (m) moves the centre of mass forwards (the
    saving stand's trim less the held arms' shift), ``lining_up``: an in-walk kick is being
    lined up (its placing plans from the in-place compensations)."""
    # A footstep's velocity is its placement over its period, from one step to the next
    # with no ratchet (0.3 m/s, then 0, then backwards): the posture would jump at every
    # step. A first footstep of 6 cm landed 1.8 cm off and turned 4 degrees so, and 0.9 cm
    # and 0.2 degrees with the in-place posture.
    if footsteps:
        # Nor do footsteps sway: with it the worst of bench navigate's landed 2.7 cm off,
        # not 2.4, and turned 2.5 degrees, not 2.1.
        return attrs.evolve(posture(gait, 0.0, trim, stand_lean=stand_lean), sway=0.0)
    # The sideways span of the sag compensation is for a walk that goes on sideways: a
    # stop's steps keep the planned one (``stop_pose`` predicts them by their plan).
    left = min(abs(executed.left), abs(target.left))
    pose = posture(gait, executed.forward, trim, left, executed.turn, stand_lean)
    if lining_up:
        pose = attrs.evolve(pose, sag=gait.sag_hip_roll, load=gait.load_hip_pitch)
    return pose


def sideways_share(gait: GaitParameters, forward: float, left: float, turn: float) -> float:
    """How much of a straight sideways walk at full speed a velocity is: the sideways speed's
    share of its limit, less as much as it turns or goes forwards or backwards (those steps
    turned less than the stop's plan predicts with the sideways sag span, docs)."""
    top = gait.max_forward if forward >= 0.0 else gait.max_backward
    side = share_of(left, gait.max_left) * (1.0 - share_of(turn, gait.max_turn))
    return side * (1.0 - share_of(forward, top))


class BodySense:
    """The sensors the walk's balance reads, filtered: the gyro's roll and pitch rates (a
    first-order low-pass, ``gyro_filter``), the torso's roll and pitch, and the pitch's error
    from the lean averaged over about a step (for ``catch_pitch``). A broken reading keeps
    the last good one: the feedback must never turn NaN."""

    def __init__(self) -> None:
        self.gyro_x = 0.0
        self.gyro_y = 0.0
        self.roll = 0.0
        self.pitch = 0.0
        self.pitch_error_mean = 0.0
        #: The share of the weight on the left foot (FSR, low-passed) and whether the feet
        #: carry the robot.
        self.left_share = 0.5
        self.loaded = True
        # This cycle's measured and commanded joints (25 each; None until a sense has them),
        # read only when a load is compensated.
        self._measured: np.ndarray | None = None
        self._commanded: np.ndarray | None = None

    def update(self, sense: Any, gait: GaitParameters, lean: float, commanded: Any = None) -> None:
        """Read one cycle's ``sense`` (``gyro`` (3, rad/s), ``roll``, ``pitch`` (rad), and if
        it has them ``fsr`` (8, kg) and ``position`` (25, rad)); ``lean`` is the posture's,
        from which the pitch error is measured; ``commanded``: the joints' commanded angles
        (25, LoLA order), whose legs stand for the posture the load is computed on."""
        a = gait.gyro_filter
        self.gyro_x = a * self.gyro_x + (1.0 - a) * finite(sense.gyro[0], 0.0)
        self.gyro_y = a * self.gyro_y + (1.0 - a) * finite(sense.gyro[1], 0.0)
        self.roll = finite(sense.roll, self.roll)
        self.pitch = finite(sense.pitch, self.pitch)
        self.pitch_error_mean += 0.1 * (self.pitch - lean - self.pitch_error_mean)
        fsr = getattr(sense, "fsr", None)
        if fsr is not None:
            left, total = float(fsr[:4].sum()), float(fsr.sum())
            self.loaded = math.isfinite(total) and total > LOADED_KG
            if self.loaded:
                share = min(1.0, max(0.0, left / total))
                self.left_share += LOAD_FILTER * (share - self.left_share)
        position = getattr(sense, "position", None)
        if position is not None:
            self._measured = np.asarray(position, dtype=np.float64)
        self._commanded = None if commanded is None else np.asarray(commanded, dtype=np.float64)

    def _posture(self) -> np.ndarray | None:
        """The posture the legs' load is computed on: the legs as commanded (what the walk
        asks for, a cycle old; the measured legs lag by the servos' delay and have given way
        already), the rest as measured. None without a finite measurement."""
        if self._measured is None or not np.all(np.isfinite(self._measured)):
            return None
        q = self._measured.copy()
        if self._commanded is not None:
            legs = self._commanded[_LEG_INDICES]
            if np.all(np.isfinite(legs)):
                q[_LEG_INDICES] = legs
        return q

    def hip_pitch_loads(self, gait: GaitParameters, gain: float) -> tuple[float, float]:
        """The hip pitch offsets (rad, left and right) that command away ``gain`` of the
        servos' give under the legs' static load now; 0 before a measurement."""
        q = None if gain == 0.0 else self._posture()
        if q is None:
            return 0.0, 0.0
        torques = nao_leg_statics().torques(q, self.left_share, self.loaded)
        scale = gain / (SERVO_STIFFNESS * max(gait.leg_stiffness, 0.1))
        return scale * float(torques[_LEFT_HIP_PITCH]), scale * float(torques[_RIGHT_HIP_PITCH])


def walk_targets(
    gait: GaitParameters,
    geometry: SoleGeometry,
    feet: tuple[Foot, Foot],
    body: BodySense,
    pose: WalkPosture,
    *,
    swing_left: bool,
    step_share: float | None,
    stand_raise: float = 0.0,
    stand_high: float = 0.0,
) -> WalkTargets:
    """The soles and arms for feet at ``feet`` (left, right; frame ``H``). ``step_share`` is
    how far through its step the walk is (0..1), or None when both feet carry the robot."""
    sway = single_support = 0.0
    if step_share is not None:
        # Walking sideways the support hip's sag compensation lasts longer than the period
        # (``sag_periods_side``): the body rocks back onto the swing foot later than planned.
        sag_span = between(1.0, gait.sag_periods_side, pose.side_share)
        single_support = math.sin(math.pi * min(1.0, step_share / sag_span))
        # The hips sway over the support foot (or, negative, towards the swing foot): the feet
        # move the other way. The sway lasts ``sway_periods``, not the period: steps last
        # longer than planned (the swing foot lands when the body has rocked back).
        s = min(1.0, step_share / gait.sway_periods)
        sway = pose.sway * math.sin(math.pi * s) * (1.0 if swing_left else -1.0)
    both = step_share is None
    stance = geometry.hip_y + gait.foot_spread
    soles = []
    loads = body.hip_pitch_loads(gait, pose.load)
    for foot, side, support, load in (
        (feet[0], stance, not swing_left, loads[0]),
        (feet[1], -stance, swing_left, loads[1]),
    ):
        hip, ankle = balance_offsets(
            gait,
            support=both or support,
            left=side > 0.0,
            single_support=single_support,
            gyro_x=body.gyro_x,
            gyro_y=body.gyro_y,
            roll=body.roll,
            pitch_error=body.pitch - pose.lean,
            forward_share=pose.forward_share,
            side_share=pose.side_share,
            sag=pose.sag,
        )
        hip = (hip[0] + load, hip[1])
        sole = geometry.pose(
            foot.x - pose.com,
            foot.y + sway,
            foot.yaw,
            foot.z,
            stance=side,
            hip_height=gait.hip_height + stand_raise,
            lean=pose.lean,
            hip=hip,
            ankle=ankle,
            straighten=stand_high,
        )
        soles.append(sole)
    weight = 0.5 if both else (0.0 if swing_left else 1.0)
    return WalkTargets(
        soles[0],
        soles[1],
        weight,
        (SHOULDER_PITCH + gait.arm_swing * feet[0].x, gait.arm_roll),
        (SHOULDER_PITCH + gait.arm_swing * feet[1].x, -gait.arm_roll),
    )


def finite(value: Any, fallback: float) -> float:
    """``value`` as a float, or ``fallback`` if it is not finite."""
    value = float(value)
    return value if math.isfinite(value) else fallback


__all__ = [
    "BodySense",
    "WalkPosture",
    "WalkTargets",
    "finite",
    "posture",
    "sideways_share",
    "walk_targets",
]
