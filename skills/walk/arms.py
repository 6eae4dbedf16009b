"""The arms another task holds, as the walk's balance sees them: how far they move the
centre of mass along the walk from where the walk's own arms would put it.

The walk's arm swing is optional (``skills.walk.providers``): a script or a behaviour may take
an arm, and with ``arms_enabled`` off the arms stay wherever a behaviour put them. Arms held
back (as SPL teams hold them near obstacles) move the centre of mass about a centimetre
behind where the gait's ``com_offset`` expects it; at full speed the walk fell over backwards
(docs: "Arms held by another task"). The walk moves its centre-of-mass offset by the shift.
"""

from __future__ import annotations

import numpy as np

from lola_io.joints import JOINT_INDEX
from providers.model import nao_kinematics

#: The walk's own elbow yaw and roll (left arm; the right one's are mirrored).
ELBOW_YAW, ELBOW_ROLL = 0.0, -0.035

_ARMS = (
    tuple(JOINT_INDEX[n] for n in ("LShoulderPitch", "LShoulderRoll", "LElbowYaw", "LElbowRoll")),
    tuple(JOINT_INDEX[n] for n in ("RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll")),
)


def own_arm(pitch: float, roll: float, left: bool) -> tuple[float, float, float, float]:
    """The walk's arm (shoulder pitch, shoulder roll, elbow yaw, elbow roll) for a shoulder
    ``pitch`` and ``roll`` (rad)."""
    sign = 1.0 if left else -1.0
    return pitch, roll, sign * ELBOW_YAW, sign * ELBOW_ROLL


def arm_com_shift(
    commanded: np.ndarray, own: tuple[tuple[float, float], tuple[float, float]] | None
) -> float:
    """How far (m, + forwards in the torso frame) the commanded arms move the whole body's
    centre of mass from where the walk's ``own`` arms (shoulder pitch and roll, left and
    right) would put it; 0 while the walk's arms are the commanded ones (or not yet known)."""
    if own is None:
        return 0.0
    # Every cycle, mostly with the walk's own arms: plain floats, not numpy, for the check.
    differing = []
    for left, indices, (pitch, roll) in zip((True, False), _ARMS, own, strict=True):
        walk_arm = own_arm(pitch, roll, left)
        if any(abs(float(commanded[i]) - w) > 1e-9 for i, w in zip(indices, walk_arm, strict=True)):
            differing.append((indices, walk_arm))
    if not differing or not np.all(np.isfinite(commanded)):
        return 0.0
    reference = np.array(commanded, dtype=np.float64)
    for indices, walk_arm in differing:
        reference[list(indices)] = walk_arm
    kinematics = nao_kinematics()
    return float(kinematics.center_of_mass(commanded)[0] - kinematics.center_of_mass(reference)[0])


__all__ = ["ELBOW_ROLL", "ELBOW_YAW", "arm_com_shift", "own_arm"]
