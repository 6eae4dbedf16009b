"""Splitting a LoLA byte stream into frames, and finding the next frame after garbage.

A socket read may hold part of a frame, one frame, or several. :class:`FrameReader` buffers
bytes and hands out one frame at a time. Frames of a known fixed layout are recognised by the
codec's masked comparison; anything else is first walked by :func:`scan_frame`, which knows the
shape every LoLA message has (a small map of short string keys to flat arrays of scalars), and
only then unpacked. A general streaming unpacker was tried first and dropped: random bytes
readily parse as deeply nested containers that look "incomplete" for kilobytes, stalling the
stream for several cycles after a desync.

Two kinds of trouble are told apart:

- a frame that parses as a map of known keys but has a bad value (NaN, wrong length, ...) is
  consumed and its :class:`~lola_io.errors.LolaDecodeError` raised: one frame lost, ``invalid``;
- bytes that do not parse as a frame mean the stream is out of step: the reader skips to the
  next byte that could start a map and tries again, counting one ``resync`` per episode.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import msgpack

from lola_io.codec import ACTUATOR_KEY_SET, SENSOR_KEY_SET, decode_fixed_prefix
from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.maps import ACTUATOR, SENSOR, actuator_from_map, is_frame_shaped, sensor_from_map

T = TypeVar("T", SensorFrame, ActuatorFrame)

# Every LoLA message is a fixmap of 1..15 keys; nothing else can start a frame.
_MAP_START = re.compile(rb"[\x81-\x8f]")
_FIRST_MAP_BYTE, _LAST_MAP_BYTE = 0x81, 0x8F

#: Default bound on one message; a candidate still incomplete beyond it is garbage.
MAX_FRAME_BYTES = 8192

_PARSE_ERRORS = (ValueError, TypeError, msgpack.UnpackException)


class FrameReader(Generic[T]):
    """Frames out of a byte stream, one at a time, resynchronising after garbage.

    Use :func:`sensor_reader` or :func:`actuator_reader` to get one. ``feed`` bytes as they
    arrive; ``next_frame()`` returns the next frame, ``None`` when more bytes are needed, or
    raises a :class:`~lola_io.errors.LolaDecodeError` for a frame that was framed correctly
    but invalid (already consumed: call again to go on). ``last_raw`` holds the exact bytes of
    the frame returned last (for recording).
    """

    def __init__(
        self,
        kind: str,
        known_keys: frozenset[str],
        from_map: Callable[[Any], T],
        *,
        max_frame_bytes: int = MAX_FRAME_BYTES,
    ) -> None:
        self.kind = kind
        self._known_keys = known_keys
        self._from_map = from_map
        self._max = max_frame_bytes
        self._buffer = bytearray()
        self._in_sync = True
        self.last_raw = b""
        #: Times the reader lost step with the stream and skipped bytes to find a frame.
        self.resyncs = 0
        #: Bytes thrown away while resynchronising.
        self.bytes_skipped = 0

    @property
    def buffered(self) -> int:
        """Bytes received but not yet consumed."""
        return len(self._buffer)

    def feed(self, data: bytes) -> None:
        """Append bytes read from the stream."""
        self._buffer += data

    def clear(self) -> None:
        """Forget buffered bytes (after a reconnect the old stream's tail means nothing)."""
        self._buffer.clear()
        self._in_sync = True

    def next_frame(self) -> T | None:
        """The next frame in the buffer, or None until more bytes arrive."""
        buffer = self._buffer
        while buffer:
            if not _FIRST_MAP_BYTE <= buffer[0] <= _LAST_MAP_BYTE:
                found = _MAP_START.search(buffer, 1)
                self._skip(found.start() if found else len(buffer))
                continue
            fixed = decode_fixed_prefix(self.kind, buffer)
            if fixed is not None:
                frame, size = fixed
                self._consume(size)
                return frame
            outcome = self._parse()
            if outcome is None:
                return None  # incomplete: wait for more bytes
            if outcome is _DESYNC:
                self._skip(1)
                continue
            message, size = outcome
            self._consume(size)
            # Consumed before validation: a bad frame is lost, not retried forever.
            return self._from_map(message)
        return None

    def _parse(self) -> tuple[Any, int] | object | None:
        """(message, size) of a frame-shaped map at the buffer's start, _DESYNC, or None."""
        size = scan_frame(self._buffer)
        if size is None:
            return _DESYNC if len(self._buffer) >= self._max else None
        if size is _DESYNC:
            return _DESYNC
        try:
            message = msgpack.unpackb(bytes(self._buffer[:size]), raw=False)
        except _PARSE_ERRORS:
            return _DESYNC
        if not is_frame_shaped(message, self._known_keys):
            return _DESYNC
        return message, size

    def _consume(self, size: int) -> None:
        self.last_raw = bytes(self._buffer[:size])
        del self._buffer[:size]
        self._in_sync = True

    def _skip(self, size: int) -> None:
        if self._in_sync:
            self.resyncs += 1
            self._in_sync = False
        self.bytes_skipped += size
        del self._buffer[:size]


_DESYNC = object()

# Bytes a scalar takes on the wire, by its first byte; 0 = cannot appear inside a LoLA array.
_SCALAR_SIZE = [0] * 256
for _tag in range(0x00, 0x80):
    _SCALAR_SIZE[_tag] = 1  # positive fixint
for _tag in range(0xE0, 0x100):
    _SCALAR_SIZE[_tag] = 1  # negative fixint
for _tag in range(0xA0, 0xC0):
    _SCALAR_SIZE[_tag] = 1 + (_tag & 0x1F)  # fixstr
for _tag, _size in {
    0xC0: 1,  # nil (invalid as a value, but framed: the frame is bad, not the stream)
    0xC2: 1,
    0xC3: 1,  # bools
    0xCA: 5,
    0xCB: 9,  # float32, float64
    0xCC: 2,
    0xCD: 3,
    0xCE: 5,
    0xCF: 9,  # uint8..64
    0xD0: 2,
    0xD1: 3,
    0xD2: 5,
    0xD3: 9,  # int8..64
}.items():
    _SCALAR_SIZE[_tag] = _size
_MAX_ARRAY = 32


def scan_frame(buffer: bytes | bytearray) -> int | object | None:
    """Size of the LoLA-shaped map at the start of ``buffer``; None if incomplete; else _DESYNC.

    LoLA-shaped: a fixmap whose keys are fixstrs and whose values are arrays (at most 32 long)
    of scalars. Random bytes almost never fit this for long, whereas general MessagePack lets
    garbage nest containers and claim to be incomplete for kilobytes; checking the shape while
    walking the bytes makes a desync visible within a few bytes.
    """
    end = len(buffer)
    entries = buffer[0] & 0x0F
    pos = 1
    for _ in range(entries):
        if pos >= end:
            return None
        tag = buffer[pos]
        if not 0xA0 <= tag <= 0xBF:
            return _DESYNC
        pos += 1 + (tag & 0x1F)
        if pos >= end:
            return None
        tag = buffer[pos]
        if 0x90 <= tag <= 0x9F:
            length = tag & 0x0F
            pos += 1
        elif tag == 0xDC:
            if pos + 3 > end:
                return None
            length = (buffer[pos + 1] << 8) | buffer[pos + 2]
            if length > _MAX_ARRAY:
                return _DESYNC
            pos += 3
        else:
            return _DESYNC
        for _ in range(length):
            if pos >= end:
                return None
            size = _SCALAR_SIZE[buffer[pos]]
            if size == 0:
                return _DESYNC
            pos += size
    return None if pos > end else pos


def sensor_reader(*, max_frame_bytes: int = MAX_FRAME_BYTES) -> FrameReader[SensorFrame]:
    """A reader for the robot → client stream."""
    return FrameReader(SENSOR, SENSOR_KEY_SET, sensor_from_map, max_frame_bytes=max_frame_bytes)


def actuator_reader(*, max_frame_bytes: int = MAX_FRAME_BYTES) -> FrameReader[ActuatorFrame]:
    """A reader for the client → robot stream (the server side)."""
    return FrameReader(
        ACTUATOR, ACTUATOR_KEY_SET, actuator_from_map, max_frame_bytes=max_frame_bytes
    )
