"""Recording LoLA traffic to a file, reading it back, and replaying it as a body.

A recording is a MessagePack stream: first a header map
``{"format": "motiond-lola-recording", "version": 1, "period": 0.012, "source": "..."}``, then
one ``[time, direction, payload]`` array per message: ``time`` in seconds since the first
message (trio clock), ``direction`` 0 for robot → client (sensor) or 1 for client → robot
(actuator), and ``payload`` the message's exact bytes. Raw bytes keep a recording byte-exact
and independent of this codec's version: replay decodes them again.

A recording cut off mid-message (the recorder was killed) ends at its last whole message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import attrs
import msgpack
import trio

from lola_io.body import BodyFinished
from lola_io.codec import decode_actuator, decode_sensor
from lola_io.errors import LolaDecodeError, LolaError
from lola_io.frames import ActuatorFrame, SensorFrame

RECORDING_FORMAT = "motiond-lola-recording"
RECORDING_VERSION = 1
SENSOR_DIRECTION = 0
ACTUATOR_DIRECTION = 1


class RecordingError(LolaError, ValueError):
    """A file that is not a recording this version can read."""


@attrs.frozen
class RecordingHeader:
    """What a recording says about itself."""

    version: int = RECORDING_VERSION
    period: float = 0.012
    source: str = ""

    def as_map(self) -> dict[str, Any]:
        """The header as written to the file."""
        return {
            "format": RECORDING_FORMAT,
            "version": self.version,
            "period": self.period,
            "source": self.source,
        }


@attrs.frozen
class RecordedMessage:
    """One message of a recording."""

    time: float
    direction: int = attrs.field(validator=attrs.validators.in_((0, 1)))
    payload: bytes

    @property
    def is_sensor(self) -> bool:
        """Robot → client."""
        return self.direction == SENSOR_DIRECTION

    def decode(self) -> SensorFrame | ActuatorFrame:
        """The frame the payload holds (raises a LolaDecodeError for a bad one)."""
        return decode_sensor(self.payload) if self.is_sensor else decode_actuator(self.payload)


class Recorder:
    """Writes messages with their times to a recording file.

    ``clock`` gives the time (trio's clock by default, so it must be used inside ``trio.run``
    unless another clock is passed); times are stored relative to the first message.
    """

    def __init__(
        self,
        file: BinaryIO,
        *,
        header: RecordingHeader | None = None,
        clock: Callable[[], float] = trio.current_time,
    ) -> None:
        self._file = file
        self._clock = clock
        self._start: float | None = None
        self._packer = msgpack.Packer(use_bin_type=True)
        self.header = header or RecordingHeader()
        self.messages = 0
        file.write(self._packer.pack(self.header.as_map()))

    @classmethod
    def open(cls, path: str | Path, **kwargs: Any) -> Recorder:
        """A recorder writing a new file at ``path`` (replacing any file there)."""
        return cls(open(path, "wb"), **kwargs)  # closed by close()

    def sensor(self, payload: bytes) -> None:
        """Record a sensor message (robot → client)."""
        # Flushed once a cycle, so a recorder that is killed loses at most one cycle.
        self._file.flush()
        self._write(SENSOR_DIRECTION, payload)

    def actuator(self, payload: bytes) -> None:
        """Record an actuator message (client → robot)."""
        self._write(ACTUATOR_DIRECTION, payload)

    def _write(self, direction: int, payload: bytes) -> None:
        now = self._clock()
        if self._start is None:
            self._start = now
        self._file.write(self._packer.pack([now - self._start, direction, bytes(payload)]))
        self.messages += 1

    def close(self) -> None:
        """Flush and close the file."""
        self._file.close()

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def read_recording(path: str | Path) -> tuple[RecordingHeader, Iterator[RecordedMessage]]:
    """The header of the recording at ``path`` and an iterator over its messages."""
    file = open(path, "rb")  # noqa: SIM115 (closed when the iterator ends)
    unpacker = msgpack.Unpacker(file, raw=False, strict_map_key=True)
    try:
        header = _header(unpacker.unpack(), path)
    except (msgpack.OutOfData, ValueError, msgpack.UnpackException) as exc:
        file.close()
        if isinstance(exc, RecordingError):
            raise
        raise RecordingError(f"{path}: not a LoLA recording ({exc!r})") from None
    return header, _messages(unpacker, file, path)


def _header(raw: Any, path: str | Path) -> RecordingHeader:
    if type(raw) is not dict or raw.get("format") != RECORDING_FORMAT:
        raise RecordingError(f"{path}: not a LoLA recording (no {RECORDING_FORMAT!r} header)")
    if raw.get("version") != RECORDING_VERSION:
        raise RecordingError(
            f"{path}: recording version {raw.get('version')!r}, this reader knows "
            f"{RECORDING_VERSION}"
        )
    return RecordingHeader(
        version=raw["version"], period=float(raw["period"]), source=str(raw.get("source", ""))
    )


def _messages(unpacker: msgpack.Unpacker, file: BinaryIO, path: str | Path):
    with file:
        index = 0
        while True:
            try:
                entry = unpacker.unpack()
            except msgpack.OutOfData:
                return  # the end, or a message cut off by a killed recorder
            except (ValueError, msgpack.UnpackException) as exc:
                raise RecordingError(f"{path}: message {index} is corrupt ({exc!r})") from None
            if (
                type(entry) is not list
                or len(entry) != 3
                or type(entry[0]) is not float
                or entry[1] not in (SENSOR_DIRECTION, ACTUATOR_DIRECTION)
                or type(entry[2]) is not bytes
            ):
                raise RecordingError(f"{path}: message {index} is not [time, direction, bytes]")
            yield RecordedMessage(time=entry[0], direction=entry[1], payload=entry[2])
            index += 1


class ReplayBody:
    """A body that serves the sensor frames of a recording, one per step, ignoring commands.

    At the end it raises :class:`~lola_io.body.BodyFinished` (the server then stops), or
    starts over when ``loop`` is set. Recorded frames that no longer decode are skipped and
    counted in ``invalid``.
    """

    def __init__(self, path: str | Path, *, loop: bool = False) -> None:
        self.path = path
        self.loop = loop
        self.header, self._messages = read_recording(path)
        self.served = 0
        self.invalid = 0

    def first_frame(self) -> SensorFrame:
        """The next recorded sensor frame."""
        return self._next()

    def step(self, command: ActuatorFrame | None, dt: float) -> SensorFrame:
        """The next recorded sensor frame (the command cannot change the past)."""
        return self._next()

    def _next(self) -> SensorFrame:
        restarted = False
        while True:
            for message in self._messages:
                if not message.is_sensor:
                    continue
                try:
                    frame = decode_sensor(message.payload)
                except LolaDecodeError:
                    self.invalid += 1
                    continue
                self.served += 1
                return frame  # type: ignore[return-value]
            if not self.loop or restarted:
                raise BodyFinished(f"{self.path}: end of recording after {self.served} frames")
            _, self._messages = read_recording(self.path)
            restarted = True
