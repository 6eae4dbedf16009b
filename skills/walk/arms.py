"""The arms another task holds, as the walk's balance sees them: how far they move the
centre of mass along the walk from where the walk's own arms would put it.

The walk's arm swing is optional (``skills.walk.providers``): a script or a behaviour may take
an arm, and with ``arms_enabled`` off the arms stay wherever a behaviour put them. Arms held
back (as SPL teams hold them near obstacles) move the centre of mass about a centimetre
behind where the gait's ``com_offset`` expects it; at full speed the walk fell over backwards
(docs: "Arms held by another task"). The walk moves its centre-of-mass offset by the shift.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from providers.model import nao_kinematics

#: The walk's arms hang at this shoulder pitch (rad) in the middle of their swing.
SHOULDER_PITCH = math.pi / 2.0
#: The walk's own elbow yaw and roll (left arm; the right one's are mirrored).
ELBOW_YAW, ELBOW_ROLL = 0.0, -0.035
#: Arm angles are compared to 0.01 rad (the centre of mass to 0.1 mm): arms on their way are
#: weighed where they are, a new posture every cycle, and each costs two whole-body centres of
#: mass (to the milliradian, `bench cycle` p50 0.44 -> 0.50 ms).
_RESOLUTION = 2

_ARMS = (
    tuple(JOINT_INDEX[n] for n in ("LShoulderPitch", "LShoulderRoll", "LElbowYaw", "LElbowRoll")),
    tuple(JOINT_INDEX[n] for n in ("RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll")),
)

Arm = tuple[float, float, float, float]


def own_arm(pitch: float, roll: float, left: bool) -> Arm:
    """The walk's arm (shoulder pitch, shoulder roll, elbow yaw, elbow roll) for a shoulder
    ``pitch`` and ``roll`` (rad)."""
    sign = 1.0 if left else -1.0
    return pitch, roll, sign * ELBOW_YAW, sign * ELBOW_ROLL


def arm_com_shift(
    commanded: np.ndarray,
    own: tuple[tuple[float, float], tuple[float, float]] | None,
    roll: float,
) -> float:
    """How far (m, + forwards in the torso frame) the commanded arms move the whole body's
    centre of mass from where the walk's arms would put it, hanging at its shoulder ``roll``
    (the middle of its swing, which the gait was tuned with); 0 for an arm that is the walk's
    ``own`` (shoulder pitch and roll, left and right, as it last commanded them). Each arm's
    shift is kept per posture (to the milliradian): a held arm costs it once."""
    if own is None:
        return 0.0
    shift = 0.0
    # Every cycle, mostly with the walk's own arms: plain floats, not numpy, for the check.
    for left, indices, (pitch, own_roll) in zip((True, False), _ARMS, own, strict=True):
        arm = tuple(float(commanded[i]) for i in indices)
        walk_arm = own_arm(pitch, own_roll, left)
        if all(abs(a - w) <= 1e-9 for a, w in zip(arm, walk_arm, strict=True)):
            continue
        if not all(math.isfinite(a) for a in arm):
            continue
        held = tuple(round(a, _RESOLUTION) for a in arm)
        hanging = own_arm(SHOULDER_PITCH, roll if left else -roll, left)
        shift += _arm_shift(left, held, hanging)
    return shift


@functools.lru_cache(maxsize=256)
def _arm_shift(left: bool, arm: Arm, reference: Arm) -> float:
    # An arm's links move with its own joints only (torso frame): the rest of the body is
    # the same in both postures and drops out of the difference.
    kinematics = nao_kinematics()
    q = np.zeros(NUM_JOINTS)
    indices = list(_ARMS[0 if left else 1])
    q[indices] = arm
    held = kinematics.center_of_mass(q)[0]
    q[indices] = reference
    return float(held - kinematics.center_of_mass(q)[0])


__all__ = ["ELBOW_ROLL", "ELBOW_YAW", "SHOULDER_PITCH", "arm_com_shift", "own_arm"]
