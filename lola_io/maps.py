"""The keys of LoLA's maps, and strict validation of decoded maps into frames.

Values are looked up by key, never by position (simulators order keys differently), and every
key's presence, length, type and finiteness is checked; a fault raises a
:class:`~lola_io.errors.LolaDecodeError` subclass naming the key. Nothing is zero-filled.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from lola_io.errors import (
    MalformedFrameError,
    MissingKeyError,
    NonFiniteError,
    OutOfRangeError,
    UnknownKeyError,
    WrongLengthError,
    WrongTypeError,
)
from lola_io.frames import ACTUATOR_LED_FIELDS, ActuatorFrame, SensorFrame
from lola_io.joints import LED_LENGTHS, NUM_JOINTS

SENSOR = "sensor"
ACTUATOR = "actuator"

#: Sensor keys in the order a real robot writes them.
SENSOR_KEYS: tuple[str, ...] = (
    "RobotConfig",
    "Accelerometer",
    "Angles",
    "Battery",
    "Current",
    "FSR",
    "Gyroscope",
    "Position",
    "Sonar",
    "Stiffness",
    "Temperature",
    "Touch",
    "Status",
)

#: Sensor keys holding float arrays: wire key → (SensorFrame attribute, length).
SENSOR_FLOATS: dict[str, tuple[str, int]] = {
    "Accelerometer": ("accelerometer", 3),
    "Angles": ("angles", 2),
    "Battery": ("battery", 4),
    "Current": ("current", NUM_JOINTS),
    "FSR": ("fsr", 8),
    "Gyroscope": ("gyroscope", 3),
    "Position": ("position", NUM_JOINTS),
    "Sonar": ("sonar", 2),
    "Stiffness": ("stiffness", NUM_JOINTS),
    "Temperature": ("temperature", NUM_JOINTS),
    "Touch": ("touch", 14),
}

#: Actuator keys in the order this codec writes them; only Position and Stiffness are required.
ACTUATOR_KEYS: tuple[str, ...] = ("Position", "Stiffness", *LED_LENGTHS, "Sonar")
ACTUATOR_REQUIRED = ("Position", "Stiffness")
ACTUATOR_LED_KEYS = {key: field for field, key in ACTUATOR_LED_FIELDS.items()}
ACTUATOR_FIELDS = {"Position": "position", "Stiffness": "stiffness", **ACTUATOR_LED_KEYS}

SENSOR_KEY_SET = frozenset(SENSOR_KEYS)
ACTUATOR_KEY_SET = frozenset(ACTUATOR_KEYS)

#: The largest magnitude a float32 holds; anything beyond would silently become infinity.
FLOAT32_MAX = float(np.finfo(np.float32).max)
#: Joint status values are positive fixints on the wire.
STATUS_MAX = 127

_NUMBER_TYPES = frozenset({float, int})


def sensor_from_map(message: Any) -> SensorFrame:
    """A decoded sensor map (keys in any order) → :class:`SensorFrame`, validating every key."""
    _check_keys(SENSOR, message, SENSOR_KEY_SET, SENSOR_KEY_SET)
    arrays = _floats(SENSOR, [(key, message[key], n) for key, (_, n) in SENSOR_FLOATS.items()])
    return SensorFrame(
        **{field: array for (field, _), array in zip(SENSOR_FLOATS.values(), arrays, strict=True)},
        status=_status(message["Status"]),
        robot_config=_robot_config(message["RobotConfig"]),
    )


def actuator_from_map(message: Any) -> ActuatorFrame:
    """A decoded actuator map (possibly partial) → :class:`ActuatorFrame`."""
    _check_keys(ACTUATOR, message, ACTUATOR_KEY_SET, ACTUATOR_REQUIRED)
    fields = ["position", "stiffness"]
    items = [
        ("Position", message["Position"], NUM_JOINTS),
        ("Stiffness", message["Stiffness"], NUM_JOINTS),
    ]
    for key, field in ACTUATOR_LED_KEYS.items():
        if key in message:
            fields.append(field)
            items.append((key, message[key], LED_LENGTHS[key]))
    values: dict[str, Any] = dict(zip(fields, _floats(ACTUATOR, items), strict=True))
    if "Sonar" in message:
        values["sonar"] = _sonar(message["Sonar"])
    return ActuatorFrame(**values)


def is_frame_shaped(message: Any, known_keys: frozenset[str]) -> bool:
    """Whether ``message`` looks like a frame: a non-empty map of known keys to flat arrays.

    The stream reader uses this to tell a real but faulty frame (consume it, count it invalid)
    from bytes that only happen to parse after a desync (skip ahead and resynchronise). Every
    LoLA value is a flat array of scalars, so a nested map or array means the parser ran into
    the next frame: that frame must not be swallowed as a value.
    """
    if type(message) is not dict or not message or not known_keys.issuperset(message):
        return False
    for key, value in message.items():
        # Strings belong in RobotConfig only: elsewhere a string most likely swallowed the
        # start of the next frame, which must then be found rather than thrown away.
        scalars = _CONFIG_SCALARS if key == "RobotConfig" else _SCALARS
        if type(value) is not list or not scalars.issuperset(map(type, value)):
            return False
    return True


_SCALARS = frozenset({float, int, bool, type(None)})
_CONFIG_SCALARS = frozenset({str, float, int, bool, type(None)})


def _check_keys(frame: str, message: Any, known: frozenset[str], required) -> None:
    if type(message) is not dict:
        raise MalformedFrameError(frame, None, f"expected a map, got {_kind(message)}")
    if not known.issuperset(message):
        unknown = sorted((k for k in message if k not in known), key=repr)
        raise UnknownKeyError(frame, str(unknown[0]), f"not a {frame} key (got keys {unknown})")
    for key in required:
        if key not in message:
            raise MissingKeyError(frame, key, "missing")


def _floats(frame: str, items: list[tuple[str, Any, int]]) -> list[np.ndarray]:
    """Validate (key, value, length) float arrays and convert them together.

    The arrays come back as views into one float64 buffer: a single conversion and a single
    finiteness test per frame instead of one per key keeps decoding well inside the cycle.
    """
    joined: list[Any] = []
    for key, value, length in items:
        if type(value) is not list:
            raise WrongTypeError(
                frame, key, f"expected an array of {length} floats, got {_kind(value)}"
            )
        if len(value) != length:
            raise WrongLengthError(frame, key, f"expected {length} values, got {len(value)}")
        joined += value
    if not _NUMBER_TYPES.issuperset(map(type, joined)):
        for key, value, _ in items:
            for i, v in enumerate(value):
                if type(v) not in _NUMBER_TYPES:
                    raise WrongTypeError(frame, key, f"value {i} is {_kind(v)}, expected a float")
    try:
        array = np.array(joined, dtype=np.float64)
    except OverflowError:
        array = None  # an integer beyond float64; located below like any non-finite value
    if array is None or not np.isfinite(array).all():
        for key, value, _ in items:
            for i, v in enumerate(value):
                if not _finite(v):
                    raise NonFiniteError(frame, key, f"value {i} ({v!r}) is not a finite float")
    out = []
    start = 0
    for _, _, length in items:
        out.append(array[start : start + length])
        start += length
    return out


def _finite(value: float | int) -> bool:
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _status(value: Any) -> np.ndarray:
    if type(value) is not list:
        raise WrongTypeError(SENSOR, "Status", f"expected an array of ints, got {_kind(value)}")
    if len(value) != NUM_JOINTS:
        raise WrongLengthError(SENSOR, "Status", f"expected {NUM_JOINTS} values, got {len(value)}")
    if not {int}.issuperset(map(type, value)):
        bad = next(i for i, v in enumerate(value) if type(v) is not int)
        raise WrongTypeError(
            SENSOR, "Status", f"value {bad} is {_kind(value[bad])}, expected an int"
        )
    if min(value) < 0 or max(value) > STATUS_MAX:
        bad = next(i for i, v in enumerate(value) if not 0 <= v <= STATUS_MAX)
        raise OutOfRangeError(
            SENSOR, "Status", f"value {bad} is {value[bad]}, expected 0..{STATUS_MAX}"
        )
    return np.array(value, dtype=np.int64)


def _robot_config(value: Any) -> tuple[str, str, str, str]:
    if type(value) is not list:
        raise WrongTypeError(SENSOR, "RobotConfig", f"expected 4 strings, got {_kind(value)}")
    if len(value) != 4:
        raise WrongLengthError(SENSOR, "RobotConfig", f"expected 4 strings, got {len(value)}")
    for i, v in enumerate(value):
        if type(v) is not str:
            raise WrongTypeError(SENSOR, "RobotConfig", f"value {i} is {_kind(v)}, not a string")
    return (value[0], value[1], value[2], value[3])


def _sonar(value: Any) -> tuple[bool, bool]:
    if type(value) is not list:
        raise WrongTypeError(ACTUATOR, "Sonar", f"expected 2 bools, got {_kind(value)}")
    if len(value) != 2:
        raise WrongLengthError(ACTUATOR, "Sonar", f"expected 2 bools, got {len(value)}")
    for i, v in enumerate(value):
        if type(v) is not bool:
            raise WrongTypeError(ACTUATOR, "Sonar", f"value {i} is {_kind(v)}, expected a bool")
    return (value[0], value[1])


_KINDS = {
    type(None): "nil",
    bool: "a bool",
    int: "an integer",
    float: "a float",
    str: "a string",
    bytes: "binary data",
    list: "an array",
    dict: "a map",
}


def _kind(value: Any) -> str:
    """The MessagePack kind of a decoded value, for error messages."""
    return _KINDS.get(type(value), type(value).__name__)
