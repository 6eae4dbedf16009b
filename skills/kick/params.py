"""The standing kick's parameters: one validated value, shipped defaults in ``kick.yaml``.

Every parameter has a unit and an allowed range (``PARAMETER_RANGES``); a value outside it, a
wrong type or an unknown key is refused with a :class:`KickParameterError` naming the key, the
value and the range, as the gait's are (``skills.walk.params``). A user file overrides the
shipped values key by key (:func:`load_kick_parameters`).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import attrs

from skills.walk.params import GaitError, layered_parameters, range_check, read_parameter_yaml


class KickParameterError(GaitError):
    """A kick parameter is wrong (``key``, ``value``, ``problem`` as the gait's errors)."""


# name: (low, high, unit, what it is). Ranges are what the kick and the NAO can carry out.
PARAMETER_RANGES: dict[str, tuple[float, float, str, str]] = {
    "stiffness": (0.3, 1.0, "1", "leg stiffness during the kick"),
    "settle_speed": (0.3, 4.0, "rad/s", "joint speed from the commanded legs to the kick stand"),
    "shift_duration": (0.2, 2.0, "s", "weight onto the support foot, and back"),
    "com_ahead": (-0.03, 0.04, "m", "centre of mass ahead of the support ankle"),
    "wind_duration": (0.1, 1.5, "s", "lift the kicking foot and draw it back"),
    "wind_back": (0.0, 0.15, "m", "kicking foot drawn back behind its stand place"),
    "wind_height": (0.01, 0.1, "m", "sole height when drawn back"),
    "contact_height": (0.02, 0.08, "m", "sole height where the foot meets the ball"),
    "in_walk_contact_height": (0.02, 0.08, "m", "sole height at an in-walk kick's mid-stride"),
    "penetration": (0.0, 0.06, "m", "swing aimed this far into the ball"),
    "follow_through": (0.0, 0.12, "m", "swing goes on this far past the contact"),
    "follow_height": (0.02, 0.1, "m", "sole height at the end of the swing"),
    "swing_speed": (1.0, 10.0, "rad/s", "fastest joint along the swing at power 1"),
    "swing_speed_min": (0.5, 10.0, "rad/s", "fastest joint along the swing at power 0"),
    "whip": (0.0, 1.2, "rad", "kicking hip and knee wound up past the contact posture"),
    "whip_follow": (0.0, 1.0, "rad", "kicking hip and knee driven on past the contact posture"),
    "whip_min_power": (0.0, 1.0, "1", "least power that whips (and snaps the torso)"),
    "torso_lean": (0.0, 0.4, "rad", "torso leaned forwards over the wind-up, at power 1"),
    "torso_snap": (0.0, 0.3, "rad", "torso snapped back through the swing, at power 1"),
    "snap_delay": (0.0, 0.3, "s", "the snap begins this long after the swing"),
    "hold_duration": (0.0, 1.0, "s", "foot held at the end of the swing"),
    "retract_duration": (0.1, 1.5, "s", "foot back over its stand place"),
    "lower_duration": (0.1, 1.0, "s", "foot put down"),
    "retract_height": (0.0, 0.06, "m", "sole height over the stand place before lowering"),
    "servo_delay": (0, 6, "cycles", "commands lead the plan by the actuation delay"),
    "servo_velocity_lead": (0.0, 0.15, "s", "lead per planned joint rate (damping / gain)"),
    "servo_accel_lead": (0.0, 0.01, "s^2", "lead per planned joint acceleration"),
    "gyro_pitch_ankle": (-0.2, 0.2, "rad/(rad/s)", "support ankle pitch per pitch rate"),
    "gyro_roll_ankle": (-0.2, 0.2, "rad/(rad/s)", "support ankle roll per roll rate"),
    "in_walk_period": (0.5, 2.5, "1", "the in-walk kick step's period, share of the gait's"),
    "in_walk_min_length": (0.0, 0.2, "m", "shortest in-walk kick step aimed for"),
    "in_walk_length": (0.0, 0.25, "m", "preferred in-walk kick step"),
    "in_walk_max_length": (0.04, 0.3, "m", "longest in-walk kick step"),
    "in_walk_max_offset": (0.0, 0.08, "m", "ball off the kicking foot's line, in-walk"),
    "in_walk_line_up": (0.0, 0.2, "m/s", "sideways speed that brings a ball further off into line"),
    "in_walk_steps": (1, 40, "steps", "steps the in-walk kick waits for the ball"),
    "min_contact_x": (-0.05, 0.15, "m", "nearest contact: kicking ankle ahead of its place"),
    "max_contact_x": (-0.05, 0.2, "m", "farthest contact: kicking ankle ahead of its place"),
    "max_inward": (0.0, 0.08, "m", "kicking ankle inward of its place at the contact"),
    "max_outward": (0.0, 0.12, "m", "kicking ankle outward of its place at the contact"),
    "max_direction": (0.0, 1.0, "rad", "largest kick direction either way"),
}


def _check(name: str) -> Any:
    return range_check(PARAMETER_RANGES, name, KickParameterError, "kick")


def _parameter(name: str) -> Any:
    return attrs.field(validator=_check(name))


def _ordered(instance: KickParameters, attribute: attrs.Attribute, value: Any) -> None:
    if instance.min_contact_x >= instance.max_contact_x:
        raise KickParameterError(
            "min_contact_x",
            instance.min_contact_x,
            f"must be below max_contact_x ({instance.max_contact_x})",
        )
    if instance.swing_speed_min > instance.swing_speed:
        raise KickParameterError(
            "swing_speed_min",
            instance.swing_speed_min,
            f"must not exceed swing_speed ({instance.swing_speed})",
        )


@attrs.frozen
class KickParameters:
    """Every number the standing kick uses (units and ranges in ``PARAMETER_RANGES``)."""

    stiffness: float = _parameter("stiffness")
    settle_speed: float = _parameter("settle_speed")
    shift_duration: float = _parameter("shift_duration")
    com_ahead: float = _parameter("com_ahead")
    wind_duration: float = _parameter("wind_duration")
    wind_back: float = _parameter("wind_back")
    wind_height: float = _parameter("wind_height")
    contact_height: float = _parameter("contact_height")
    in_walk_contact_height: float = _parameter("in_walk_contact_height")
    penetration: float = _parameter("penetration")
    follow_through: float = _parameter("follow_through")
    follow_height: float = _parameter("follow_height")
    swing_speed: float = _parameter("swing_speed")
    swing_speed_min: float = _parameter("swing_speed_min")
    whip: float = _parameter("whip")
    whip_follow: float = _parameter("whip_follow")
    whip_min_power: float = _parameter("whip_min_power")
    torso_lean: float = _parameter("torso_lean")
    torso_snap: float = _parameter("torso_snap")
    snap_delay: float = _parameter("snap_delay")
    hold_duration: float = _parameter("hold_duration")
    retract_duration: float = _parameter("retract_duration")
    lower_duration: float = _parameter("lower_duration")
    retract_height: float = _parameter("retract_height")
    servo_delay: int = _parameter("servo_delay")
    servo_velocity_lead: float = _parameter("servo_velocity_lead")
    servo_accel_lead: float = _parameter("servo_accel_lead")
    gyro_pitch_ankle: float = _parameter("gyro_pitch_ankle")
    gyro_roll_ankle: float = _parameter("gyro_roll_ankle")
    in_walk_period: float = _parameter("in_walk_period")
    in_walk_min_length: float = _parameter("in_walk_min_length")
    in_walk_length: float = _parameter("in_walk_length")
    in_walk_max_length: float = _parameter("in_walk_max_length")
    in_walk_max_offset: float = _parameter("in_walk_max_offset")
    in_walk_line_up: float = _parameter("in_walk_line_up")
    in_walk_steps: int = _parameter("in_walk_steps")
    min_contact_x: float = _parameter("min_contact_x")
    max_contact_x: float = _parameter("max_contact_x")
    max_inward: float = _parameter("max_inward")
    max_outward: float = _parameter("max_outward")
    # Last, so that the checks across fields see every field set.
    max_direction: float = attrs.field(validator=[_check("max_direction"), _ordered])

    def swing_speed_at(self, power: float) -> float:
        """The swing's fastest joint rate (rad/s) at ``power`` in [0, 1].

        Quadratic in power: the ball's travel grows with the square of its speed, and the
        servos cap the joints near the top of the range, so a linear map gave power 0.5 the
        full kick's travel.
        """
        return self.swing_speed_min + power * power * (self.swing_speed - self.swing_speed_min)

    def whip_at(self, power: float) -> tuple[float, float]:
        """The whip's wind-up and follow-through (rad) at ``power`` in [0, 1]: quadratic in
        power, as the swing's speed is; none below ``whip_min_power``.

        The whip winds its joints up past the contact posture, so a small whip starts the
        swing with the foot nearly at the ball instead of drawn back: whipped, power 0.05
        sent the ball 0.35 m, 0.35 only 0.12 m (less power, further). Without it the swing
        along its curve goes 0.11-0.14 m there, in order."""
        share = self._whipped(power)
        return self.whip * share, self.whip_follow * share

    def snap_at(self, power: float) -> tuple[float, float]:
        """The torso's forward lean and its snap back (rad) at ``power`` in [0, 1]:
        quadratic in power, as the whip is; none where there is no whip (the toe lift that
        keeps the leaned kick off the floor is the whip's)."""
        share = self._whipped(power)
        return self.torso_lean * share, self.torso_snap * share

    def _whipped(self, power: float) -> float:
        """How much of the whip and the snap ``power`` takes: its square, none below
        ``whip_min_power``."""
        return 0.0 if power < self.whip_min_power else power * power


def load_kick_parameters(path: str | Path | None = None, **overrides: Any) -> KickParameters:
    """The shipped kick parameters, overridden by the YAML file at ``path``, then ``overrides``."""
    text = resources.files("skills.kick").joinpath("kick.yaml").read_text()
    shipped = read_parameter_yaml(text, "kick", KickParameterError)
    values, source = layered_parameters(
        shipped, path, overrides, PARAMETER_RANGES, KickParameterError, "kick"
    )
    missing = sorted(set(PARAMETER_RANGES) - set(values))
    if missing:
        raise KickParameterError(missing[0], None, "missing", source)
    try:
        return KickParameters(**values)
    except KickParameterError as error:
        raise KickParameterError(error.key, error.value, error.problem, source) from None
