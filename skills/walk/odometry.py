"""Odometry: the robot's pose on the floor from its measured legs and gyroscope
(:class:`LegOdometry`), and the plane poses it is told in (:class:`Pose2D`)."""

from __future__ import annotations

import math

import attrs

from providers.model import nao_leg_ik


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
            wrap_angle(self.theta + other.theta),
        )

    def inverse(self) -> Pose2D:
        """The pose that undoes this one."""
        c, s = math.cos(self.theta), math.sin(self.theta)
        return Pose2D(-c * self.x - s * self.y, s * self.x - c * self.y, -self.theta)


def wrap_angle(angle: float) -> float:
    """``angle`` in (-pi, pi]."""
    return math.atan2(math.sin(angle), math.cos(angle))


def middle(a: Pose2D, b: Pose2D) -> Pose2D:
    """The point halfway between poses ``a`` and ``b``, facing their frame's heading (0)."""
    return Pose2D((a.x + b.x) / 2, (a.y + b.y) / 2)


def along(axis: int, start: tuple[float, float, float], end: tuple[float, float, float]) -> float:
    """Displacement from pose ``start`` to ``end`` (x, y, theta) along ``axis`` of the start
    heading (0 forward, 1 left; m), or for axis 2 the heading change (rad, in (-pi, pi])."""
    if axis == 2:
        return wrap_angle(end[2] - start[2])
    dx, dy = end[0] - start[0], end[1] - start[1]
    c, s = math.cos(start[2]), math.sin(start[2])
    return c * dx + s * dy if axis == 0 else -s * dx + c * dy


class LegOdometry:
    """Odometry from the *measured* legs, by foot placement.

    The foot that carries more weight stands still on the ground. The body's pose is that
    foot's pose on the ground composed with where the body is seen from it (the measured
    leg's forward kinematics, levelled with the IMU's roll and pitch): between support changes
    nothing accumulates. When the other foot takes the weight, its ground pose is the body's
    pose composed with where that foot is seen from the body, re-measured every cycle while
    the old support foot still touches the ground, so the last instant of double support (the
    landed foot at rest) decides the step. This sees what the servos really did (their lag,
    their sag, a step cut short by an early touchdown); only slip is left.
    """

    #: A foot carrying less than this (kg) no longer touches the ground.
    CONTACT_KG = 0.3
    #: Cycles of standing still before the gyroscope's bias is learned.
    CALM_CYCLES = 80

    def __init__(self) -> None:
        #: The robot's pose since the start (or the last :meth:`reset`).
        self.pose = Pose2D()
        self._ik = nao_leg_ik()
        self._support = -1  # 0 left, 1 right; -1 before the first measurement
        self._foot_world = Pose2D()  # ground pose of the support foot
        self._old: tuple[int, Pose2D] | None = None  # the previous support while settling
        self._yaw = 0.0  # heading integrated from the gyroscope
        self._gyro_bias = 0.0
        self._calm = 0
        #: The soles (left, right) seen from the body, levelled: the last good measurement.
        self.feet = (Pose2D(), Pose2D())

    def reset(self, pose: Pose2D | None = None) -> None:
        """Start again from ``pose`` (the origin by default)."""
        self.pose = pose if pose is not None else Pose2D()
        self._support = -1
        self._yaw = self.pose.theta

    @property
    def robot(self) -> Pose2D:
        """NAOqi's robot position (its FRAME_ROBOT): the middle of the two soles on the floor,
        facing the body's heading. The body sways over each support foot in turn (3-5 cm to
        each side walking); the middle of the feet moves only as a foot is placed, so it is
        the pose behaviours read and walking to a pose aims (REP 120's base_footprint)."""
        return self.pose.compose(middle(*self.feet))

    @property
    def support(self) -> tuple[bool, Pose2D] | None:
        """The foot the odometry stands on now (True: left) and its pose on the ground; None
        before the first measurement."""
        if self._support < 0:
            return None
        return self._support == 0, self._foot_world

    def measure(self, position, roll: float, pitch: float, fsr, gyro, dt: float) -> None:
        """One cycle of ``dt`` s: measured joint angles (LoLA order), torso roll and pitch
        (rad), FSRs (kg) and the gyroscope (rad/s, torso frame)."""
        load = (float(fsr[0] + fsr[1] + fsr[2] + fsr[3]), float(fsr[4] + fsr[5] + fsr[6] + fsr[7]))
        legs = [float(position[i]) for i in range(7, 18)]
        if not math.isfinite(sum(load) + sum(legs) + roll + pitch + float(sum(gyro))):
            # A broken frame teaches nothing; the pose waits for the next good one.
            return
        feet = (
            self._foot(1, position[7:13], roll, pitch),
            self._foot(-1, (position[7], *position[13:18]), roll, pitch),
        )
        self.feet = feet
        support = 0 if load[0] >= load[1] else 1
        # The heading comes from the gyroscope: a foot that twists on the floor (it does, when
        # stepping sideways) turns the robot without the legs seeing it. Its bias is learned
        # only once the robot has stood still on both feet for a while (never mid-walk).
        # The heading's rate from the body rates (Z-Y-X Euler angles): the torso rolls and
        # pitches while walking, so the gyroscope's own z axis is not the vertical.
        cr, sr = math.cos(roll), math.sin(roll)
        gyro_yaw = (sr * float(gyro[1]) + cr * float(gyro[2])) / math.cos(pitch)
        calm = min(load) > self.CONTACT_KG and abs(gyro_yaw - self._gyro_bias) < 0.02
        self._calm = self._calm + 1 if calm else 0
        if self._calm > self.CALM_CYCLES:
            self._gyro_bias += 0.01 * (gyro_yaw - self._gyro_bias)
        self._yaw += (gyro_yaw - self._gyro_bias) * dt
        if self._support < 0:
            self._support = support
            self._foot_world = self.pose.compose(feet[support])
            return
        if support != self._support:
            self._old = (self._support, self._foot_world)
            self._support = support
        if self._old is not None:
            old, old_world = self._old
            self._foot_world = old_world.compose(feet[old].inverse()).compose(feet[support])
            if load[old] <= self.CONTACT_KG:
                self._old = None
        foot = feet[self._support]
        world = self._foot_world
        self._foot_world = Pose2D(world.x, world.y, wrap_angle(self._yaw + foot.theta))
        self.pose = self._foot_world.compose(foot.inverse())

    def _foot(self, sign: int, angles, roll: float, pitch: float) -> Pose2D:
        (x, _, _), p = self._ik._forward(sign, [float(a) for a in angles])
        # Level the torso frame: the torso is rolled and pitched by the IMU's angles.
        cr, sr, cp, sp = math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch)

        def level(v):
            # Ry(pitch) Rx(roll) v, keeping x and y.
            y1 = cr * v[1] - sr * v[2]
            z1 = sr * v[1] + cr * v[2]
            return (cp * v[0] + sp * z1, y1)

        px, py = level(p)
        ax, ay = level(x)
        return Pose2D(px, py, math.atan2(ay, ax))
