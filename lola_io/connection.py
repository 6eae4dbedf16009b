"""The daemon's side of the LoLA socket: read one sensor frame per cycle, answer it in time.

Policies, all counted in :class:`LolaCounters`:

- **newest only**: when several frames are waiting (the daemon fell behind), only the newest is
  handed out; the others are ``skipped``. Acting on a stale frame is worse than dropping it.
- **reply deadline**: if no reply was sent within ``reply_deadline`` (8 ms, as Nao Devils do)
  of a frame's arrival, the last safe actuator frame (the last one given to :meth:`send`) is
  sent in its place and the cycle counts as ``late``. A reply for a frame that was already
  answered does not go on the wire (one reply per sensor frame keeps lockstep servers in step)
  but becomes the new safe frame.
- **bad bytes**: an invalid frame is dropped (``invalid``) and reading goes on; a desynced stream
  is resynchronised (``resyncs``); a closed socket is reconnected with exponential backoff
  (``reconnects``).

Times come from trio's clock, so tests can run the policies under ``trio.testing.MockClock``.
"""

from __future__ import annotations

import contextlib
import logging
from collections import deque
from typing import Protocol

import attrs
import trio

from lola_io.codec import encode_actuator
from lola_io.errors import LolaConnectionError, LolaDecodeError
from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.sockio import write_message
from lola_io.stream import sensor_reader

log = logging.getLogger(__name__)

DEFAULT_PATH = "/tmp/robocup"
# Large enough to drain everything queued in one read (a Unix socket buffer holds ~200 frames).
_RECEIVE_BYTES = 1 << 18
_STREAM_ERRORS = (trio.BrokenResourceError, trio.ClosedResourceError, OSError)


class MessageSink(Protocol):
    """Where a connection copies the raw bytes of what it receives and sends (a Recorder)."""

    def sensor(self, payload: bytes) -> None:
        """One sensor message as received."""

    def actuator(self, payload: bytes) -> None:
        """One actuator message as sent."""


@attrs.define
class LolaCounters:
    """What happened on a connection since it was created."""

    received: int = 0  # valid sensor frames read, including skipped ones
    sent: int = 0  # actuator messages written, including fallbacks
    late: int = 0  # frames whose reply deadline passed without a reply
    skipped: int = 0  # valid frames dropped because a newer one was already waiting
    invalid: int = 0  # frames that failed validation
    resyncs: int = 0  # times the byte stream was out of step and bytes were skipped
    reconnects: int = 0  # connections made after the first

    def snapshot(self) -> LolaCounters:
        """A copy that later traffic does not change."""
        return attrs.evolve(self)


