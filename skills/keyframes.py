"""Keyframe scripts as values: joint targets, keyframes, and whole scripts.

A script is a list of keyframes; each keyframe names some joints (LoLA names), the position and
stiffness each should reach, and how long the move to them takes. A joint a keyframe does not
name keeps the target an earlier keyframe gave it (see :meth:`KeyframeScript.poses`); the first
keyframe that names a joint moves it from wherever the joint is when the script starts.

Everything here is SI (radians, seconds, stiffness as a 0..1 fraction). The file formats with
their milliseconds and degrees live in :mod:`skills.script_files`. Limits of the robot are
checked there too, against the robot model; these classes check only what is true of any robot:
finite numbers, stiffness in [0, 1], known joint names, non-negative durations.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

import attrs
import numpy as np

from lola_io.joints import JOINT_INDEX, JOINT_NAMES, NUM_JOINTS


class ScriptError(ValueError):
    """A keyframe script is wrong; the message names the file, the frame and the field.

    ``source`` is the file (or another label for in-memory text), ``frame`` the 0-based keyframe
    index (``None`` when the fault is not inside one frame, e.g. malformed YAML), ``field`` the
    offending field (``None`` when there is no single one).
    """

    def __init__(self, source: str, frame: int | None, field: str | None, problem: str) -> None:
        self.source = source
        self.frame = frame
        self.field = field
        self.problem = problem
        where = [source]
        if frame is not None:
            where.append(f"frame {frame}")
        if field is not None:
            where.append(field)
        super().__init__(": ".join([*where, problem]))

    def __reduce__(self) -> tuple[type[ScriptError], tuple[str, int | None, str | None, str]]:
        # Pickle (e.g. across processes) with the four parts, not the joined message.
        return (type(self), (self.source, self.frame, self.field, self.problem))


def _finite(instance: Any, attribute: attrs.Attribute, value: float) -> None:
    if not math.isfinite(value):
        raise ValueError(f"{attribute.name} must be a finite number, got {value!r}")


def _unit_interval(instance: Any, attribute: attrs.Attribute, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{attribute.name} must be within [0, 1], got {value!r}")


def _non_negative(instance: Any, attribute: attrs.Attribute, value: float) -> None:
    if value < 0.0:
        raise ValueError(f"{attribute.name} must not be negative, got {value!r} s")


def _to_float(value: Any) -> float:
    # bool is an int to Python; a YAML `true` where a number belongs is a mistake, not 1.0.
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating | np.integer):
        raise TypeError(f"expected a number, got {value!r}")
    return float(value)


@attrs.frozen
class JointTarget:
    """Where one joint should go: ``position`` (rad; for the hands, 0 closed .. 1 open) and
    ``stiffness`` (0 limp .. 1 full)."""

    position: float = attrs.field(converter=_to_float, validator=_finite)
    stiffness: float = attrs.field(
        default=1.0, converter=_to_float, validator=[_finite, _unit_interval]
    )


def _targets_in_lola_order(targets: Mapping[str, JointTarget]) -> Mapping[str, JointTarget]:
    unknown = [name for name in targets if name not in JOINT_INDEX]
    if unknown:
        raise ValueError(f"unknown joint(s) {unknown}; joints are LoLA names {list(JOINT_NAMES)}")
    for name, target in targets.items():
        if not isinstance(target, JointTarget):
            raise TypeError(f"target of {name} must be a JointTarget, got {target!r}")
    # LoLA order makes equal keyframes compare and print the same however they were written.
    ordered = {name: targets[name] for name in JOINT_NAMES if name in targets}
    return MappingProxyType(ordered)


def _not_empty(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if len(value) == 0:
        raise ValueError(f"{attribute.name} must not be empty")


@attrs.frozen
class Keyframe:
    """One step of a script: reach ``targets`` (LoLA joint name → target) in ``duration`` s."""

    duration: float = attrs.field(converter=_to_float, validator=[_finite, _non_negative])
    targets: Mapping[str, JointTarget] = attrs.field(
        converter=_targets_in_lola_order, validator=_not_empty
    )

    @property
    def joints(self) -> tuple[str, ...]:
        """The joints this keyframe moves, in LoLA order."""
        return tuple(self.targets)


def _frame_tuple(frames: Any) -> tuple[Keyframe, ...]:
    frames = tuple(frames)
    for i, frame in enumerate(frames):
        if not isinstance(frame, Keyframe):
            raise TypeError(f"frames[{i}] must be a Keyframe, got {frame!r}")
    return frames


def _positive_finite(value: float, what: str) -> float:
    value = float(value)
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{what} must be a finite number above 0, got {value!r}")
    return value


@attrs.frozen
class Pose:
    """The targets in force after a keyframe, as LoLA-ordered arrays.

    ``mask`` tells which joints the script has targeted so far; ``position`` and ``stiffness``
    hold 0 where the mask is False.
    """

    position: np.ndarray = attrs.field(eq=attrs.cmp_using(eq=np.array_equal))
    stiffness: np.ndarray = attrs.field(eq=attrs.cmp_using(eq=np.array_equal))
    mask: np.ndarray = attrs.field(eq=attrs.cmp_using(eq=np.array_equal))


@attrs.frozen
class KeyframeScript:
    """A named list of keyframes, played one after another."""

    name: str
    frames: tuple[Keyframe, ...] = attrs.field(converter=_frame_tuple, validator=_not_empty)

    @property
    def joints(self) -> tuple[str, ...]:
        """Every joint some keyframe moves, in LoLA order."""
        touched = {name for frame in self.frames for name in frame.targets}
        return tuple(name for name in JOINT_NAMES if name in touched)

    @property
    def duration(self) -> float:
        """Total playing time at speed 1, s."""
        return sum(frame.duration for frame in self.frames)

    def with_speed(self, factor: float) -> KeyframeScript:
        """The same script played ``factor`` times as fast (durations divided by ``factor``)."""
        factor = _positive_finite(factor, "speed factor")
        return attrs.evolve(
            self,
            frames=tuple(attrs.evolve(f, duration=f.duration / factor) for f in self.frames),
        )

    def mirrored(self, name: str) -> KeyframeScript:
        """The same motion reflected through the sagittal plane, named ``name``: left and right
        joints swap, and rolls and yaws change sign (pitches, the shared hip yaw-pitch and the
        hands keep theirs)."""
        return KeyframeScript(
            name,
            tuple(
                Keyframe(
                    f.duration,
                    {
                        _mirror_name(joint): JointTarget(
                            _mirror_sign(joint) * t.position, t.stiffness
                        )
                        for joint, t in f.targets.items()
                    },
                )
                for f in self.frames
            ),
        )

    def poses(self) -> Iterator[Pose]:
        """The targets in force at the end of each keyframe, one :class:`Pose` per keyframe.

        A joint not named by a keyframe keeps the target an earlier keyframe gave it.
        """
        position = np.zeros(NUM_JOINTS)
        stiffness = np.zeros(NUM_JOINTS)
        mask = np.zeros(NUM_JOINTS, dtype=bool)
        for frame in self.frames:
            for name, target in frame.targets.items():
                i = JOINT_INDEX[name]
                position[i] = target.position
                stiffness[i] = target.stiffness
                mask[i] = True
            yield Pose(position.copy(), stiffness.copy(), mask.copy())

    def final_pose(self) -> Pose:
        """The targets in force when the script ends."""
        *_, last = self.poses()
        return last


def _mirror_name(joint: str) -> str:
    if joint == "LHipYawPitch":  # one motor drives both hips' yaw-pitch
        return joint
    swapped = {"L": "R", "R": "L"}.get(joint[0], "") + joint[1:]
    return swapped if swapped in JOINT_INDEX else joint


def _mirror_sign(joint: str) -> float:
    return -1.0 if joint.endswith(("Roll", "Yaw")) else 1.0
