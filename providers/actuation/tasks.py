"""Task types of the actuation tree: servos, joint groups and sequences of group commands.

- ``SERVO_TASKS[name]``: one attrs class per LoLA joint (``HeadYaw``, ``LKneePitch``, ...),
  fields ``position`` (rad), ``stiffness`` (0..1), ``duration`` (s), ``interpolation``.
  Distinct classes because the Director arbitrates by type: each servo is its own group.
- :class:`JointCommand`: positions for some joints, their stiffness, one duration.
- Group tasks (``Head``, ``LeftArm``, ..., ``Body``): each carries a JointCommand naming only
  joints of that group. ``GROUP_JOINTS[Group]`` lists a group's joints in LoLA order.
- Sequence tasks (``HeadSequence``, ..., ``BodySequence``, one per group): a tuple of
  JointCommands played one after another on that group, optionally waiting after each for the
  joints to arrive (:class:`~providers.actuation.arrival.Arrival`). ``SEQUENCE_OF[Group]`` maps
  a group to its sequence type.

Everything is checked at construction, so a bad value fails where it is made, not in the cycle.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import attrs
import numpy as np

from lola_io.joints import (
    HEAD_JOINTS,
    JOINT_INDEX,
    JOINT_NAMES,
    LEFT_ARM_JOINTS,
    LEFT_LEG_JOINTS,
    RIGHT_ARM_JOINTS,
    RIGHT_LEG_JOINTS,
)
from providers.actuation.arrival import Arrival
from providers.interpolation import INTERPOLATIONS

_isfinite = math.isfinite


def _number(value: Any, what: str) -> float:
    if type(value) is float:  # the hot path: providers pass plain floats
        return value
    # A YAML `true` or a string where a number belongs is a mistake, not 1.0.
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating | np.integer):
        raise TypeError(f"{what} must be a number, got {value!r}")
    return float(value)


def check_position(value: Any, what: str = "position") -> float:
    """A finite angle as a float, or a clear error."""
    value = _number(value, what)
    if not math.isfinite(value):
        raise ValueError(f"{what} must be finite, got {value!r}")
    return value


def check_stiffness(value: Any, what: str = "stiffness") -> float:
    """A stiffness in [0, 1] as a float, or a clear error."""
    value = _number(value, what)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{what} must be within [0, 1], got {value!r}")
    return value


def check_duration(value: Any, what: str = "duration") -> float:
    """A finite, non-negative duration (s) as a float, or a clear error."""
    value = _number(value, what)
    if not (math.isfinite(value) and value >= 0.0):
        raise ValueError(f"{what} must be a finite number of seconds >= 0, got {value!r}")
    return value


def _interpolation(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value not in INTERPOLATIONS:
        raise ValueError(f"{attribute.name} must be one of {INTERPOLATIONS}, got {value!r}")


def _servo_class(name: str) -> type:
    def check(self: Any) -> None:
        # One check for all four fields: servo tasks are made every cycle of a walk (11 per
        # cycle), and four attrs converters per task cost more than the rest of the servo.
        p, s, d = self.position, self.stiffness, self.duration
        if not (type(p) is float and type(s) is float and type(d) is float):
            p = check_position(p, f"{name}.position")
            s = check_stiffness(s, f"{name}.stiffness")
            d = check_duration(d, f"{name}.duration")
            object.__setattr__(self, "position", p)
            object.__setattr__(self, "stiffness", s)
            object.__setattr__(self, "duration", d)
        if not _isfinite(p):
            check_position(p, f"{name}.position")
        if not 0.0 <= s <= 1.0:
            check_stiffness(s, f"{name}.stiffness")
        if not (d >= 0.0 and _isfinite(d)):
            check_duration(d, f"{name}.duration")
        if self.interpolation not in INTERPOLATIONS:
            raise ValueError(
                f"{name}.interpolation must be one of {INTERPOLATIONS}, got {self.interpolation!r}"
            )

    namespace = {
        "__module__": __name__,
        "__attrs_post_init__": check,
        "position": attrs.field(),
        "stiffness": attrs.field(default=1.0),
        "duration": attrs.field(default=0.0),
        "interpolation": attrs.field(default="minimum_jerk"),
    }
    cls = attrs.frozen(type(name, (), namespace))
    cls.__module__ = __name__
    cls.__doc__ = f"Servo task of {name}: position (rad), stiffness 0..1, duration (s)."
    return cls


#: One servo task type per LoLA joint, by joint name.
SERVO_TASKS: Mapping[str, type] = MappingProxyType({n: _servo_class(n) for n in JOINT_NAMES})
_SERVO_BY_NAME = dict(SERVO_TASKS)
#: The servo task types in LoLA order (index = joint index).
SERVO_TYPES: tuple[type, ...] = tuple(SERVO_TASKS[n] for n in JOINT_NAMES)


def _in_lola_order(names: Any) -> list[str]:
    return sorted(names, key=JOINT_INDEX.__getitem__)


def _positions(value: Any) -> Mapping[str, float]:
    if not isinstance(value, Mapping):
        raise TypeError(f"positions must be a mapping of joint name to angle, got {value!r}")
    if not value:
        raise ValueError("positions must name at least one joint")
    unknown = [name for name in value if name not in JOINT_INDEX]
    if unknown:
        raise ValueError(f"unknown joint(s) {unknown}; joints are LoLA names {list(JOINT_NAMES)}")
    # LoLA order: equal commands compare and print the same however they were written.
    ordered = {}
    for name in _in_lola_order(value):
        angle = value[name]
        if type(angle) is not float or not _isfinite(angle):
            angle = check_position(angle, f"positions[{name}]")
        ordered[name] = angle
    return MappingProxyType(ordered)


def _stiffness(value: Any) -> Mapping[str, float] | float:
    if isinstance(value, Mapping):
        unknown = [name for name in value if name not in JOINT_INDEX]
        if unknown:
            raise ValueError(f"stiffness names unknown joint(s) {unknown}")
        return MappingProxyType(
            {n: check_stiffness(value[n], f"stiffness[{n}]") for n in _in_lola_order(value)}
        )
    return check_stiffness(value)


@attrs.frozen
class JointCommand:
    """Move the joints of ``positions`` (LoLA name → rad) there in ``duration`` s.

    ``stiffness`` is one value for all of them or a mapping naming each of them.
    """

    positions: Mapping[str, float] = attrs.field(converter=_positions)
    stiffness: Mapping[str, float] | float = attrs.field(default=1.0, converter=_stiffness)
    duration: float = attrs.field(default=0.0, converter=check_duration)
    interpolation: str = attrs.field(default="minimum_jerk", validator=_interpolation)

    def __attrs_post_init__(self) -> None:
        if isinstance(self.stiffness, Mapping) and set(self.stiffness) != set(self.positions):
            missing = sorted(set(self.positions) - set(self.stiffness))
            extra = sorted(set(self.stiffness) - set(self.positions))
            raise ValueError(
                "stiffness must name exactly the joints of positions"
                f" (missing {missing}, extra {extra})"
            )

    @property
    def joints(self) -> tuple[str, ...]:
        """The joints this command moves, in LoLA order."""
        return tuple(self.positions)

    def stiffness_of(self, joint: str) -> float:
        """The stiffness this command gives ``joint``."""
        if isinstance(self.stiffness, Mapping):
            return self.stiffness[joint]
        return self.stiffness

    def servo_tasks(self) -> list[Any]:
        """One servo task per joint of the command, in LoLA order."""
        uniform = not isinstance(self.stiffness, Mapping)
        return [
            _SERVO_BY_NAME[name](
                position,
                self.stiffness if uniform else self.stiffness[name],
                self.duration,
                self.interpolation,
            )
            for name, position in self.positions.items()
        ]


_ARMS = (*LEFT_ARM_JOINTS, *RIGHT_ARM_JOINTS)
_LEGS = (*LEFT_LEG_JOINTS, *RIGHT_LEG_JOINTS)


def _lola_order(names: tuple[str, ...]) -> tuple[str, ...]:
    chosen = set(names)
    return tuple(n for n in JOINT_NAMES if n in chosen)


_GROUP_DEFINITIONS: dict[str, tuple[str, ...]] = {
    "Head": HEAD_JOINTS,
    "LeftArm": LEFT_ARM_JOINTS,
    "RightArm": RIGHT_ARM_JOINTS,
    "LeftLeg": LEFT_LEG_JOINTS,
    "RightLeg": RIGHT_LEG_JOINTS,
    "Arms": _ARMS,
    "Legs": _LEGS,
    "Limbs": (*_ARMS, *_LEGS),
    "Body": JOINT_NAMES,
}


def _group_class(name: str, joints: tuple[str, ...]) -> type:
    allowed = frozenset(joints)

    def check(instance: Any, attribute: attrs.Attribute, command: Any) -> None:
        if not isinstance(command, JointCommand):
            raise TypeError(f"{name} carries a JointCommand, got {command!r}")
        outside = [j for j in command.positions if j not in allowed]
        if outside:
            raise ValueError(f"{name} cannot move {outside}; its joints are {list(joints)}")

    cls = attrs.make_class(name, {"command": attrs.field(validator=check)}, frozen=True)
    cls.__module__ = __name__
    cls.__doc__ = f"Move joints of the {name} group ({', '.join(joints)}) by one JointCommand."
    return cls


Head = _group_class("Head", _lola_order(HEAD_JOINTS))
LeftArm = _group_class("LeftArm", _lola_order(LEFT_ARM_JOINTS))
RightArm = _group_class("RightArm", _lola_order(RIGHT_ARM_JOINTS))
LeftLeg = _group_class("LeftLeg", _lola_order(LEFT_LEG_JOINTS))
RightLeg = _group_class("RightLeg", _lola_order(RIGHT_LEG_JOINTS))
Arms = _group_class("Arms", _lola_order(_ARMS))
Legs = _group_class("Legs", _lola_order(_LEGS))
Limbs = _group_class("Limbs", _lola_order((*_ARMS, *_LEGS)))
Body = _group_class("Body", JOINT_NAMES)

#: The group task types, smallest first (ties in this order), and their joints in LoLA order.
GROUP_TYPES: tuple[type, ...] = (Head, LeftArm, RightArm, RightLeg, LeftLeg, Legs, Arms)
GROUP_TYPES = (*GROUP_TYPES, Limbs, Body)
GROUP_JOINTS: Mapping[type, tuple[str, ...]] = MappingProxyType(
    {g: _lola_order(_GROUP_DEFINITIONS[g.__name__]) for g in GROUP_TYPES}
)


def _sequence_class(group: type) -> type:
    name = f"{group.__name__}Sequence"
    allowed = frozenset(GROUP_JOINTS[group])

    def convert(frames: Any) -> tuple[JointCommand, ...]:
        frames = tuple(frames)
        if not frames:
            raise ValueError(f"{name} needs at least one frame")
        for i, frame in enumerate(frames):
            if not isinstance(frame, JointCommand):
                raise TypeError(f"{name} frames[{i}] must be a JointCommand, got {frame!r}")
            outside = [j for j in frame.positions if j not in allowed]
            if outside:
                raise ValueError(f"{name} frames[{i}] moves {outside}, outside {group.__name__}")
        return frames

    def arrival(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value is not None and not isinstance(value, Arrival):
            raise TypeError(f"{name}.arrival must be an Arrival or None, got {value!r}")

    cls = attrs.make_class(
        name,
        {
            "frames": attrs.field(converter=convert),
            "arrival": attrs.field(default=None, validator=arrival),
        },
        frozen=True,
    )
    cls.__module__ = __name__
    cls.__doc__ = (
        f"Play JointCommands one after another on {group.__name__}; Done after the last. "
        "With an ``arrival``, each frame also waits for its joints to catch up."
    )
    return cls


HeadSequence = _sequence_class(Head)
LeftArmSequence = _sequence_class(LeftArm)
RightArmSequence = _sequence_class(RightArm)
LeftLegSequence = _sequence_class(LeftLeg)
RightLegSequence = _sequence_class(RightLeg)
ArmsSequence = _sequence_class(Arms)
LegsSequence = _sequence_class(Legs)
LimbsSequence = _sequence_class(Limbs)
BodySequence = _sequence_class(Body)

#: group task type → its sequence task type.
SEQUENCE_OF: Mapping[type, type] = MappingProxyType(
    {
        Head: HeadSequence,
        LeftArm: LeftArmSequence,
        RightArm: RightArmSequence,
        LeftLeg: LeftLegSequence,
        RightLeg: RightLegSequence,
        Arms: ArmsSequence,
        Legs: LegsSequence,
        Limbs: LimbsSequence,
        Body: BodySequence,
    }
)


def smallest_group(joints: tuple[str, ...] | frozenset[str] | set[str]) -> type:
    """The smallest group task type whose joints include all of ``joints``."""
    wanted = set(joints)
    unknown = wanted - set(JOINT_INDEX)
    if unknown:
        raise ValueError(f"unknown joint(s) {sorted(unknown)}")
    for group in GROUP_TYPES:
        if wanted <= set(GROUP_JOINTS[group]):
            return group
    raise AssertionError("Body covers every joint")  # pragma: no cover
