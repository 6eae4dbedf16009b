"""Byte-exact MessagePack encoding and strict decoding of LoLA sensor and actuator maps.

Encoding writes what a real NAO writes: float32 big-endian (0xca) floats, array16 headers for
the 25-element arrays, positive fixints for ``Status``, and the sensor keys in the robot's order,
so an encoded sensor frame is exactly 896 bytes and a complete actuator frame 786 bytes.

Decoding takes a fast path for frames laid out exactly as a real robot writes them and
otherwise unpacks the map and validates it by key (``lola_io.maps``); either way a fault raises
a :class:`~lola_io.errors.LolaDecodeError` subclass naming the key. Nothing is zero-filled.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import msgpack
import numpy as np

from lola_io.errors import LolaEncodeError, MalformedFrameError, TrailingDataError
from lola_io.frames import ActuatorFrame, SensorFrame, unchecked
from lola_io.joints import LED_LENGTHS, NUM_JOINTS
from lola_io.layout import BOOLS, FLOATS, INTS, STRINGS, Layout, build_layout
from lola_io.maps import (
    ACTUATOR,
    ACTUATOR_FIELDS,
    ACTUATOR_KEY_SET,
    ACTUATOR_KEYS,
    ACTUATOR_LED_KEYS,
    ACTUATOR_REQUIRED,
    FLOAT32_MAX,
    SENSOR,
    SENSOR_FLOATS,
    SENSOR_KEY_SET,
    SENSOR_KEYS,
    STATUS_MAX,
    actuator_from_map,
    is_frame_shaped,
    sensor_from_map,
)

#: Size of a sensor frame as a real NAO V6 writes it (with standard RobotConfig strings).
SENSOR_FRAME_BYTES = 896
#: Size of an actuator frame carrying every key.
ACTUATOR_FRAME_BYTES = 786


# Layouts are few (one per RobotConfig string sizes or actuator key set), so all are kept.
@functools.cache
def _sensor_layout(config_sizes: tuple[int, ...]) -> Layout:
    entries: list[tuple[str, str, int | tuple[int, ...]]] = []
    for key in SENSOR_KEYS:
        if key == "RobotConfig":
            entries.append((key, STRINGS, config_sizes))
        elif key == "Status":
            entries.append((key, INTS, NUM_JOINTS))
        else:
            entries.append((key, FLOATS, SENSOR_FLOATS[key][1]))
    return build_layout(entries)


@functools.cache
def _actuator_layout(keys: tuple[str, ...]) -> Layout:
    lengths = {"Position": NUM_JOINTS, "Stiffness": NUM_JOINTS, **LED_LENGTHS}
    return build_layout(
        [(key, BOOLS, 2) if key == "Sonar" else (key, FLOATS, lengths[key]) for key in keys]
    )


#: The layout of a real robot's sensor frame; decoding takes a fast path for it.
CANONICAL_SENSOR_LAYOUT = _sensor_layout((20, 5, 20, 5))
# Actuator layouts the server checks first, by size: complete, and Position + Stiffness only.
_ACTUATOR_LAYOUTS = {
    layout.size: layout
    for layout in (_actuator_layout(ACTUATOR_KEYS), _actuator_layout(ACTUATOR_REQUIRED))
}


# --------------------------------------------------------------------------------------------
# encoding


def encode_sensor(frame: SensorFrame) -> bytes:
    """The sensor frame as the robot writes it (896 bytes with standard RobotConfig strings)."""
    prepared = _sensor_template(tuple(frame.robot_config))
    if isinstance(prepared, bytes):
        # A longer string needs a str8 header and the frame would no longer be byte-exact.
        raise LolaEncodeError(SENSOR, "RobotConfig", f"{prepared!r} is longer than 31 bytes")
    layout, template = prepared
    status = frame.status
    # Python's min and max over a list beat two numpy reductions on 25 values.
    values = status.tolist()
    if min(values) < 0 or max(values) > STATUS_MAX:
        raise LolaEncodeError(SENSOR, "Status", f"values must be 0..{STATUS_MAX}, got {status}")
    floats = _wire_floats(SENSOR, _SENSOR_FLOAT_KEYS, [getattr(frame, f) for f in _SENSOR_FIELDS])
    # Layout.fill without the strings, which the cached template already carries.
    out = template.copy()
    out[layout.float_bytes] = floats.astype(">f4").view(np.uint8)
    out[layout.int_pos] = status
    return out.tobytes()


_SENSOR_FLOAT_KEYS = list(SENSOR_FLOATS)
_SENSOR_FIELDS = [field for field, _ in SENSOR_FLOATS.values()]


# A robot has one RobotConfig: its strings are written into a template once, not every frame.
@functools.lru_cache(maxsize=8)
def _sensor_template(config: tuple[str, ...]) -> tuple[Layout, np.ndarray] | bytes:
    """The layout for these RobotConfig strings and its bytes with them filled in, or the
    first string too long for a fixstr (encoded)."""
    encoded = [text.encode() for text in config]
    for text in encoded:
        if len(text) > 31:
            return text
    layout = _sensor_layout(tuple(len(text) for text in encoded))
    blank = np.zeros(len(layout.float_bytes) // 4)
    filled = layout.fill(blank, ints=np.zeros(len(layout.int_pos), dtype=np.int64), strings=encoded)
    return layout, np.frombuffer(filled, dtype=np.uint8)


def encode_actuator(frame: ActuatorFrame) -> bytes:
    """The actuator frame as a map of the keys it carries (786 bytes when complete)."""
    keys = ["Position", "Stiffness"]
    arrays = [frame.position, frame.stiffness]
    for key, field in ACTUATOR_LED_KEYS.items():
        value = getattr(frame, field)
        if value is not None:
            keys.append(key)
            arrays.append(value)
    floats = _wire_floats(ACTUATOR, keys, arrays)
    if frame.sonar is not None:
        keys.append("Sonar")
    layout = _actuator_layout(tuple(keys))
    return layout.fill(floats, bools=() if frame.sonar is None else frame.sonar)


def _wire_floats(frame: str, keys: list[str], arrays: list[np.ndarray]) -> np.ndarray:
    """The arrays joined, refusing what float32 cannot carry faithfully."""
    # One concatenation and one vectorised test for every key: numpy's per-call cost dominates
    # at these sizes, and one test covers NaN, infinities and float32 overflow alike.
    joined = np.concatenate(arrays)
    if not np.abs(joined).max() <= FLOAT32_MAX:  # NaN compares false too
        for key, values in zip(keys, arrays, strict=True):
            ok = np.abs(values) <= FLOAT32_MAX
            if not ok.all():
                bad = int(np.flatnonzero(~ok)[0])
                value = float(values[bad])
                problem = "is not finite" if not np.isfinite(value) else "is beyond float32 range"
                raise LolaEncodeError(frame, key, f"value {bad} ({value!r}) {problem}")
    return joined


# --------------------------------------------------------------------------------------------
# decoding


def decode_sensor(data: bytes | bytearray | memoryview) -> SensorFrame:
    """One whole sensor message → :class:`SensorFrame`; any fault raises a named error."""
    frame = _decode_sensor_canonical(data)
    if frame is None:
        frame = sensor_from_map(unpack_message(SENSOR, data))
    return frame


def _decode_sensor_canonical(data: bytes | bytearray | memoryview) -> SensorFrame | None:
    """The fast path for a frame laid out as a real robot writes it; None for anything else.

    Anything unusual (another key order, a NaN, bad UTF-8) returns None so that the general
    path decodes it and raises the precise error.
    """
    layout = CANONICAL_SENSOR_LAYOUT
    raw = np.frombuffer(data, dtype=np.uint8)
    if not layout.matches(raw):
        return None
    floats = layout.floats(raw)
    if not _all_finite(floats):
        return None
    config = _robot_config_of(bytes(data[_CONFIG_START:_CONFIG_END]))
    if config is None:
        return None
    # Built in place rather than through unchecked(): this is the hottest line of the cycle.
    frame = object.__new__(SensorFrame)
    for field, a, b in _SENSOR_SPLIT:
        _set(frame, field, floats[a:b])
    _set(frame, "status", raw[_STATUS_START:_STATUS_END].astype(np.int64))
    _set(frame, "robot_config", config)
    return frame


def _split(lengths: dict[str, tuple[str, int]]) -> tuple[tuple[str, int, int], ...]:
    out, start = [], 0
    for field, length in lengths.values():
        out.append((field, start, start + length))
        start += length
    return tuple(out)


_SENSOR_SPLIT = _split(SENSOR_FLOATS)
_set = object.__setattr__


def _all_finite(floats: np.ndarray) -> bool:
    """Whether every value (all from float32s) is finite, in one BLAS call.

    The sum of squares is NaN or infinite exactly when some value is (float32 values squared
    stay far inside float64's range), and costs less than ``np.isfinite(...).all()``.
    """
    return math.isfinite(floats.dot(floats))


# RobotConfig's strings, and Status's fixints, sit in one contiguous run each.
_CONFIG_START = CANONICAL_SENSOR_LAYOUT.string_spans[0][0]
_CONFIG_END = sum(CANONICAL_SENSOR_LAYOUT.string_spans[-1])
_STATUS_START = int(CANONICAL_SENSOR_LAYOUT.int_pos[0])
_STATUS_END = int(CANONICAL_SENSOR_LAYOUT.int_pos[-1]) + 1
assert _STATUS_END - _STATUS_START == NUM_JOINTS


@functools.lru_cache(maxsize=4)
def _robot_config_of(region: bytes) -> tuple[str, ...] | None:
    """The four strings of a canonical RobotConfig region (one robot: decoded once, cached)."""
    layout = CANONICAL_SENSOR_LAYOUT
    try:
        return tuple(
            region[a - _CONFIG_START : a - _CONFIG_START + n].decode()
            for a, n in layout.string_spans
        )
    except UnicodeDecodeError:
        return None


def decode_actuator(data: bytes | bytearray | memoryview) -> ActuatorFrame:
    """One whole actuator message → :class:`ActuatorFrame` (the server side)."""
    frame = _decode_actuator_common(data)
    if frame is None:
        frame = actuator_from_map(unpack_message(ACTUATOR, data))
    return frame


def _decode_actuator_common(data: bytes | bytearray | memoryview) -> ActuatorFrame | None:
    """The fast path for complete and Position+Stiffness frames; None for anything else."""
    layout = _ACTUATOR_LAYOUTS.get(len(data))
    if layout is None:
        return None
    raw = np.frombuffer(data, dtype=np.uint8)
    if not layout.matches(raw):
        return None
    floats = layout.floats(raw)
    if not _all_finite(floats):
        return None
    fields: dict[str, Any] = {}
    start = 0
    for key in layout.keys:
        if key == "Sonar":
            fields["sonar"] = tuple(bool(b & 1) for b in raw[layout.bool_pos])
        else:
            field = ACTUATOR_FIELDS[key]
            end = start + (NUM_JOINTS if key in ACTUATOR_REQUIRED else LED_LENGTHS[key])
            fields[field] = floats[start:end]
            start = end
    return unchecked(ActuatorFrame, fields)


def unpack_message(frame: str, data: bytes | bytearray | memoryview) -> Any:
    """Exactly one MessagePack object from ``data``; trailing bytes are an error."""
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=True)
    except msgpack.ExtraData as exc:
        raise TrailingDataError(
            frame, None, f"{len(exc.extra)} bytes after the end of the map"
        ) from None
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        raise MalformedFrameError(frame, None, f"not valid MessagePack ({exc})") from None


__all__ = [
    "ACTUATOR_FRAME_BYTES",
    "ACTUATOR_KEYS",
    "ACTUATOR_KEY_SET",
    "CANONICAL_SENSOR_LAYOUT",
    "SENSOR_FRAME_BYTES",
    "SENSOR_KEYS",
    "SENSOR_KEY_SET",
    "actuator_from_map",
    "decode_actuator",
    "decode_fixed_prefix",
    "decode_sensor",
    "encode_actuator",
    "encode_sensor",
    "is_frame_shaped",
    "sensor_from_map",
    "unpack_message",
]


def decode_fixed_prefix(kind: str, data: bytes | bytearray) -> tuple[Any, int] | None:
    """A frame of a known fixed layout at the very start of ``data``, with its size; else None.

    The stream reader tries this before parsing generally: the frames LoLA and this codec write
    all have fixed layouts, so most frames are recognised by one masked comparison.
    """
    if kind == SENSOR:
        size = CANONICAL_SENSOR_LAYOUT.size
        if len(data) >= size:
            frame = _decode_sensor_canonical(bytes(data[:size]))
            if frame is not None:
                return frame, size
        return None
    for size in _ACTUATOR_LAYOUTS:
        if len(data) >= size:
            actuator = _decode_actuator_common(bytes(data[:size]))
            if actuator is not None:
                return actuator, size
    return None
