"""Moving a servo from where it was to a target over a duration: linear and minimum-jerk.

Every function is pure: the position (or velocity) at time ``now`` follows from ``start``,
``target``, ``start_time`` and ``duration`` alone, so a servo provider can evaluate it any cycle
without keeping state, and a test can evaluate it at any instant. Arguments broadcast like
numpy's: one servo (floats) or all 25 at once (arrays in LoLA order), each joint with its own
start time and duration if needed. Python floats in give a float out through a plain-math path
(a numpy call costs about a microsecond, so 25 scalar numpy evaluations would cost more than one
vectorised one); anything else gives an array.

Before ``start_time`` the result is ``start``; from ``start_time + duration`` on it is exactly
``target``. A zero duration jumps to the target at ``start_time`` (the safety stage then limits
how fast the joint really moves).

Minimum jerk is the 5th-order polynomial ``s(τ) = 10τ³ − 15τ⁴ + 6τ⁵`` (Flash & Hogan, 1985):
zero velocity and zero acceleration at both ends, monotonic in between, and a peak speed of
15/8 of the average speed at mid-move.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

#: Peak speed of a minimum-jerk move over its average speed, |target - start| / duration.
MINIMUM_JERK_PEAK_SPEED_RATIO = 15.0 / 8.0

Interpolation = Literal["linear", "minimum_jerk"]
INTERPOLATIONS: tuple[Interpolation, ...] = ("linear", "minimum_jerk")

_SHORTEST = 1e-9


def progress(start_time: ArrayLike, duration: ArrayLike, now: float) -> np.ndarray:
    """Fraction of the move done at ``now``: 0 before ``start_time``, 1 from the end on.

    A zero (or negative) duration counts as done from ``start_time`` on.
    """
    start_time = np.asarray(start_time, dtype=np.float64)
    duration = np.maximum(duration, 0.0)
    # Dividing by at least a nanosecond keeps 0/0 and x/0 out without an errstate (which costs
    # more than the arithmetic); a shorter move is settled by the end-time test below anyway.
    tau = np.asarray(np.subtract(now, start_time) / np.maximum(duration, _SHORTEST))
    np.maximum(tau, 0.0, out=tau)
    np.minimum(tau, 1.0, out=tau)
    # Done is decided by comparing with the end time, not by tau: (t0 + d - t0) / d can round
    # to just below 1, and a servo must then already be exactly on its target.
    np.copyto(tau, 1.0, where=now >= start_time + duration)
    return tau


def _scalar_progress(start_time: float, duration: float, now: float) -> float:
    if now < start_time:
        return 0.0
    if now >= start_time + max(duration, 0.0):
        return 1.0
    return min((now - start_time) / max(duration, _SHORTEST), 1.0)


def _all_floats(*values: object) -> bool:
    return all(type(value) is float for value in values)


def _blend(start: ArrayLike, target: ArrayLike, s: np.ndarray) -> np.ndarray:
    # start·(1 − s) + target·s is exactly `start` at s = 0 and exactly `target` at s = 1,
    # where start + (target − start)·s can miss the target by an ulp.
    return np.multiply(start, 1.0 - s) + np.multiply(target, s)


def linear(
    start: ArrayLike, target: ArrayLike, start_time: ArrayLike, duration: ArrayLike, now: float
) -> np.ndarray | float:
    """Position at ``now`` of a constant-speed move from ``start`` to ``target``."""
    if _all_floats(start, target, start_time, duration, now):
        s = _scalar_progress(start_time, duration, now)  # type: ignore[arg-type]
        return start * (1.0 - s) + target * s  # type: ignore[operator]
    return _blend(start, target, progress(start_time, duration, now))


def minimum_jerk_profile(tau: ArrayLike) -> np.ndarray:
    """The minimum-jerk fraction ``10τ³ − 15τ⁴ + 6τ⁵`` of a progress ``τ`` in [0, 1]."""
    tau = np.asarray(tau, dtype=np.float64)
    return tau * tau * tau * (10.0 + tau * (-15.0 + 6.0 * tau))


def minimum_jerk(
    start: ArrayLike, target: ArrayLike, start_time: ArrayLike, duration: ArrayLike, now: float
) -> np.ndarray | float:
    """Position at ``now`` of a minimum-jerk move from ``start`` to ``target``."""
    if _all_floats(start, target, start_time, duration, now):
        t = _scalar_progress(start_time, duration, now)  # type: ignore[arg-type]
        s = t * t * t * (10.0 + t * (-15.0 + 6.0 * t))
        return start * (1.0 - s) + target * s  # type: ignore[operator]
    return _blend(start, target, minimum_jerk_profile(progress(start_time, duration, now)))


def linear_velocity(
    start: ArrayLike, target: ArrayLike, start_time: ArrayLike, duration: ArrayLike, now: float
) -> np.ndarray:
    """Velocity at ``now`` of :func:`linear`: the average speed while moving, else 0.

    A zero-duration move has no finite velocity; it reports 0 (the jump is instantaneous).
    """
    start, target, start_time, duration = _arrays(start, target, start_time, duration)
    moving = (duration > 0.0) & (now >= start_time) & (now < start_time + duration)
    speed = np.divide(
        target - start,
        duration,
        out=np.zeros(np.broadcast(target, start, duration).shape),
        where=duration > 0.0,
    )
    return np.where(moving, speed, 0.0)


def minimum_jerk_velocity(
    start: ArrayLike, target: ArrayLike, start_time: ArrayLike, duration: ArrayLike, now: float
) -> np.ndarray:
    """Velocity at ``now`` of :func:`minimum_jerk`: ``(target − start)·30τ²(1 − τ)²/duration``.

    Zero before the start, after the end, and for a zero-duration move.
    """
    start, target, start_time, duration = _arrays(start, target, start_time, duration)
    tau = progress(start_time, duration, now)
    rate = np.divide(
        30.0 * tau * tau * (1.0 - tau) ** 2, duration, out=np.zeros(tau.shape), where=duration > 0.0
    )
    return (target - start) * rate


def interpolate(
    kind: Interpolation,
    start: ArrayLike,
    target: ArrayLike,
    start_time: ArrayLike,
    duration: ArrayLike,
    now: float,
) -> np.ndarray | float:
    """Position at ``now`` of a move of the given ``kind`` (``"linear"``, ``"minimum_jerk"``)."""
    if kind == "linear":
        return linear(start, target, start_time, duration, now)
    if kind == "minimum_jerk":
        return minimum_jerk(start, target, start_time, duration, now)
    raise ValueError(f"unknown interpolation {kind!r}; expected one of {INTERPOLATIONS}")


def _arrays(*values: ArrayLike) -> tuple[np.ndarray, ...]:
    return tuple(np.asarray(v, dtype=np.float64) for v in values)
