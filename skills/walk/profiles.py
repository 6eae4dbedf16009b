"""Shapes of a step over its phase ``s`` in [0, 1].

Walk2014 (rUNSWift) uses a parabolic swing (peak speed twice the mean) and a piecewise
parabolic lift. naosim's servos, like the NAO's, are torque- and speed-bound (3 N m at the hip
pitch, most of it eaten by the motor's back-EMF damping at 2 rad/s), so the shapes here are
the gentlest that still start and land at rest: half cosines, whose peak speed is pi/2 times
the mean (21 % below the parabola's) with continuous acceleration inside the step.
"""

from __future__ import annotations

import math


def linear_step(s: float) -> float:
    """The support foot's slide: uniform speed (the hip moves at the walk's speed)."""
    return 0.0 if s <= 0.0 else 1.0 if s >= 1.0 else s


def smooth_step(s: float, dead: float = 0.0) -> float:
    """The swing foot's travel: 0 → 1 with zero speed at lift-off and touchdown (half cosine).

    ``dead`` is a share of the step at each end with no travel (a foot only moves sideways
    once it is off the ground: rUNSWift uses 0.2 for sideways steps).
    """
    if dead > 0.0:
        s = (s - dead) / (1.0 - 2.0 * dead)
    if s <= 0.0:
        return 0.0
    if s >= 1.0:
        return 1.0
    return 0.5 - 0.5 * math.cos(math.pi * s)


def lift_profile(s: float) -> float:
    """The swing foot's height as a share of the lift: up and down again, lifting off and
    landing with zero vertical speed (sin²)."""
    if s <= 0.0 or s >= 1.0:
        return 0.0
    r = math.sin(math.pi * s)
    return r * r
