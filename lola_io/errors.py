"""The errors lola_io raises on purpose, each naming the wire key and what was wrong with it.

Callers that only want to survive bad input catch :class:`LolaDecodeError` (one frame is lost,
the stream goes on); callers that want to react to a specific fault catch its subclass.
"""

from __future__ import annotations


class LolaError(Exception):
    """Base of every error lola_io raises deliberately."""


class LolaDecodeError(LolaError, ValueError):
    """Bytes or a decoded map that are not a valid LoLA frame.

    ``key`` is the wire key at fault (``None`` when the fault is not about one key) and
    ``problem`` says what is wrong with it, so logs and tests can tell faults apart.
    """

    def __init__(self, frame: str, key: str | None, problem: str) -> None:
        self.frame = frame
        self.key = key
        self.problem = problem
        where = f"{frame} frame" if key is None else f"{frame} frame key {key!r}"
        super().__init__(f"{where}: {problem}")


class MalformedFrameError(LolaDecodeError):
    """Not MessagePack, or not a map with string keys."""


class MissingKeyError(LolaDecodeError):
    """A required key is absent (nothing is zero-filled in its place)."""


class UnknownKeyError(LolaDecodeError):
    """A key the format does not have (a typo would otherwise be ignored silently)."""


class WrongLengthError(LolaDecodeError):
    """An array with the wrong number of values."""


class WrongTypeError(LolaDecodeError):
    """A value of the wrong MessagePack type (a string where a float belongs, say)."""


class NonFiniteError(LolaDecodeError):
    """A NaN or an infinity where a finite number belongs."""


class OutOfRangeError(LolaDecodeError):
    """A number outside what the key allows (a negative joint status, say)."""


class TrailingDataError(LolaDecodeError):
    """Bytes after the end of the frame's map."""


class LolaEncodeError(LolaError, ValueError):
    """A frame that cannot be put on the wire as it is (NaN targets, a value beyond float32)."""

    def __init__(self, frame: str, key: str | None, problem: str) -> None:
        self.frame = frame
        self.key = key
        self.problem = problem
        where = f"{frame} frame" if key is None else f"{frame} frame key {key!r}"
        super().__init__(f"cannot encode {where}: {problem}")


class LolaConnectionError(LolaError, ConnectionError):
    """The LoLA socket could not be reached within the time the caller allowed."""
