"""Head inverse kinematics: turn the head so a camera looks straight at a point.

The point is given in the **torso frame** (m). By default the *top camera's* optical axis (the
x axis of ``CameraTop_frame``, which sits 0.0587 m ahead of and 0.0636 m above the head pitch
axis and is tilted down by 1.2°) is aimed through it; ``camera="bottom"`` aims the bottom
camera (tilted down by 39.7°), and ``camera="head"`` aims the head frame's own x axis from the
pitch axis. The camera offset matters: for a ball on the ground 1 m ahead of a standing NAO,
aiming the head frame instead of the top camera misses by about 2°.

HeadYaw turns about z through the neck, HeadPitch about y (positive looks down). A camera that
sits in the head's xz-plane looks at the point's azimuth, so the yaw is exact; the pitch solves
``A cos(pitch) + B sin(pitch) = k`` in closed form. Points too close to aim at (inside the
circle the camera sweeps) and angles beyond the joint limits give the nearest angles and
``reachable=False``; nothing returns a NaN.
"""

from __future__ import annotations

import functools
import math

import attrs
import numpy as np

from lola_io.joints import JOINT_INDEX
from providers.model.robot_model import NaoModel, load_nao_model

__all__ = ["CAMERAS", "HeadAngles", "HeadIK", "look_at", "nao_head_ik"]

#: camera name → URDF frame on the Head link (``"head"``: the head frame itself).
CAMERAS = {"top": "CameraTop_frame", "bottom": "CameraBottom_frame", "head": None}

_YAW, _PITCH = JOINT_INDEX["HeadYaw"], JOINT_INDEX["HeadPitch"]


@attrs.frozen
class HeadAngles:
    """HeadYaw and HeadPitch (rad, within limits) and whether the camera hits the point."""

    yaw: float
    pitch: float
    reachable: bool

    def apply(self, position: np.ndarray) -> np.ndarray:
        """Write both head joints into ``position`` (25 angles, LoLA order); return it."""
        position[_YAW] = self.yaw
        position[_PITCH] = self.pitch
        return position


class HeadIK:
    """Look-at solver for the head of one NAO model (see the module docstring)."""

    def __init__(self, model: NaoModel | None = None) -> None:
        model = model or load_nao_model()
        j = model.joints
        yaw, pitch = j["HeadYaw"], j["HeadPitch"]
        if yaw.parent != model.root or pitch.parent != yaw.child:
            raise ValueError("head IK assumes torso -> HeadYaw -> HeadPitch")
        if any(abs(v) > 1e-12 for v in (*yaw.origin_xyz[:2], *pitch.origin_xyz)):
            raise ValueError("head IK assumes both head axes meet above the torso origin")
        self._neck_height = float(yaw.origin_xyz[2])
        self._yaw_limits = (yaw.lower, yaw.upper)
        self._pitch_limits = (pitch.lower, pitch.upper)
        by_child = {joint.child: joint for joint in j.values()}
        # Per camera: its position (x, z) in the head frame and its downward tilt.
        self._cameras: dict[str, tuple[float, float, float]] = {}
        for name, frame in CAMERAS.items():
            if frame is None:
                self._cameras[name] = (0.0, 0.0, 0.0)
                continue
            joint = by_child[frame]
            x, y, z = joint.origin_xyz
            roll, tilt, turn = joint.origin_rpy
            if joint.parent != pitch.child or abs(y) > 1e-12 or abs(roll) + abs(turn) > 1e-12:
                raise ValueError(f"head IK assumes {frame} sits in the head's xz-plane")
            self._cameras[name] = (float(x), float(z), float(tilt))

    def look_at(self, point, camera: str = "top") -> HeadAngles:
        """Head angles aiming ``camera`` at ``point`` (x, y, z in the torso frame, m)."""
        if camera not in self._cameras:
            raise ValueError(f"camera must be one of {sorted(self._cameras)}, got {camera!r}")
        values = np.asarray(point, dtype=np.float64)
        if values.shape != (3,) or not np.all(np.isfinite(values)):
            raise ValueError(f"point must be 3 finite coordinates, got {point!r}")
        x, y, z = (float(v) for v in values)
        cx, cz, tilt = self._cameras[camera]
        z -= self._neck_height
        yaw = math.atan2(y, x)
        forward = math.hypot(x, y)
        # In the yawed neck frame the point is (forward, z). The camera's optical line, after
        # pitching by p, passes through the point when A cos p + B sin p = k.
        st, ct = math.sin(tilt), math.cos(tilt)
        a = st * forward + ct * z
        b = ct * forward - st * z
        k = cx * st + cz * ct
        radius = math.hypot(a, b)
        reachable = radius > abs(k)
        base = math.atan2(b, a)
        spread = math.acos(min(max(k / radius, -1.0), 1.0)) if radius > 0.0 else 0.0
        candidates = [base + spread, base - spread]

        def ahead(p: float) -> float:
            # Distance along the optical axis from the camera to the point, head frame.
            c, s = math.cos(p), math.sin(p)
            hx, hz = c * forward - s * z, s * forward + c * z
            return (hx - cx) * ct - (hz - cz) * st

        candidates = [math.remainder(p, math.tau) for p in candidates]
        candidates.sort(key=lambda p: (ahead(p) <= 0.0, abs(p)))
        pitch = candidates[0]
        if ahead(pitch) <= 0.0:
            reachable = False
        lo, hi = self._yaw_limits
        if not lo <= yaw <= hi:
            yaw, reachable = min(max(yaw, lo), hi), False
        lo, hi = self._pitch_limits
        if not lo <= pitch <= hi:
            pitch, reachable = min(max(pitch, lo), hi), False
        return HeadAngles(yaw=yaw, pitch=pitch, reachable=reachable)


@functools.cache
def nao_head_ik() -> HeadIK:
    """The head IK of the packaged NAO model (built once, then shared)."""
    return HeadIK(load_nao_model())


def look_at(point, camera: str = "top") -> HeadAngles:
    """:meth:`HeadIK.look_at` with the packaged NAO model."""
    return nao_head_ik().look_at(point, camera)
