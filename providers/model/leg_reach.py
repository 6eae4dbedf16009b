"""The closest reachable leg pose when a joint limit binds (the slow path of ``leg_ik``).

With the hip yaw-pitch fixed, the five other joints of one leg are moved by projected damped
least squares (Levenberg-Marquardt with joints clamped after every step, and joints pinned at
a limit left out of the step) to minimise ``|dp|^2 + (ROTATION_WEIGHT * angle)^2`` between the
sole and its target. Far from the target the Gauss-Newton model ignores real curvature and
converges only linearly, so good steps are stretched while the cost keeps falling, and the
effort is bounded by ``REFINE_STEPS``: the result approaches the closest pose (within about
1e-4 of its cost in the tests), it is not guaranteed to be exactly it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from providers.model.leg_ik import LegIK

__all__ = ["REFINE_STEPS", "ROTATION_WEIGHT", "log_map", "refine", "residual"]

#: Metres of position error one radian of orientation error is worth when a target is out of
#: reach: position matters most to a walking robot, so orientation gives way first.
ROTATION_WEIGHT = 0.05
#: Damped least-squares steps at most, when a target is out of reach (each costs ~0.1-0.3 ms;
#: 20 left 2 in 300 far-off random targets short of the local optimum, 60 none). The
#: per-cycle walk should call with ``refine=False``.
REFINE_STEPS = 60


def residual(ik: LegIK, sign: int, q, t) -> tuple[float, ...]:
    """Position error and weighted rotation-error vector (torso frame), plain floats."""
    (x, y, z), (px, py, pz) = ik._forward(sign, q)
    # E = T R^T, with R's columns x, y, z and T's rows read from the 12-float target.
    e = [t[r] * x[c] + t[r + 1] * y[c] + t[r + 2] * z[c] for r in (0, 4, 8) for c in (0, 1, 2)]
    vx, vy, vz = e[7] - e[5], e[2] - e[6], e[3] - e[1]
    sin2 = math.sqrt(vx * vx + vy * vy + vz * vz)
    cos2 = e[0] + e[4] + e[8] - 1.0
    if sin2 > 1e-9:
        scale = ROTATION_WEIGHT * math.atan2(sin2, cos2) / sin2
    elif cos2 > 0.0:
        scale = 0.5 * ROTATION_WEIGHT
    else:
        # Half a turn: the skew part vanishes; take the axis from E + I.
        rv = log_map(np.array(e).reshape(3, 3))
        vx, vy, vz = rv
        scale = ROTATION_WEIGHT
    return (t[3] - px, t[7] - py, t[11] - pz, scale * vx, scale * vy, scale * vz)


def refine(ik: LegIK, sign: int, q, target) -> tuple[list[float], tuple[float, float]]:
    """Projected damped least squares on the five free joints from a clamped start.

    ``sign`` is +1 for the left leg and -1 for the right, ``q`` the six clamped angles (the
    first, the hip yaw-pitch, stays), ``target`` the sole pose as 12 floats. Returns the
    angles and the (distance, angle) left to the target.
    """
    lower, upper = ik._lower[sign], ik._upper[sign]
    free = list(q)
    current = residual(ik, sign, free, target)
    best_cost = sum(r * r for r in current)
    step = 1e-7
    damping = 1e-4
    for _ in range(REFINE_STEPS):
        columns = []
        for i in range(1, 6):
            probe = free.copy()
            probe[i] += step
            moved = residual(ik, sign, probe, target)
            columns.append([(a - b) / step for a, b in zip(current, moved, strict=True)])
        jac = np.array(columns).T
        r = np.array(current)
        # Joints pinned at a limit and pushed further out take no part in the step.
        grad = jac.T @ r
        active = [
            not ((free[i + 1] <= lower[i + 1] and grad[i] < 0.0)
                 or (free[i + 1] >= upper[i + 1] and grad[i] > 0.0))
            for i in range(5)
        ]  # fmt: skip
        ja = jac[:, active]
        delta = np.zeros(5)
        delta[active] = np.linalg.solve(ja.T @ ja + damping * np.eye(ja.shape[1]), ja.T @ r)
        candidate, new_residual, new_cost = _try(ik, sign, free, delta, 1.0, target)
        # Far from the target the Gauss-Newton model underestimates the curvature it
        # ignores and steps fall short along the valley; stretch a good step while the
        # cost keeps falling.
        scale = 1.0
        while new_cost < best_cost and scale < 64.0:
            scale *= 4.0
            longer = _try(ik, sign, free, delta, scale, target)
            if longer[2] >= new_cost:
                break
            candidate, new_residual, new_cost = longer
        if new_cost < best_cost:
            gain = best_cost - new_cost
            free, best_cost, current = candidate, new_cost, new_residual
            damping = max(damping * 0.3, 1e-9)
            if gain <= 1e-15 * (1.0 + best_cost):
                break
        else:
            damping *= 10.0
            if damping > 1e3:
                break
    return free, ik._error(sign, free, target)


def _try(ik, sign, free, delta, scale, target):
    """``free + scale * delta`` clamped into the limits, its residual and its cost."""
    lower, upper = ik._lower[sign], ik._upper[sign]
    candidate = [free[0]] + [
        min(max(free[i] + scale * float(delta[i - 1]), lower[i]), upper[i]) for i in range(1, 6)
    ]
    values = residual(ik, sign, candidate, target)
    return candidate, values, sum(v * v for v in values)


def log_map(r: np.ndarray) -> np.ndarray:
    """Rotation vector (axis * angle) of a 3x3 rotation; finite for every input."""
    v = np.array([r[2, 1] - r[1, 2], r[0, 2] - r[2, 0], r[1, 0] - r[0, 1]])
    s = 0.5 * float(np.linalg.norm(v))
    c = 0.5 * (float(np.trace(r)) - 1.0)
    angle = math.atan2(s, c)
    if s < 1e-9:
        if c > 0.0:
            return 0.5 * v
        # Half a turn: the axis is the column of r + I with the largest norm.
        m = r + np.eye(3)
        axis = m[:, int(np.argmax(np.linalg.norm(m, axis=0)))]
        return math.pi * axis / np.linalg.norm(axis)
    return (angle / (2.0 * s)) * v
