"""From a foot's offsets to the sole pose the leg IK takes (4x4, torso frame).

The walk plans each foot as offsets from its place under the hip in an upright frame ``H`` at
the middle of the hip joints: forward ``x``, sideways ``y``, ``yaw``, lift ``z``. Here those
become a sole pose in the torso frame, which leans forward by the gait's lean, with small
balance rotations added: about the hip (the whole leg turns, as a hip pitch or roll offset
would) and about the ankle (the sole turns, as an ankle offset would). Both are rotations of
the target, so the leg IK carries them out exactly.
"""

from __future__ import annotations

import math

import numpy as np

from providers.model import NaoModel, load_nao_model
from providers.model.transforms import rotation_x, rotation_y, rotation_z

#: How much shorter (m) than its full length the high stand's leg is: the knee bent 0.06 rad,
#: as B-Human's 0.1 mm leaves it, not at the singular straight leg.
STRAIGHT_MARGIN = 1e-4


class SoleGeometry:
    """The NAO's numbers the sole poses need: hips, sole height, heel."""

    def __init__(self, model: NaoModel | None = None) -> None:
        model = model or load_nao_model()
        hip = model.joints["LHipYawPitch"].origin_xyz
        self.hip_y = float(hip[1])
        self.hip_z = float(hip[2])
        self.sole_height = model.foot.sole_height
        #: Hip to ankle with the knee straight (m).
        knee, ankle = model.joints["LKneePitch"], model.joints["LAnklePitch"]
        self.leg_length = -float(knee.origin_xyz[2] + ankle.origin_xyz[2])
        self.heel_rear = model.foot.rear
        self.sole_front = model.foot.front
        self.heel_inner = model.foot.inner
        self.foot_outer = model.foot.outer

    def heel_shift(self, yaw: float) -> float:
        """How far (m) a foot turned by ``yaw`` is moved outwards: a foot that toes out swings
        its heel inwards, and moved out by as much the heels never meet however far the walk
        turns."""
        return self.heel_rear * abs(math.sin(yaw)) + self.heel_inner * (1.0 - math.cos(yaw))

    def pose(
        self,
        x: float,
        y: float,
        yaw: float,
        z: float,
        *,
        stance: float,
        hip_height: float,
        lean: float,
        hip: tuple[float, float] = (0.0, 0.0),
        ankle: tuple[float, float] = (0.0, 0.0),
        straighten: float = 0.0,
    ) -> np.ndarray:
        """The sole pose (4x4, torso frame) of a foot ``x, y, yaw, z`` off its place.

        ``stance``: the place's lateral distance from the hip centre (m, + left); ``hip`` and
        ``ankle``: (pitch, roll) offsets in rad; ``straighten`` (0..1): how far the ankle is
        lowered from ``hip_height`` towards the leg's full length (the high stand).
        """
        side = 1.0 if stance > 0.0 else -1.0
        # The ankle in the upright hip frame H.
        ax, ay, az = x, stance + y + side * self.heel_shift(yaw), -hip_height + z + self.sole_height
        if straighten > 0.0:
            # Along a sine of the share (B-Human's high stand's): near a straight leg the knee
            # angle goes as the square root of the length missing, so a length changing at a
            # finite rate there would turn the knee infinitely fast. The hip offsets below
            # turn the leg about the hip and keep its length.
            across = ay - side * self.hip_y
            full = self.leg_length - STRAIGHT_MARGIN
            lowest = -math.sqrt(max(0.0, full * full - ax * ax - across * across))
            if lowest < az:
                az += (lowest - az) * math.sin(0.5 * math.pi * min(1.0, straighten))
        rot = rotation_z(yaw)
        hip_pitch, hip_roll = hip
        if hip_pitch or hip_roll:
            leg = rotation_y(hip_pitch) @ rotation_x(hip_roll)
            ax, ay, az = (leg @ np.array([ax, ay - stance, az])).tolist()
            ay += stance
            rot = leg @ rot
        rot = rot @ rotation_y(ankle[0]) @ rotation_x(ankle[1])
        # Into the leaning torso frame: p_T = Ry(-lean) p_H + hip centre (torso frame).
        tilt = rotation_y(-lean)
        position = tilt @ np.array([ax, ay, az])
        rot = tilt @ rot
        pose = np.eye(4)
        pose[:3, :3] = rot
        pose[:3, 3] = position - rot[:, 2] * self.sole_height
        pose[2, 3] += self.hip_z
        return pose


def blend_pose(a: np.ndarray, b: np.ndarray, k: float) -> np.ndarray:
    """``a`` moved towards ``b`` by share ``k``: position linearly, rotation along the
    shortest arc (a proper rotation, so the IK gets one)."""
    if k >= 1.0:
        return b
    out = np.eye(4)
    out[:3, 3] = a[:3, 3] + (b[:3, 3] - a[:3, 3]) * k
    rel = a[:3, :3].T @ b[:3, :3]
    angle = math.acos(max(-1.0, min(1.0, (np.trace(rel) - 1.0) / 2.0)))
    if angle < 1e-9:
        out[:3, :3] = b[:3, :3]
        return out
    axis = np.array([rel[2, 1] - rel[1, 2], rel[0, 2] - rel[2, 0], rel[1, 0] - rel[0, 1]])
    axis /= 2.0 * math.sin(angle)
    x, y, z = axis
    c, s = math.cos(angle * k), math.sin(angle * k)
    t = 1.0 - c
    step = np.array(
        [
            [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
            [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
            [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
        ]
    )
    out[:3, :3] = a[:3, :3] @ step
    return out
