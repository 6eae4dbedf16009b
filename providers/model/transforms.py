"""Rigid transforms as 4x4 homogeneous matrices: the one pose representation of the project.

A pose ``T`` (a float64 array of shape ``(4, 4)``) maps coordinates in a child frame to the
parent frame: ``p_parent = T[:3, :3] @ p_child + T[:3, 3]``. "The sole in the torso frame" is
the pose whose translation is the sole origin in torso coordinates.

Angles follow the URDF/NAOqi convention: roll about x, pitch about y, yaw about z, applied
about fixed axes in that order, so ``R = Rz(yaw) @ Ry(pitch) @ Rx(roll)``.
"""

from __future__ import annotations

import math

import numpy as np


def rotation_x(angle: float) -> np.ndarray:
    """3x3 rotation by ``angle`` (rad) about x."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rotation_y(angle: float) -> np.ndarray:
    """3x3 rotation by ``angle`` (rad) about y."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rotation_z(angle: float) -> np.ndarray:
    """3x3 rotation by ``angle`` (rad) about z."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def rotation_from_rpy(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """3x3 rotation ``Rz(yaw) @ Ry(pitch) @ Rx(roll)`` (URDF's fixed-axis roll-pitch-yaw)."""
    return rotation_z(yaw) @ rotation_y(pitch) @ rotation_x(roll)


def rpy_from_rotation(rotation: np.ndarray) -> tuple[float, float, float]:
    """Roll, pitch, yaw of a 3x3 rotation (inverse of :func:`rotation_from_rpy`).

    Pitch is in [-pi/2, pi/2]; at pitch = ±pi/2 (gimbal lock) roll is reported as 0 and the
    whole rotation about z goes into yaw.
    """
    r = rotation
    pitch = math.atan2(-r[2, 0], math.hypot(r[0, 0], r[1, 0]))
    if math.hypot(r[2, 1], r[2, 2]) < 1e-12:
        return 0.0, pitch, math.atan2(-r[0, 1], r[1, 1])
    return math.atan2(r[2, 1], r[2, 2]), pitch, math.atan2(r[1, 0], r[0, 0])


def axis_angle_rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    """3x3 rotation by ``angle`` about ``axis`` (normalised here; Rodrigues' formula)."""
    a = np.asarray(axis, dtype=np.float64)
    norm = float(np.linalg.norm(a))
    if norm == 0.0:
        raise ValueError("rotation axis must be non-zero")
    k = skew(a / norm)
    return np.eye(3) + math.sin(angle) * k + (1.0 - math.cos(angle)) * (k @ k)


def skew(v: np.ndarray) -> np.ndarray:
    """The 3x3 matrix ``K`` with ``K @ w == cross(v, w)``."""
    x, y, z = (float(c) for c in v)
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def make_pose(rotation: np.ndarray | None = None, position=(0.0, 0.0, 0.0)) -> np.ndarray:
    """A 4x4 pose from a 3x3 rotation (identity if omitted) and a position (m)."""
    pose = np.eye(4)
    if rotation is not None:
        pose[:3, :3] = rotation
    pose[:3, 3] = position
    return pose


def pose_from_xyz_rpy(
    x: float = 0.0,
    y: float = 0.0,
    z: float = 0.0,
    roll: float = 0.0,
    pitch: float = 0.0,
    yaw: float = 0.0,
) -> np.ndarray:
    """A 4x4 pose from a position (m) and roll, pitch, yaw (rad), URDF convention."""
    return make_pose(rotation_from_rpy(roll, pitch, yaw), (x, y, z))


def xyz_rpy_from_pose(pose: np.ndarray) -> tuple[float, float, float, float, float, float]:
    """``(x, y, z, roll, pitch, yaw)`` of a 4x4 pose (inverse of :func:`pose_from_xyz_rpy`)."""
    roll, pitch, yaw = rpy_from_rotation(pose[:3, :3])
    return float(pose[0, 3]), float(pose[1, 3]), float(pose[2, 3]), roll, pitch, yaw


def translation(x: float, y: float, z: float) -> np.ndarray:
    """A 4x4 pose that only translates."""
    return make_pose(None, (x, y, z))


def invert_pose(pose: np.ndarray) -> np.ndarray:
    """The inverse of a rigid 4x4 pose (transpose the rotation; no general matrix inverse)."""
    out = np.eye(4)
    rt = pose[:3, :3].T
    out[:3, :3] = rt
    out[:3, 3] = -rt @ pose[:3, 3]
    return out


def rotation_angle(rotation: np.ndarray) -> float:
    """The angle (rad, in [0, pi]) of a 3x3 rotation, robust near 0 and pi."""
    # The sine comes from the skew part and the cosine from the trace; atan2 of both keeps
    # full precision where acos(trace) alone would lose half the digits near 0.
    r = rotation
    s = 0.5 * math.sqrt(
        (r[2, 1] - r[1, 2]) ** 2 + (r[0, 2] - r[2, 0]) ** 2 + (r[1, 0] - r[0, 1]) ** 2
    )
    c = 0.5 * (r[0, 0] + r[1, 1] + r[2, 2] - 1.0)
    return math.atan2(s, c)


def pose_error(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Distance (m) between the origins of two poses and the angle (rad) between them."""
    dp = float(np.linalg.norm(a[:3, 3] - b[:3, 3]))
    return dp, rotation_angle(a[:3, :3].T @ b[:3, :3])
