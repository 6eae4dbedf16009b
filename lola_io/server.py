"""A LoLA server on a Unix socket, serving a pluggable :class:`~lola_io.body.Body`.

Like LoLA it speaks first and serves one client at a time (others are turned away). Two clocks:

- **real time**: a sensor frame every ``period`` of trio time, whatever the client does; the
  body steps with the newest command received since the last step (``None`` if none came).
- **lockstep**: the next frame is sent as soon as the reply to the last one arrives, so a
  simulation runs as fast as client and body allow; simulated time still advances ``period``
  per frame, so the daemon sees exactly what it would see on a robot.

The body keeps its state across clients (a robot does not reset when the daemon restarts).
"""

from __future__ import annotations

import errno
import logging
import os
import socket
import stat

import attrs
import trio

from lola_io.body import Body, BodyFinished
from lola_io.codec import encode_sensor
from lola_io.errors import LolaDecodeError
from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.sockio import write_message
from lola_io.stream import FrameReader, actuator_reader

log = logging.getLogger(__name__)

LOLA_PERIOD = 0.012
_RECEIVE_BYTES = 1 << 16
_CLIENT_ERRORS = (trio.BrokenResourceError, trio.ClosedResourceError, OSError)


class _ClientGone(Exception):
    """The client closed its end."""


@attrs.define
class ServerCounters:
    """What a server has done since it was created."""

    clients: int = 0  # client sessions served
    refused: int = 0  # clients turned away while another was connected
    frames_sent: int = 0  # sensor frames written
    commands: int = 0  # valid actuator frames received
    invalid: int = 0  # actuator frames that failed validation
    resyncs: int = 0  # times the client's byte stream was out of step
    missed: int = 0  # real time: steps taken without a new command
    overruns: int = 0  # real time: ticks the server itself was too late for


