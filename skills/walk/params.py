"""The gait's parameters: one validated value, shipped defaults in ``gait.yaml``.

Every parameter has a unit and an allowed range (``PARAMETER_RANGES``); a value outside its
range, a wrong type or an unknown key is refused with a :class:`GaitError` that names the key,
the value and the range. Defaults follow rUNSWift's Walk2014 and B-Human's walking engine
(../shared/reference/walk_engines.md), then tuned in naosim with ``motiond bench walk``.

User files override the shipped defaults key by key: :func:`load_gait` reads the shipped file,
then the user's, so a user file may name only the keys it changes.
"""

from __future__ import annotations

import math
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
import yaml


class GaitError(ValueError):
    """A gait parameter is wrong: names the ``key``, the ``value`` and the ``problem``."""

    def __init__(self, key: str | None, value: Any, problem: str, source: str = "gait") -> None:
        self.key = key
        self.value = value
        self.problem = problem
        self.source = source
        where = source if key is None else f"{source}: {key} = {value!r}"
        super().__init__(f"{where}: {problem}")

    def __reduce__(self) -> tuple[type[GaitError], tuple[str | None, Any, str, str]]:
        # Rebuilt from its fields: a process pool's worker (``motiond optimise``) sends it back
        # pickled, and ``Exception``'s default passes only the message, which this does not
        # take (the pool's result thread died on it and the search hung).
        return (type(self), (self.key, self.value, self.problem, self.source))


