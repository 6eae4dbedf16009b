"""A recording proxy: sits between the LoLA socket and the daemon, recording both directions.

The daemon connects to ``listen_path`` instead of ``/tmp/robocup``; for each daemon connection
the proxy connects upstream and forwards bytes both ways untouched and at once (recording must
not add a cycle of delay), while a frame reader on each direction cuts the copy into messages
for the recorder. Bytes that do not form a valid frame are still forwarded, just not recorded.
"""

from __future__ import annotations

import logging
import os
import socket

import attrs
import trio

from lola_io.connection import MessageSink
from lola_io.errors import LolaDecodeError
from lola_io.server import remove_stale_socket, unlink_if_ours
from lola_io.stream import FrameReader, actuator_reader, sensor_reader

log = logging.getLogger(__name__)

_RECEIVE_BYTES = 1 << 16
_STREAM_ERRORS = (trio.BrokenResourceError, trio.ClosedResourceError, OSError)


@attrs.define
class ProxyCounters:
    """Traffic through the proxy."""

    sessions: int = 0
    sensor_frames: int = 0
    actuator_frames: int = 0
    unrecorded: int = 0  # invalid frames forwarded but not recorded


class RecordingProxy:
    """Forward ``listen_path`` ↔ ``upstream_path``, copying every frame to ``recorder``.

    ``max_sensor_frames`` stops the proxy after that many sensor frames (None: until cancelled).
    """

    def __init__(
        self,
        upstream_path: str,
        listen_path: str,
        recorder: MessageSink,
        *,
        max_sensor_frames: int | None = None,
    ) -> None:
        self.upstream_path = upstream_path
        self.listen_path = listen_path
        self.recorder = recorder
        self.max_sensor_frames = max_sensor_frames
        self.counters = ProxyCounters()
        self._done = trio.CancelScope()

    async def serve(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Listen, then proxy one daemon connection at a time until cancelled or done."""
        remove_stale_socket(self.listen_path)
        sock = trio.socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        await sock.bind(self.listen_path)
        sock.listen(1)
        inode = os.stat(self.listen_path).st_ino
        listener = trio.SocketListener(sock)
        try:
            task_status.started()
            async with trio.open_nursery() as nursery:
                self._done = nursery.cancel_scope
                while True:
                    client = await listener.accept()
                    await self._session(client)
        finally:
            unlink_if_ours(self.listen_path, inode)
            with trio.CancelScope(shield=True):
                await listener.aclose()

    async def _session(self, client: trio.SocketStream) -> None:
        self.counters.sessions += 1
        try:
            upstream = await trio.open_unix_socket(self.upstream_path)
        except OSError as exc:
            log.warning("proxy: cannot reach %s: %s", self.upstream_path, exc)
            await client.aclose()
            return
        async with client, upstream, trio.open_nursery() as nursery:
            nursery.start_soon(self._pump, upstream, client, sensor_reader(), nursery.cancel_scope)
            nursery.start_soon(
                self._pump, client, upstream, actuator_reader(), nursery.cancel_scope
            )

    async def _pump(
        self,
        source: trio.SocketStream,
        sink: trio.SocketStream,
        reader: FrameReader,
        session: trio.CancelScope,
    ) -> None:
        try:
            while True:
                data = await source.receive_some(_RECEIVE_BYTES)
                if not data:
                    break
                await sink.send_all(data)
                reader.feed(data)
                self._record(reader)
        except _STREAM_ERRORS as exc:
            log.debug("proxy: a side closed: %r", exc)
        finally:
            session.cancel()  # one side gone: end the session, the daemon will reconnect

    def _record(self, reader: FrameReader) -> None:
        sensor = reader.kind == "sensor"
        while True:
            try:
                frame = reader.next_frame()
            except LolaDecodeError:
                self.counters.unrecorded += 1
                continue
            if frame is None:
                return
            if sensor:
                self.recorder.sensor(reader.last_raw)
                self.counters.sensor_frames += 1
                if self.max_sensor_frames and self.counters.sensor_frames >= self.max_sensor_frames:
                    self._done.cancel()
            else:
                self.recorder.actuator(reader.last_raw)
                self.counters.actuator_frames += 1
