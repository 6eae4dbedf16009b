"""The support polygon: convex hull of the sole boxes of the feet on the ground.

Each sole is NAOqi's box around the point below the ankle: ``front`` ahead, ``rear`` behind,
``inner`` towards the other foot and ``outer`` away from it (``FootGeometry``). The polygon is
returned in the xy-plane of a chosen frame, given as its 4x4 pose in the torso frame: pass a
frame whose xy-plane is the ground (a sole pose, or the torso pose levelled with the IMU) to
get the polygon on the ground; by default it is the torso frame, which is only the ground
plane's orientation when the torso stands upright.
"""

from __future__ import annotations

import numpy as np

from providers.model.robot_model import FootGeometry, load_nao_model

__all__ = ["convex_hull", "sole_corners", "support_polygon"]


def sole_corners(foot: FootGeometry, side: str) -> np.ndarray:
    """The four corners (x, y, 0) of a sole box in its sole frame, counter-clockwise."""
    if side == "left":
        right_y, left_y = -foot.inner, foot.outer
    elif side == "right":
        right_y, left_y = -foot.outer, foot.inner
    else:
        raise ValueError(f"side must be 'left' or 'right', got {side!r}")
    return np.array(
        [
            [foot.front, right_y, 0.0],
            [foot.front, left_y, 0.0],
            [-foot.rear, left_y, 0.0],
            [-foot.rear, right_y, 0.0],
        ]
    )


def support_polygon(
    left_sole: np.ndarray,
    right_sole: np.ndarray,
    *,
    left_contact: bool,
    right_contact: bool,
    frame: np.ndarray | None = None,
    foot: FootGeometry | None = None,
) -> np.ndarray:
    """Convex support polygon (``(n, 2)``, counter-clockwise, x/y in ``frame``) of the feet
    in contact.

    ``left_sole`` and ``right_sole`` are the sole poses in the torso frame (as from
    ``NaoKinematics.sole_poses``). With no foot in contact the polygon is empty, ``(0, 2)``.
    """
    foot = foot or load_nao_model().foot
    points = []
    for pose, contact, side in (
        (left_sole, left_contact, "left"),
        (right_sole, right_contact, "right"),
    ):
        if not contact:
            continue
        pose = np.asarray(pose, dtype=np.float64)
        if pose.shape != (4, 4) or not np.all(np.isfinite(pose)):
            raise ValueError(f"{side} sole must be a finite 4x4 pose, got {pose!r}")
        corners = sole_corners(foot, side)
        points.append(corners @ pose[:3, :3].T + pose[:3, 3])
    if not points:
        return np.zeros((0, 2))
    torso_points = np.concatenate(points)
    if frame is not None:
        frame = np.asarray(frame, dtype=np.float64)
        if frame.shape != (4, 4) or not np.all(np.isfinite(frame)):
            raise ValueError(f"frame must be a finite 4x4 pose, got {frame!r}")
        torso_points = (torso_points - frame[:3, 3]) @ frame[:3, :3]
    return convex_hull(torso_points[:, :2])


def convex_hull(points: np.ndarray) -> np.ndarray:
    """Convex hull of 2-D points, counter-clockwise from the lowest-x (then lowest-y) point.

    Andrew's monotone chain; collinear points on an edge are dropped.
    """
    pts = np.asarray(points, dtype=np.float64)
    if pts.ndim != 2 or pts.shape[1] != 2:
        raise ValueError(f"points must have shape (n, 2), got {pts.shape}")
    unique = sorted({(float(x), float(y)) for x, y in pts})
    if len(unique) <= 2:
        return np.array(unique).reshape(-1, 2)

    def cross(o, a, b) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    for p in unique:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0.0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(unique):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0.0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1])