# name: (low, high, unit, what it is). Ranges are what the engine and the NAO can carry out,
# not what is wise; the shipped values sit well inside them.
PARAMETER_RANGES: dict[str, tuple[float, float, str, str]] = {
    "step_period": (0.15, 0.6, "s", "nominal duration of one step (half a gait cycle)"),
    "period_side_increase": (0.0, 0.2, "s", "added to the period at full sideways speed"),
    "period_turn_decrease": (0.0, 0.1, "s", "taken off the period at full turning speed"),
    "period_forward_increase": (0.0, 0.1, "s", "added to the period at full forward speed"),
    "hip_height": (0.19, 0.245, "m", "hip joints above the soles while walking"),
    "foot_spread": (-0.01, 0.04, "m", "extra lateral distance of each foot beyond the hip"),
    "foot_lift": (0.005, 0.05, "m", "swing foot lift of a step in place"),
    "lift_forward_gain": (0.0, 0.5, "m/m", "extra lift per metre of forward step"),
    "side_dead_share": (0.0, 0.4, "1", "share of a step at each end with no sideways travel"),
    "close_lead": (
        0.0,
        0.3,
        "1",
        "share of a step by which a closing swing foot's sideways travel runs ahead of its lift,"
        " walking straight sideways at the limit",
    ),
    "lift_side_gain": (0.0, 0.5, "m/m", "extra lift per metre of sideways step"),
    "footstep_lift": (0.005, 0.05, "m", "swing foot lift of a planned footstep"),
    "footstep_lift_gain": (0.0, 0.5, "m/m", "a planned footstep's extra lift per metre of it"),
    "footstep_lift_turn": (0.0, 0.2, "m/rad", "a planned footstep's extra lift per rad of turn"),
    "side_open_share": (
        0.2,
        0.8,
        "1",
        "share of an opening the body moves over the support foot, at full sideways speed",
    ),
    "com_offset": (-0.03, 0.05, "m", "hip ahead of the ankles when walking in place"),
    "com_offset_forward": (-0.03, 0.06, "m", "hip ahead of the ankles at full forward speed"),
    "com_offset_backward": (-0.03, 0.05, "m", "hip ahead of the ankles at full backward speed"),
    "torso_lean": (-0.1, 0.3, "rad", "forward lean of the torso while walking"),
    "torso_lean_forward": (-0.1, 0.3, "rad", "extra lean at full forward speed"),
    "hip_sway": (
        -0.03,
        0.04,
        "m",
        "sideways shift of the hips towards the support foot mid-sway (negative: the swing foot)",
    ),
    "sway_periods": (0.5, 3.0, "periods", "how long a step's hip sway lasts"),
    "sag_periods_side": (
        1.0,
        4.0,
        "periods",
        "how long the support hip's sag compensation lasts at full sideways speed",
    ),
    "max_forward": (0.05, 1.0, "m/s", "forward speed limit"),
    "max_backward": (0.05, 1.0, "m/s", "backward speed limit"),
    "max_left": (0.05, 0.6, "m/s", "sideways speed limit"),
    "max_turn": (0.1, 4.0, "rad/s", "turning speed limit"),
    "forward_accel": (0.005, 0.5, "m/s", "largest forward speed change per step"),
    "forward_decel": (0.005, 0.5, "m/s", "largest forward speed decrease per step"),
    "redirect_decel": (0.005, 0.5, "m/s", "largest forward slow-down per step, not stopping"),
    "left_accel": (0.005, 0.5, "m/s", "largest sideways speed change per step"),
    "turn_accel": (0.05, 4.0, "rad/s", "largest turning speed change per step"),
    "turn_when_fast": (
        0.0,
        1.0,
        "1",
        "share of the turn limit left at full forward or sideways speed",
    ),
    "gyro_filter": (0.0, 0.95, "1", "share of the old value kept by the gyro low-pass"),
    "gyro_pitch_ankle": (-0.3, 0.3, "rad/(rad/s)", "support ankle pitch per pitch rate"),
    "gyro_pitch_ankle_forward": (
        -0.3,
        0.3,
        "rad/(rad/s)",
        "support ankle pitch per pitch rate at full forward speed",
    ),
    "gyro_pitch_hip": (-0.2, 0.2, "rad/(rad/s)", "support hip pitch per pitch rate"),
    "gyro_roll_ankle": (-0.3, 0.3, "rad/(rad/s)", "support ankle roll per roll rate"),
    "gyro_roll_hip": (-0.2, 0.2, "rad/(rad/s)", "support hip roll per roll rate"),
    "sag_hip_roll": (-0.4, 0.4, "rad", "support hip roll added in single support (servo sag)"),
    "sag_hip_roll_forward": (
        -0.4,
        0.4,
        "rad",
        "support hip roll added in single support at full forward speed",
    ),
    "load_hip_pitch": (
        0.0,
        2.0,
        "",
        "share of the hip pitch servos' give under the legs' static load commanded away",
    ),
    "load_hip_pitch_forward": (
        0.0,
        2.0,
        "",
        "the hip pitch servos' load compensation at full forward speed",
    ),
    "tilt_pitch_ankle": (-1.0, 1.0, "rad/rad", "support ankle pitch per torso pitch error"),
    "tilt_pitch_ankle_forward": (
        -1.0,
        1.0,
        "rad/rad",
        "support ankle pitch per torso pitch error at full forward speed",
    ),
    "tilt_pitch_hip": (-1.0, 1.0, "rad/rad", "support hip pitch per torso pitch error"),
    "back_step_lean": (0.0, 0.5, "rad", "forward lean past the gait's that bars backward steps"),
    "slow_lean": (0.05, 1.0, "rad", "backward lean past the gait's that slows a forward walk"),
    "slow_decel": (0.0, 0.3, "m/s", "forward speed taken off a step while leaning back so"),
    "fast_lean": (0.0, 1.0, "rad", "forward lean past the gait's that slows a fast forward walk"),
    "fast_lean_share": (0.0, 1.0, "1", "share of the forward limit from which fast_lean slows"),
    "back_catch_lean": (0.0, 1.0, "rad", "backward lean past the gait's of a backward fall"),
    "back_catch_rate": (0.0, 5.0, "rad/s", "backward pitch rate of a backward fall"),
    "back_catch_speed": (0.0, 0.35, "m/s", "backward speed of the step that catches it"),
    "back_catch_share": (0.0, 1.0, "1", "share of the forward limit below which it catches"),
    "back_catch_deep": (0.0, 1.5, "rad", "backward lean past the gait's caught at any rate"),
    "catch_pitch": (0.0, 0.5, "m/rad", "swing foot placed further forward per rad of forward lean"),
    "tilt_roll_ankle": (-1.0, 1.0, "rad/rad", "support ankle roll per torso roll"),
    "level_swing": (0.0, 1.0, "1", "share of the torso's tilt the swing sole is levelled by"),
    "lead": (0.0, 0.15, "s", "feet commanded this far ahead, for actuation delay and servo lag"),
    "switch_min_phase": (0.2, 1.0, "1", "earliest support switch, as a share of the period"),
    "switch_timeout": (1.0, 5.0, "1", "support switch forced after this many periods"),
    "switch_pressure": (0.05, 2.0, "kg", "pressure the new support foot needs to take over"),
    "start_duration": (0.1, 2.0, "s", "time to move from any stance to the walk stand"),
    "start_quiet_gyro": (0.05, 2.0, "rad/s", "first step waits for body rates below this"),
    "start_quiet_wait": (0.0, 2.0, "s", "longest the first step waits for them"),
    "start_lift_share": (0.0, 1.0, "1", "lift of the first step, as a share of foot_lift"),
    "arm_swing": (0.0, 15.0, "rad/m", "shoulder pitch per metre of the opposite foot's x"),
    "arm_roll": (0.0, 0.5, "rad", "shoulder roll away from the body while walking"),
    "arm_stiffness": (0.0, 1.0, "1", "stiffness of the swinging arms"),
    "leg_stiffness": (0.1, 1.0, "1", "stiffness of the legs while walking"),
    "stop_tilt": (0.1, 0.8, "rad", "torso tilt beyond which the walk stops stepping"),
    "stop_gyro": (0.5, 10.0, "rad/s", "torso rate beyond which the walk stops stepping"),
}