class LolaConnection:
    """An async client of a LoLA socket; use as ``async with LolaConnection(path) as conn:``.

    ``async for frame in conn`` yields sensor frames (connecting, and reconnecting, as needed);
    ``await conn.send(actuators)`` answers the newest one. ``safe_frame`` is sent when a
    deadline passes before anything was given to :meth:`send`; without it such a cycle is only
    counted, and the late reply still goes out when it comes. ``connect_timeout`` bounds how
    long iteration waits for the socket to (re)appear before raising
    :class:`LolaConnectionError` (``None``: keep trying, as a robot should); it may be changed
    at any time (a long wait for the first connection, a short one after).
    """

    def __init__(
        self,
        path: str = DEFAULT_PATH,
        *,
        reply_deadline: float = 0.008,
        newest_only: bool = True,
        safe_frame: ActuatorFrame | None = None,
        backoff: float = 0.01,
        max_backoff: float = 0.5,
        connect_timeout: float | None = None,
        write_timeout: float = 0.1,
        recorder: MessageSink | None = None,
    ) -> None:
        if reply_deadline <= 0 or backoff <= 0 or max_backoff < backoff or write_timeout <= 0:
            raise ValueError(
                "LolaConnection: reply_deadline, backoff and write_timeout must be positive "
                f"and max_backoff >= backoff (got {reply_deadline}, {backoff}, {max_backoff}, "
                f"{write_timeout})"
            )
        self.path = path
        self.reply_deadline = reply_deadline
        self.newest_only = newest_only
        self.counters = LolaCounters()
        #: The last frame that failed validation, for diagnostics.
        self.last_error: LolaDecodeError | None = None
        self._backoff = backoff
        self._max_backoff = max_backoff
        self.connect_timeout = connect_timeout
        self._write_timeout = write_timeout
        self._recorder = recorder
        self._safe_payload = None if safe_frame is None else encode_actuator(safe_frame)
        self._reader = sensor_reader()
        self._pending: deque[SensorFrame] = deque()
        self._stream: trio.SocketStream | None = None
        self._ever_connected = False
        self._seq = 0  # frames handed out
        self._answered = 0  # the newest frame a reply went out for
        self._frame_time = 0.0
        self._frame_arrived = trio.Event()
        self._send_lock = trio.Lock()
        self._stack: contextlib.AsyncExitStack | None = None
        self._nursery: trio.Nursery | None = None

    # ---------------------------------------------------------------------------------------
    # lifetime

    async def __aenter__(self) -> LolaConnection:
        self._stack = contextlib.AsyncExitStack()
        self._nursery = await self._stack.enter_async_context(trio.open_nursery())
        self._nursery.start_soon(self._watchdog)
        return self

    async def __aexit__(self, *exc_info: object) -> bool | None:
        assert self._nursery is not None and self._stack is not None
        self._nursery.cancel_scope.cancel()
        if self._stream is not None:
            await self._drop(self._stream)
        return await self._stack.__aexit__(*exc_info)

    @property
    def connected(self) -> bool:
        """Whether a socket is open right now."""
        return self._stream is not None

    # ---------------------------------------------------------------------------------------
    # receiving

    def __aiter__(self) -> LolaConnection:
        return self

    async def __anext__(self) -> SensorFrame:
        if self._nursery is None:
            raise RuntimeError("LolaConnection: use it inside 'async with' before iterating")
        while True:
            if self._pending:
                return self._hand_out(self._pending.popleft())
            if self._stream is None:
                await self._connect()
            stream = self._stream
            assert stream is not None
            try:
                data = await stream.receive_some(_RECEIVE_BYTES)
            except _STREAM_ERRORS:
                data = b""
            if not data:
                await self._drop(stream)
                continue
            self._reader.feed(data)
            self._collect()

    def _collect(self) -> None:
        """Move every complete frame from the reader into the queue, applying newest-only."""
        while True:
            try:
                frame = self._reader.next_frame()
            except LolaDecodeError as exc:
                self.counters.invalid += 1
                self.last_error = exc
                log.debug("dropped an invalid sensor frame: %s", exc)
                continue
            if frame is None:
                break
            self.counters.received += 1
            if self._recorder is not None:
                self._recorder.sensor(self._reader.last_raw)
            self._pending.append(frame)
        self.counters.resyncs = self._reader.resyncs
        if self.newest_only:
            while len(self._pending) > 1:
                self._pending.popleft()
                self.counters.skipped += 1

    def _hand_out(self, frame: SensorFrame) -> SensorFrame:
        self._seq += 1
        self._frame_time = trio.current_time()
        self._frame_arrived.set()
        return frame

    async def _connect(self) -> None:
        delay = self._backoff
        start = trio.current_time()
        while True:
            try:
                stream = await trio.open_unix_socket(self.path)
                break
            except OSError as exc:
                waited = trio.current_time() - start
                if self.connect_timeout is not None and waited + delay > self.connect_timeout:
                    raise LolaConnectionError(
                        f"no LoLA socket at {self.path} after {waited:.3f} s ({exc})"
                    ) from exc
                await trio.sleep(delay)
                delay = min(2 * delay, self._max_backoff)
        if self._ever_connected:
            self.counters.reconnects += 1
        self._ever_connected = True
        self._reader.clear()
        self._stream = stream

    async def _drop(self, stream: trio.SocketStream) -> None:
        if self._stream is stream:
            self._stream = None
            self._pending.clear()
            # The old stream's unanswered frame needs no reply on the new one.
            self._answered = self._seq
        with trio.CancelScope(shield=True):
            await stream.aclose()

    # ---------------------------------------------------------------------------------------
    # sending

    async def send(self, frame: ActuatorFrame) -> bool:
        """Answer the newest frame; True if the reply went on the wire.

        An unencodable frame (NaN, say) raises :class:`~lola_io.errors.LolaEncodeError` and
        changes nothing. A reply to a frame already answered (by a fallback after its deadline,
        or an earlier send) only replaces the safe frame.
        """
        payload = encode_actuator(frame)
        self._safe_payload = payload
        if self._answered >= self._seq:
            return False
        self._answered = self._seq
        return await self._write(payload)

    async def _write(self, payload: bytes) -> bool:
        # Writers (send and the watchdog) meet only if a write blocks; take the lock without a
        # scheduling point in the usual uncontended case.
        try:
            self._send_lock.acquire_nowait()
        except trio.WouldBlock:
            await self._send_lock.acquire()
        try:
            stream = self._stream
            if stream is None:
                return False
            try:
                await write_message(stream, payload, timeout=self._write_timeout)
            except (*_STREAM_ERRORS, trio.TooSlowError):
                await self._drop(stream)
                return False
            self.counters.sent += 1
            if self._recorder is not None:
                self._recorder.actuator(payload)
            return True
        finally:
            self._send_lock.release()

    async def _watchdog(self) -> None:
        """Send the safe frame for every frame left unanswered past its deadline."""
        while True:
            await self._frame_arrived.wait()
            self._frame_arrived = trio.Event()
            seq = self._seq
            await trio.sleep_until(self._frame_time + self.reply_deadline)
            if self._answered < seq:
                self.counters.late += 1
                # Without a safe frame nothing goes out, and the frame stays open for the late
                # reply: a late command is better than none to a server waiting in lockstep.
                if self._safe_payload is not None:
                    self._answered = seq
                    await self._write(self._safe_payload)