class LolaServer:
    """Serve ``body`` on the Unix socket ``path``: ``await server.serve()`` (until cancelled).

    ``serve`` returns by itself when the body raises :class:`~lola_io.body.BodyFinished`
    (the end of a replay). ``sim_time`` is the simulated time of the last frame sent.
    """

    def __init__(
        self, body: Body, path: str, *, realtime: bool = False, period: float = LOLA_PERIOD
    ) -> None:
        if period <= 0:
            raise ValueError(f"LolaServer: period must be positive, got {period}")
        self.body = body
        self.path = path
        self.realtime = realtime
        self.period = period
        self.counters = ServerCounters()
        self.sim_time = 0.0
        self._busy = False
        self._done = False

    async def serve(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Listen, then serve clients one at a time; ``task_status.started()`` once listening."""
        listener = await self._listen()
        inode = os.stat(self.path).st_ino
        try:
            task_status.started()
            async with trio.open_nursery() as nursery:
                while not self._done:
                    stream = await listener.accept()
                    if self._busy:
                        self.counters.refused += 1
                        await stream.aclose()
                        continue
                    self._busy = True
                    nursery.start_soon(self._session, stream, nursery.cancel_scope)
        finally:
            unlink_if_ours(self.path, inode)
            with trio.CancelScope(shield=True):
                await listener.aclose()

    async def _listen(self) -> trio.SocketListener:
        remove_stale_socket(self.path)
        sock = trio.socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            await sock.bind(self.path)
            sock.listen(1)
        except BaseException:
            sock.close()
            raise
        return trio.SocketListener(sock)

    async def _session(self, stream: trio.SocketStream, serving: trio.CancelScope) -> None:
        self.counters.clients += 1
        reader = actuator_reader()
        try:
            frame = self.body.first_frame()
            if self.realtime:
                await self._run_realtime(stream, reader, frame)
            else:
                await self._run_lockstep(stream, reader, frame)
        except (_ClientGone, *_CLIENT_ERRORS, trio.TooSlowError) as exc:
            log.debug("client session ended: %r", exc)
        except BodyFinished:
            self._done = True
            serving.cancel()
        finally:
            self.counters.resyncs += reader.resyncs
            self._busy = False
            with trio.CancelScope(shield=True):
                await stream.aclose()

    async def _send(self, stream: trio.SocketStream, frame: SensorFrame) -> None:
        # LoLA does not wait for a client that stops reading; neither does this server.
        # (In lockstep the client is waiting for this very frame: no timer needed.)
        timeout = max(self.period, 0.05) if self.realtime else None
        await write_message(stream, encode_sensor(frame), timeout=timeout)
        self.counters.frames_sent += 1

    async def _run_lockstep(
        self, stream: trio.SocketStream, reader: FrameReader[ActuatorFrame], frame: SensorFrame
    ) -> None:
        while True:
            await self._send(stream, frame)
            command = await self._next_reply(stream, reader)
            frame = self._step(command)

    async def _next_reply(
        self, stream: trio.SocketStream, reader: FrameReader[ActuatorFrame]
    ) -> ActuatorFrame | None:
        """The client's next message: a command, or None for an invalid one (still a reply)."""
        while True:
            try:
                command = reader.next_frame()
            except LolaDecodeError as exc:
                self.counters.invalid += 1
                log.debug("invalid actuator frame: %s", exc)
                return None
            if command is not None:
                self.counters.commands += 1
                return command
            data = await stream.receive_some(_RECEIVE_BYTES)
            if not data:
                raise _ClientGone
            reader.feed(data)

    async def _run_realtime(
        self, stream: trio.SocketStream, reader: FrameReader[ActuatorFrame], frame: SensorFrame
    ) -> None:
        newest: list[ActuatorFrame | None] = [None]
        error: BaseException | None = None

        async def receive() -> None:
            try:
                while True:
                    newest[0] = await self._next_reply(stream, reader) or newest[0]
            except (_ClientGone, *_CLIENT_ERRORS):
                nursery.cancel_scope.cancel()

        # Errors are caught inside the nursery and re-raised outside it, so that the session
        # sees them plainly rather than wrapped in an exception group.
        async with trio.open_nursery() as nursery:
            nursery.start_soon(receive)
            try:
                await self._tick(stream, frame, newest)
            except (BodyFinished, _ClientGone, *_CLIENT_ERRORS, trio.TooSlowError) as exc:
                error = exc
            nursery.cancel_scope.cancel()
        if error is not None:
            raise error

    async def _tick(
        self, stream: trio.SocketStream, frame: SensorFrame, newest: list[ActuatorFrame | None]
    ) -> None:
        tick = trio.current_time()
        while True:
            await self._send(stream, frame)
            tick += self.period
            now = trio.current_time()
            if now > tick:
                self.counters.overruns += 1
                tick = now
            await trio.sleep_until(tick)
            command, newest[0] = newest[0], None
            if command is None:
                self.counters.missed += 1
            frame = self._step(command)

    def _step(self, command: ActuatorFrame | None) -> SensorFrame:
        frame = self.body.step(command, self.period)
        self.sim_time += self.period
        return frame


def remove_stale_socket(path: str) -> None:
    """Remove a socket file left by a server that is gone; refuse to touch anything else.

    A socket someone still listens on is not stale: on a robot, ``/tmp/robocup`` is LoLA's own,
    and replacing it would cut the daemon off the real robot. A connection attempt tells.
    """
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise FileExistsError(errno.EEXIST, "exists and is not a socket", path)
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(path)
    except OSError:
        os.unlink(path)  # nobody listens: left by a server that is gone
    else:
        raise FileExistsError(errno.EADDRINUSE, "another process is serving it", path)
    finally:
        probe.close()


def unlink_if_ours(path: str, inode: int) -> None:
    """Remove the socket file unless another server has replaced it meanwhile."""
    try:
        if os.lstat(path).st_ino == inode:
            os.unlink(path)
    except FileNotFoundError:
        pass