def between(start: float, end: float, share: float) -> float:
    """The value ``share`` of the way from ``start`` to ``end`` (0: ``start``, 1: ``end``):
    how a parameter scheduled by speed moves from its in-place value to its full-speed one,
    and how gaits blend."""
    return start + (end - start) * share


def share_of(speed: float, limit: float) -> float:
    """How much of ``limit`` a speed is, either way, at most all of it (0..1): what the
    parameters scheduled by speed are scheduled by."""
    return min(1.0, abs(speed) / limit)


def range_check(
    ranges: dict[str, tuple[float, float, str, str]],
    name: str,
    error: type[GaitError] = GaitError,
    source: str = "gait",
) -> Any:
    """An attrs validator refusing what is not a number within ``ranges[name]`` (low, high,
    unit, what it is) with ``error`` naming the key, the value and the range; counts (unit
    "cycles" or "steps") must be whole."""
    low, high, unit, what = ranges[name]

    def check(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise error(name, value, f"must be a number ({unit}), {what}", source)
        if not (math.isfinite(value) and low <= value <= high):
            raise error(name, value, f"must be within [{low:g}, {high:g}] {unit} ({what})", source)
        if unit in ("cycles", "steps") and value != int(value):
            raise error(name, value, f"must be a whole number of {unit}", source)

    return check


def _parameter(name: str) -> Any:
    return attrs.field(validator=range_check(PARAMETER_RANGES, name), converter=_float_or_keep)


def _float_or_keep(value: Any) -> Any:
    # ints become floats; anything else is left for the validator to refuse by name.
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


@attrs.frozen
class GaitParameters:
    """One gait: every number the walk engine uses (units and ranges in PARAMETER_RANGES).

    Build it with :func:`load_gait` (shipped defaults, optionally overridden) or
    ``attrs.evolve(params, key=value)``; every field is checked at construction.
    """

    step_period: float = _parameter("step_period")
    period_side_increase: float = _parameter("period_side_increase")
    period_turn_decrease: float = _parameter("period_turn_decrease")
    period_forward_increase: float = _parameter("period_forward_increase")
    hip_height: float = _parameter("hip_height")
    foot_spread: float = _parameter("foot_spread")
    foot_lift: float = _parameter("foot_lift")
    lift_forward_gain: float = _parameter("lift_forward_gain")
    side_dead_share: float = _parameter("side_dead_share")
    close_lead: float = _parameter("close_lead")
    side_open_share: float = _parameter("side_open_share")
    lift_side_gain: float = _parameter("lift_side_gain")
    footstep_lift: float = _parameter("footstep_lift")
    footstep_lift_gain: float = _parameter("footstep_lift_gain")
    footstep_lift_turn: float = _parameter("footstep_lift_turn")
    com_offset: float = _parameter("com_offset")
    com_offset_forward: float = _parameter("com_offset_forward")
    com_offset_backward: float = _parameter("com_offset_backward")
    torso_lean: float = _parameter("torso_lean")
    torso_lean_forward: float = _parameter("torso_lean_forward")
    hip_sway: float = _parameter("hip_sway")
    sway_periods: float = _parameter("sway_periods")
    sag_periods_side: float = _parameter("sag_periods_side")
    max_forward: float = _parameter("max_forward")
    max_backward: float = _parameter("max_backward")
    max_left: float = _parameter("max_left")
    max_turn: float = _parameter("max_turn")
    forward_accel: float = _parameter("forward_accel")
    forward_decel: float = _parameter("forward_decel")
    redirect_decel: float = _parameter("redirect_decel")
    left_accel: float = _parameter("left_accel")
    turn_accel: float = _parameter("turn_accel")
    turn_when_fast: float = _parameter("turn_when_fast")
    gyro_filter: float = _parameter("gyro_filter")
    gyro_pitch_ankle: float = _parameter("gyro_pitch_ankle")
    gyro_pitch_ankle_forward: float = _parameter("gyro_pitch_ankle_forward")
    gyro_pitch_hip: float = _parameter("gyro_pitch_hip")
    gyro_roll_ankle: float = _parameter("gyro_roll_ankle")
    gyro_roll_hip: float = _parameter("gyro_roll_hip")
    sag_hip_roll: float = _parameter("sag_hip_roll")
    sag_hip_roll_forward: float = _parameter("sag_hip_roll_forward")
    load_hip_pitch: float = _parameter("load_hip_pitch")
    load_hip_pitch_forward: float = _parameter("load_hip_pitch_forward")
    tilt_pitch_ankle: float = _parameter("tilt_pitch_ankle")
    tilt_pitch_ankle_forward: float = _parameter("tilt_pitch_ankle_forward")
    tilt_pitch_hip: float = _parameter("tilt_pitch_hip")
    back_step_lean: float = _parameter("back_step_lean")
    slow_lean: float = _parameter("slow_lean")
    slow_decel: float = _parameter("slow_decel")
    fast_lean: float = _parameter("fast_lean")
    fast_lean_share: float = _parameter("fast_lean_share")
    back_catch_lean: float = _parameter("back_catch_lean")
    back_catch_rate: float = _parameter("back_catch_rate")
    back_catch_speed: float = _parameter("back_catch_speed")
    back_catch_share: float = _parameter("back_catch_share")
    back_catch_deep: float = _parameter("back_catch_deep")
    catch_pitch: float = _parameter("catch_pitch")
    tilt_roll_ankle: float = _parameter("tilt_roll_ankle")
    level_swing: float = _parameter("level_swing")
    lead: float = _parameter("lead")
    switch_min_phase: float = _parameter("switch_min_phase")
    switch_timeout: float = _parameter("switch_timeout")
    switch_pressure: float = _parameter("switch_pressure")
    start_duration: float = _parameter("start_duration")
    start_quiet_gyro: float = _parameter("start_quiet_gyro")
    start_quiet_wait: float = _parameter("start_quiet_wait")
    start_lift_share: float = _parameter("start_lift_share")
    arm_swing: float = _parameter("arm_swing")
    arm_roll: float = _parameter("arm_roll")
    arm_stiffness: float = _parameter("arm_stiffness")
    leg_stiffness: float = _parameter("leg_stiffness")
    stop_tilt: float = _parameter("stop_tilt")
    stop_gyro: float = _parameter("stop_gyro")

    @classmethod
    def from_mapping(cls, values: Any, source: str = "gait") -> GaitParameters:
        """Parameters from a mapping naming every field; refuses unknown and missing keys."""
        if not isinstance(values, dict):
            raise GaitError(None, values, "a gait must be a mapping of parameter to value", source)
        unknown = sorted(set(values) - set(PARAMETER_RANGES))
        if unknown:
            raise GaitError(
                unknown[0], values[unknown[0]], f"unknown parameter (known: {_known()})", source
            )
        missing = sorted(set(PARAMETER_RANGES) - set(values))
        if missing:
            raise GaitError(missing[0], None, "missing", source)
        try:
            return cls(**values)
        except GaitError as error:
            raise GaitError(error.key, error.value, error.problem, source) from None

    def to_mapping(self) -> dict[str, float]:
        """Every parameter by name (what ``from_mapping`` reads back)."""
        return attrs.asdict(self)


def _known() -> str:
    return ", ".join(PARAMETER_RANGES)


def read_parameter_yaml(
    text: str, source: str, error: type[GaitError] = GaitError
) -> dict[str, Any]:
    """A parameter file's mapping (empty for an empty file); ``error`` for anything else."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as problem:
        raise error(None, None, f"not valid YAML: {problem}", source) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise error(None, data, "a parameter file must be a mapping of parameter to value", source)
    return data


def shipped_gait_values() -> dict[str, Any]:
    """The shipped defaults (``skills/walk/gait.yaml``) as a mapping."""
    text = resources.files("skills.walk").joinpath("gait.yaml").read_text()
    return read_parameter_yaml(text, "gait.yaml")


def layered_parameters(
    shipped: dict[str, Any],
    path: str | Path | None,
    overrides: dict[str, Any],
    ranges: dict[str, tuple[float, float, str, str]],
    error: type[GaitError] = GaitError,
    name: str = "gait",
) -> tuple[dict[str, Any], str]:
    """The ``shipped`` values overridden by the YAML file at ``path``, then by ``overrides``,
    and the source to name in errors (``<name>.yaml`` or the file). A key not in ``ranges`` or
    an unreadable file is refused with ``error``; the values themselves are checked by the
    caller's attrs class."""
    values, source = dict(shipped), f"{name}.yaml"
    layers: list[tuple[str, dict[str, Any]]] = []
    if path is not None:
        source = str(path)
        try:
            text = Path(path).read_text()
        except OSError as problem:
            raise error(None, None, f"cannot read: {problem}", source) from None
        layers.append((source, read_parameter_yaml(text, source, error)))
    layers.append((name, overrides))
    for where, layer in layers:
        for key, value in layer.items():
            if key not in ranges:
                known = ", ".join(ranges)
                raise error(key, value, f"unknown parameter (known: {known})", where)
        values.update(layer)
    return values, source


def load_gait(path: str | Path | None = None, **overrides: float) -> GaitParameters:
    """The shipped gait, overridden by the YAML file at ``path`` and then by ``overrides``."""
    values, source = layered_parameters(shipped_gait_values(), path, overrides, PARAMETER_RANGES)
    return GaitParameters.from_mapping(values, source)
