"""Shapes of a step over its phase ``s`` in [0, 1] (Walk2014's, rUNSWift)."""

from __future__ import annotations


def linear_step(s: float) -> float:
    """The support foot's slide: uniform speed (the hip moves at the walk's speed)."""
    return 0.0 if s <= 0.0 else 1.0 if s >= 1.0 else s


def parabolic_step(s: float, dead: float = 0.0) -> float:
    """The swing foot's travel: 0 → 1 with zero speed at lift-off and touchdown.

    ``dead`` is a share of the step at each end with no travel (a foot only moves sideways
    once it is off the ground: rUNSWift uses 0.2 for sideways steps).
    """
    if dead > 0.0:
        s = (s - dead) / (1.0 - 2.0 * dead)
    if s <= 0.0:
        return 0.0
    if s >= 1.0:
        return 1.0
    if s < 0.5:
        return 2.0 * s * s
    return 4.0 * s - 2.0 * s * s - 1.0


def lift_profile(s: float) -> float:
    """The swing foot's height as a share of the lift: up and down again, landing with zero
    vertical speed (8s² rise, a parabola over the top, 8(1-s)² descent)."""
    if s <= 0.0 or s >= 1.0:
        return 0.0
    if s < 0.25:
        return 8.0 * s * s
    if s < 0.75:
        d = s - 0.5
        return 1.0 - 8.0 * d * d
    d = 1.0 - s
    return 8.0 * d * d
