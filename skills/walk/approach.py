"""The velocity law of a walk to a pose (``plan_velocity``), pure and stepped by nothing.

``skills.walk.walk_to``'s docstring tells the decisions behind it: braking as
``min(reach, sqrt(2 a d), k d)`` with a floor, facing far goals by a blend that does not depend
on the robot's heading, and walking straight at the point near it.
"""

from __future__ import annotations

import math

from skills.walk.odometry import Pose2D, wrap_angle
from skills.walk.request import ZERO, Limits, Velocity, clamp_velocity

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
#: Walking backwards counts as this many times slower when deciding to face a far goal: the
#: robot sees nothing of where it goes, and a fall backwards is the worst one.
BACKWARD_COST = 1.5
#: Walking sideways counts as this many times slower when deciding to face a far goal: the
#: walk reaches its forward limit but about 0.8 of its sideways one (``motiond bench walk``:
#: 0.407 of 0.40 m/s, 0.257 of 0.325); by the limits alone a goal 3 m aside was sidestepped,
#: 1.7 s saved by facing it against 1.6 s of turning there and back.
SIDEWAYS_COST = 1.25


def plan_velocity(
    error: Pose2D, limits: Limits, tolerance_xy: float = 0.05, tolerance_theta: float = 0.09
) -> Velocity:
    """The walk velocity towards ``error`` (the goal in the robot frame): zero inside both
    tolerances, always finite and inside ``limits`` (and their ellipsoid, as the walk's)."""
    ex, ey, eth = error.x, error.y, error.theta
    if not math.isfinite(ex + ey + eth):
        return ZERO
    eth = wrap_angle(eth)
    d = math.hypot(ex, ey)
    if d <= tolerance_xy:
        return clamp_velocity(
            limits, 0.0, 0.0, _turn_law(eth, limits.turn, tolerance_theta, TURN_GAIN)
        )
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
    return clamp_velocity(limits, v * ux, v * uy, turn)


def _reach(ux: float, uy: float, limits: Limits) -> float:
    """The fastest speed (m/s) along the unit direction (ux, uy) within the limits (their
    ellipse; backwards their diamond, as the walk clamps)."""
    if ux >= 0.0:
        return 1.0 / math.hypot(ux / limits.forward, uy / limits.left)
    return 1.0 / (-ux / limits.backward + abs(uy) / limits.left)


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


def _face_weight(d: float, detour: float, limits: Limits) -> float:
    """How much to face the goal (0: straight at it, turning to theta; 1: face it): by the
    time facing saves (walking forwards instead of along ``detour``, less turning there and
    back), only beyond ``NEAR``. Independent of the robot's heading, so it cannot flip-flop."""
    if d <= NEAR:
        return 0.0
    # The sideways component SIDEWAYS_COST times as long is the sideways limit that much lower.
    reach = _reach(math.cos(detour), SIDEWAYS_COST * math.sin(detour), limits)
    if math.cos(detour) < 0.0:
        reach /= BACKWARD_COST
    saved = d * (1.0 / reach - 1.0 / limits.forward)
    saved -= 2.0 * abs(detour) / limits.turn
    return _smooth((d - NEAR) / FACE_BLEND) * _smooth(saved / FACE_BAND)


__all__ = ["MIN_SPEED", "MIN_TURN", "NEAR", "inside", "plan_velocity"]
