"""The velocity law of a walk to a pose (``plan_velocity``), pure and stepped by nothing.

``skills.walk.walk_to``'s docstring tells the decisions behind it: braking as
``min(reach, sqrt(2 a d), k d)`` with a floor, facing far goals by a blend that does not depend
on the robot's heading, and walking straight at the point near it.
"""

from __future__ import annotations

import math

import attrs

from skills.walk.odometry import Pose2D, wrap_angle
from skills.walk.params import GaitParameters
from skills.walk.request import ZERO, Velocity, turn_share

APPROACH_ACCEL = 0.1  # m/s²: braking of the approach
TURN_ACCEL = 1.5  # rad/s²
POSITION_GAIN = 1.5  # 1/s: speed per metre left, near the goal
TURN_GAIN = 1.2  # 1/s
TURN_SYNC = 2.0  # turn to theta per share of the approach left (heading error ∝ d²)
MIN_SPEED = 0.03  # m/s
MIN_TURN = 0.15  # rad/s
NEAR = 0.5  # m: within it, straight at the point
FACE_BLEND = 0.3  # m beyond NEAR over which facing the goal comes in
FACE_BAND = 1.0  # s: facing comes in as the time it saves grows from 0 to this
FACE_TOLERANCE = 0.1  # rad: facing the goal this well, the robot walks forwards


@attrs.frozen
class MoveLimits:
    """The speeds a move plans within (m/s, rad/s): the gait's limits times a share."""

    forward: float
    backward: float
    left: float
    turn: float
    turn_when_fast: float = 1.0

    @classmethod
    def from_gait(cls, gait: GaitParameters, speed: float = 1.0) -> MoveLimits:
        """The gait's limits, each times ``speed`` in (0, 1]."""
        g = gait
        top = (g.max_forward, g.max_backward, g.max_left, g.max_turn)
        return cls(*(limit * speed for limit in top), g.turn_when_fast)


def plan_velocity(
    error: Pose2D, limits: MoveLimits, tolerance_xy: float = 0.05, tolerance_theta: float = 0.09
) -> Velocity:
    """The walk velocity towards ``error`` (the goal in the robot frame): zero inside both
    tolerances, always finite and inside ``limits`` (and their ellipsoid, as the walk's)."""
    ex, ey, eth = error.x, error.y, error.theta
    if not math.isfinite(ex + ey + eth):
        return ZERO
    eth = wrap_angle(eth)
    d = math.hypot(ex, ey)
    if d <= tolerance_xy:
        return _clamp(0.0, 0.0, _turn_law(eth, limits.turn, tolerance_theta, TURN_GAIN), limits)
    ux, uy = ex / d, ey / d
    v = min(_reach(ux, uy, limits), math.sqrt(2.0 * APPROACH_ACCEL * d), POSITION_GAIN * d)
    v = max(min(MIN_SPEED, _reach(ux, uy, limits)), v)
    # The heading to turn to: the goal's theta, or (far) the goal's bearing. ``detour`` is the
    # bearing seen from the goal's heading: it does not change along a straight approach.
    bearing = math.atan2(ey, ex)
    detour = wrap_angle(bearing - eth)
    w = _face_weight(d, detour, limits)
    heading = eth + w * detour
    other = heading - math.copysign(2.0 * math.pi * w, detour)
    if abs(other) < abs(heading):
        heading = other  # goal behind: keep turning the way the robot already turns
    # Facing, turn briskly; otherwise spread the turn over the approach (heading error ∝ d²),
    # so that the robot crabs slowly sideways only at the end.
    gain = w * TURN_GAIN + (1.0 - w) * min(TURN_GAIN, TURN_SYNC * v / d)
    # Facing needs a tolerance of its own: a loose one for theta would leave the goal aside.
    tolerance = tolerance_theta + w * (min(tolerance_theta, FACE_TOLERANCE) - tolerance_theta)
    turn = _turn_law(heading, limits.turn, tolerance, gain)
    v *= 1.0 - w * (1.0 - max(0.0, ux))  # ux = cos(bearing): facing, wait while it is aside
    return _clamp(v * ux, v * uy, turn, limits)


def _reach(ux: float, uy: float, limits: MoveLimits) -> float:
    """The fastest speed (m/s) along the unit direction (ux, uy) on the limits' ellipse."""
    return 1.0 / math.hypot(ux / (limits.forward if ux >= 0 else limits.backward), uy / limits.left)


def _turn_law(angle: float, top: float, tolerance: float, gain: float) -> float:
    a = abs(angle)
    if a <= tolerance:
        return 0.0
    rate = max(min(MIN_TURN, top), min(top, math.sqrt(2.0 * TURN_ACCEL * a), gain * a))
    return math.copysign(rate, angle)


def inside(e: Pose2D, tolerance_xy: float, tolerance_theta: float) -> bool:
    """Whether the error ``e`` (the goal seen from the robot) is within both tolerances."""
    return math.hypot(e.x, e.y) <= tolerance_xy and abs(wrap_angle(e.theta)) <= tolerance_theta


def _smooth(s: float) -> float:
    s = min(1.0, max(0.0, s))
    return s * s * (3.0 - 2.0 * s)


def _face_weight(d: float, detour: float, limits: MoveLimits) -> float:
    """How much to face the goal (0: straight at it, turning to theta; 1: face it): by the
    time facing saves (walking forwards instead of along ``detour``, less turning there and
    back), only beyond ``NEAR``. Independent of the robot's heading, so it cannot flip-flop."""
    if d <= NEAR:
        return 0.0
    saved = d * (1.0 / _reach(math.cos(detour), math.sin(detour), limits) - 1.0 / limits.forward)
    saved -= 2.0 * abs(detour) / limits.turn
    return _smooth((d - NEAR) / FACE_BLEND) * _smooth(saved / FACE_BAND)


def _clamp(forward: float, left: float, turn: float, limits: MoveLimits) -> Velocity:
    """Onto the limits' ellipsoid and the turn left at speed, as the walk clamps."""
    fmax = limits.forward if forward >= 0.0 else limits.backward
    norm = math.sqrt((forward / fmax) ** 2 + (left / limits.left) ** 2 + (turn / limits.turn) ** 2)
    if norm > 1.0:
        forward, left, turn = forward / norm, left / norm, turn / norm
    top = limits.turn * turn_share(
        limits.turn_when_fast, forward / limits.forward, left / limits.left
    )
    return Velocity(
        max(-limits.backward, min(limits.forward, forward)),
        max(-limits.left, min(limits.left, left)),
        max(-top, min(top, turn)),
    )


__all__ = ["MIN_SPEED", "MIN_TURN", "NEAR", "MoveLimits", "inside", "plan_velocity"]
