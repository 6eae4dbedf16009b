"""The behaviour API's wire format: length-prefixed MessagePack maps over a Unix socket.

Every message, both ways, is a 4-byte big-endian unsigned length followed by that many bytes
of MessagePack encoding one map with a string ``"op"``. Only MessagePack's plain types are
accepted (nil, bool, int, float, str, bin, array, map with string keys): no extension types,
so nothing a client sends is ever turned into an object other than plain data (no pickle, no
eval). A frame longer than :data:`MAX_MESSAGE` is refused before its body is read.

The length prefix, not a streaming unpacker, marks where a message ends: a garbage byte or a
truncated body then costs one message, and the server can tell "too long" from "not yet
complete" from the first four bytes. docs/api.md is the schema.
"""

from __future__ import annotations

import math
import os
import struct
from typing import Any

import msgpack

#: The protocol's version; a client speaking another major version is refused at hello.
VERSION = 1
#: The largest message (body bytes) a client may send; a keyframe script inline fits easily.
MAX_MESSAGE = 64 * 1024
#: The largest message the server sends (a state or a Director tree with many tasks).
MAX_SERVER_MESSAGE = 1024 * 1024

_HEADER = struct.Struct(">I")


def default_api_path() -> str:
    """The socket path when none is given: ``$MOTIOND_API``, else ``/tmp/motiond-<uid>.sock``."""
    return os.environ.get("MOTIOND_API") or f"/tmp/motiond-{os.getuid()}.sock"


HEADER_SIZE = _HEADER.size


class ProtocolError(ValueError):
    """A message that is not a well-formed API message; ``fatal`` when the stream is lost."""

    def __init__(self, problem: str, *, fatal: bool = False) -> None:
        super().__init__(problem)
        self.problem = problem
        self.fatal = fatal


class ApiError(Exception):
    """The daemon refused a request; ``code`` says what kind of refusal, the text says why."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.code = code


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"MessagePack extension type {code} is not allowed")


def pack(message: dict[str, Any]) -> bytes:
    """``message`` as one frame: length prefix and MessagePack body."""
    body = msgpack.packb(message, use_bin_type=True)
    return _HEADER.pack(len(body)) + body


def unpack_body(body: bytes) -> dict[str, Any]:
    """The map in one frame's body; :class:`ProtocolError` if it is not a valid message."""
    try:
        message = msgpack.unpackb(
            body, raw=False, strict_map_key=True, ext_hook=_refuse_ext, use_list=True
        )
    except Exception as error:
        raise ProtocolError(f"not a MessagePack message: {error}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"a message must be a map, got {type(message).__name__}")
    op = message.get("op")
    if not isinstance(op, str):
        raise ProtocolError('a message must have a string "op"')
    return message


class FrameBuffer:
    """Bytes in, whole messages out; refuses a frame over ``limit`` from its length alone."""

    def __init__(self, limit: int = MAX_MESSAGE) -> None:
        self.limit = limit
        self._data = bytearray()

    def feed(self, data: bytes) -> None:
        """Append bytes received from the socket."""
        self._data += data

    def next_body(self) -> bytes | None:
        """The next complete frame's body, or None until one is complete.

        An oversize frame raises a fatal :class:`ProtocolError`: its body is never read, so
        the stream cannot be trusted after it.
        """
        data = self._data
        if len(data) < HEADER_SIZE:
            return None
        (length,) = _HEADER.unpack_from(data)
        if length > self.limit:
            raise ProtocolError(
                f"message of {length} bytes is over the {self.limit}-byte limit", fatal=True
            )
        end = HEADER_SIZE + length
        if len(data) < end:
            return None
        body = bytes(data[HEADER_SIZE:end])
        del data[:end]
        return body

    @property
    def pending(self) -> int:
        """Bytes received but not yet part of a whole frame."""
        return len(self._data)


def plain(value: Any) -> Any:
    """``value`` with numpy scalars and arrays, tuples and enums made MessagePack-plain."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if hasattr(value, "tolist"):  # numpy
        return plain(value.tolist())
    if hasattr(value, "value") and hasattr(value, "name"):  # enum
        return plain(value.value)
    raise TypeError(f"cannot send {type(value).__name__} over the API")
