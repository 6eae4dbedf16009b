"""Odometry: the robot's pose integrated from the steps the walk executed.

While a foot supports the robot it stays where it is on the ground, so every change of its
pose relative to the hips is the hips moving the other way: with the foot's pose in the body
frame ``F`` before and ``F'`` after a cycle, the body moved by ``F · F'⁻¹``. The poses are the
commanded ones (the executed steps); a foot that slips makes the odometry drift, which
``motiond bench walk`` measures against ground truth.
"""

from __future__ import annotations

import math

import attrs


@attrs.frozen
class Pose2D:
    """A pose in the plane: x, y (m) and theta (rad, counter-clockwise)."""

    x: float = 0.0
    y: float = 0.0
    theta: float = 0.0

    def compose(self, other: Pose2D) -> Pose2D:
        """This pose followed by ``other`` (expressed in this pose's frame)."""
        c, s = math.cos(self.theta), math.sin(self.theta)
        return Pose2D(
            self.x + c * other.x - s * other.y,
            self.y + s * other.x + c * other.y,
            _wrap(self.theta + other.theta),
        )

    def inverse(self) -> Pose2D:
        """The pose that undoes this one."""
        c, s = math.cos(self.theta), math.sin(self.theta)
        return Pose2D(-c * self.x - s * self.y, s * self.x - c * self.y, -self.theta)


def _wrap(angle: float) -> float:
    return math.atan2(math.sin(angle), math.cos(angle))


class Odometry:
    """The robot's pose since the walk started: advanced by the support foot's motion."""

    def __init__(self) -> None:
        self.pose = Pose2D()
        self.distance = 0.0  # m travelled, summed over cycles

    def reset(self, pose: Pose2D | None = None) -> None:
        """Start again from ``pose`` (the origin by default)."""
        self.pose = pose if pose is not None else Pose2D()
        self.distance = 0.0

    def support_moved(self, before: Pose2D, after: Pose2D) -> None:
        """The support foot's pose in the body frame went from ``before`` to ``after``."""
        delta = before.compose(after.inverse())
        self.pose = self.pose.compose(delta)
        self.distance += math.hypot(delta.x, delta.y)
