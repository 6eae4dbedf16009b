"""The walk's task types, checked where they are made.

- ``Walk(forward, left, turn)``: walk at this velocity (m/s, m/s, rad/s; NAOqi's move). All
  zero walks in place to a stand and holds it. Requests past the gait's limits are clamped
  onto its ellipsoid (the clamped request is in the walk state), but a non-finite or absurd
  value (beyond ``ABSURD_SPEED`` / ``ABSURD_TURN``) is refused here. ``high_stand``: standing
  still, straighten the legs to save the knees (B-Human's high stand).
- ``WalkToward(x, y, theta, frequency)``: the same, each of x, y, theta in [-1, 1] as a share
  of the gait's limit (NAOqi's moveToward); ``frequency`` in [0, 1] a share of the step
  frequency range (1: the gait's own period).
- ``KillWalk()``: stop stepping at once (NAOqi's killMove); the walk holds until its request
  changes or it is emitted anew.
- ``StopWalk()``: the walk's own: bring the feet together after a withdrawn Walk. Emitted by
  the walk skill, never by behaviours.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from skills.walk.params import GaitParameters

#: Requests beyond these are mistakes, not fast walks: refused, not clamped.
ABSURD_SPEED = 5.0  # m/s
ABSURD_TURN = 20.0  # rad/s


def _speed(limit: float, unit: str):
    def convert(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"a walk velocity must be a number ({unit}), got {value!r}")
        value = float(value)
        if not math.isfinite(value) or abs(value) > limit:
            raise ValueError(
                f"a walk velocity must be finite and within ±{limit:g} {unit}, got {value!r}"
            )
        return value

    return convert


def _share(low: float, what: str):
    def convert(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"{what} must be a number in [{low:g}, 1], got {value!r}")
        value = float(value)
        if not (math.isfinite(value) and low <= value <= 1.0):
            raise ValueError(f"{what} must be within [{low:g}, 1], got {value!r}")
        return value

    return convert


def gait_field() -> Any:
    """A walking task's optional gait (keyword-only, None by default)."""
    return attrs.field(
        default=None,
        kw_only=True,
        validator=attrs.validators.optional(attrs.validators.instance_of(GaitParameters)),
    )


@attrs.frozen
class Walk:
    """Walk at ``forward`` (m/s), ``left`` (m/s), ``turn`` (rad/s); clamped to the gait.

    ``frequency`` in [0, 1]: a share of the step frequency range (1 = the gait's period, 0 =
    the slowest; NAOqi's moveToward frequency).
    """

    forward: float = attrs.field(default=0.0, converter=_speed(ABSURD_SPEED, "m/s"))
    left: float = attrs.field(default=0.0, converter=_speed(ABSURD_SPEED, "m/s"))
    turn: float = attrs.field(default=0.0, converter=_speed(ABSURD_TURN, "rad/s"))
    frequency: float = attrs.field(default=1.0, converter=_share(0.0, "frequency"), kw_only=True)
    #: The gait to walk with (a named gait, a NAOqi move config applied to one; see
    #: ``skills.walk.gaits``); None: the walk's own. A change is blended in over two steps.
    gait: GaitParameters | None = gait_field()
    #: The steps one foot makes, if they differ from ``gait``'s (NAOqi's per-foot move config,
    #: "LeftStepHeight" and so on): their period, lift and largest step are this gait's.
    left_gait: GaitParameters | None = gait_field()
    right_gait: GaitParameters | None = gait_field()
    #: Standing (all zero), go on from the energy-saving stand into the high stand: straight
    #: legs, the knees carrying almost nothing (B-Human's stand high; ``skills.walk.energy``).
    #: A walk request brings the walk's stand back first (0.3 s).
    high_stand: bool = attrs.field(
        default=False, kw_only=True, validator=attrs.validators.instance_of(bool)
    )


@attrs.frozen
class WalkToward:
    """Walk at shares of the gait's limits: x, y, theta each in [-1, 1]; frequency in [0, 1]."""

    x: float = attrs.field(default=0.0, converter=_share(-1.0, "x"))
    y: float = attrs.field(default=0.0, converter=_share(-1.0, "y"))
    theta: float = attrs.field(default=0.0, converter=_share(-1.0, "theta"))
    frequency: float = attrs.field(default=1.0, converter=_share(0.0, "frequency"))
    gait: GaitParameters | None = gait_field()
    left_gait: GaitParameters | None = gait_field()
    right_gait: GaitParameters | None = gait_field()


@attrs.frozen
class KillWalk:
    """Stop stepping now (emergency); the walk holds until its request changes."""


@attrs.frozen
class StopWalk:
    """The walk skill's own task: feet together after a Walk was withdrawn, then Done."""
