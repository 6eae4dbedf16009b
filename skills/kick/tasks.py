"""The kick's task and state, validated where they are made."""

from __future__ import annotations

import math
from typing import Any

import attrs

#: A ball further than this (m) from the robot is a mistake, not a kick request.
MAX_BALL_DISTANCE = 10.0
FEET = ("auto", "left", "right")


def _coordinate(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{_name(instance, attribute)} must be a number of metres, got {value!r}")
    if not (math.isfinite(value) and abs(value) <= MAX_BALL_DISTANCE):
        raise ValueError(
            f"{_name(instance, attribute)} must be finite and within ±{MAX_BALL_DISTANCE:g} m, "
            f"got {value!r}"
        )


def _name(instance: Any, attribute: attrs.Attribute) -> str:
    return f"{type(instance).__name__}.{attribute.name}"


def _direction(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"Kick.direction must be a number of radians, got {value!r}")
    if not (math.isfinite(value) and abs(value) <= math.pi):
        raise ValueError(f"Kick.direction must be within [-pi, pi] rad, got {value!r}")


def _power(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{_name(instance, attribute)} must be a number in [0, 1], got {value!r}")
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise ValueError(f"{_name(instance, attribute)} must be within [0, 1], got {value!r}")


def _foot(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value not in FEET:
        raise ValueError(
            f"{_name(instance, attribute)} must be one of {', '.join(FEET)}, got {value!r}"
        )


def _float(value: Any) -> Any:
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


@attrs.frozen
class Kick:
    """Kick the ball at (``ball_x``, ``ball_y``) (m, robot frame: on the ground midway between
    the ankles of the walk stand, x forward, y left) towards ``direction`` (rad, 0 straight
    ahead, + to the left) with ``power`` in [0, 1], with ``foot`` "left", "right" or "auto"
    (the foot on the ball's side).

    The kick starts from the walk stand: emitted while the walk steps, it first brings the feet
    together. A ball out of the kick's reach (``skills/kick/kick.yaml``) is refused with the
    reason in the kick state, and nothing moves. Done once the robot stands again.
    """

    ball_x: float = attrs.field(converter=_float, validator=_coordinate)
    ball_y: float = attrs.field(converter=_float, validator=_coordinate)
    direction: float = attrs.field(default=0.0, converter=_float, validator=_direction)
    power: float = attrs.field(default=1.0, converter=_float, validator=_power)
    foot: str = attrs.field(default="auto", validator=_foot)


@attrs.frozen
class InWalkKick:
    """Kick the ball at (``ball_x``, ``ball_y``) (m, robot frame when emitted, as ``Kick``)
    with a step of the walk, straight ahead, with ``foot`` "left", "right" or "auto" (the
    foot whose line the ball is on when it comes in reach). It has no power: the kick step's
    strength comes from the walk's own speed (measured: slower kick steps did not kick the
    ball less far).

    The behaviour keeps walking towards the ball (its Walk stays emitted); the walk shortens
    the step before the kick so the kick step's swing meets the ball, and walks on after it.
    Done once the kick step has landed, or ("missed") after ``in_walk_steps`` steps
    (``kick.yaml``) without the ball coming in reach.
    """

    ball_x: float = attrs.field(converter=_float, validator=_coordinate)
    ball_y: float = attrs.field(converter=_float, validator=_coordinate)
    foot: str = attrs.field(default="auto", validator=_foot)


@attrs.frozen
class KickStatus:
    """The kick state: what runs now and how the last kick ended.

    ``phase``: "idle", "waiting for the legs", "stopping walk", "to the walk stand", "planning",
    "settling", "shifting", "winding", "swinging", "holding", "retracting", "lowering",
    "returning"; for an in-walk kick "walking to the ball" and "kick step". ``outcome`` of the
    last kick: None (none ended yet), "kicked", "refused", "interrupted" or "missed", with
    ``reason`` for the last three.
    """

    phase: str = "idle"
    foot: str | None = None
    outcome: str | None = None
    reason: str | None = None
    kicks: int = 0

    @property
    def active(self) -> bool:
        """Whether a kick is under way."""
        return self.phase != "idle"
