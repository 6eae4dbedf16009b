"""A daemon with the behaviour API on a kinematic body: real sockets, no physics, fast.

The LoLA server runs in lockstep, so robot time advances as fast as the daemon cycles; the
API's liveness and write timeouts are wall (trio) time, set short here.
"""

from __future__ import annotations

import contextlib
import struct
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import attrs
import msgpack
import trio

from lola_io.connection import LolaConnection
from lola_io.server import LolaServer
from motiond.api.server import ApiServer
from motiond.runtime import Runtime
from naosim.kinematic_body import KinematicBody
from skills.script_files import shipped_script


@attrs.define
class ApiDaemon:
    runtime: Runtime
    api: ApiServer
    path: str
    lola: LolaServer


@contextlib.asynccontextmanager
async def api_daemon(**server_options) -> AsyncIterator[ApiDaemon]:
    """Runtime + API server on a kinematic NAO standing in StandInit."""
    with tempfile.TemporaryDirectory(prefix="motiond-api-", dir="/tmp") as tmp:
        lola_path = str(Path(tmp) / "lola.sock")
        api_path = str(Path(tmp) / "api.sock")
        body = KinematicBody(initial_position=shipped_script("StandInit").final_pose().position)
        lola = LolaServer(body, lola_path)
        runtime = Runtime()
        options = {"timeout": 2.0, "write_timeout": 0.5, **server_options}
        api = ApiServer(runtime, api_path, **options)
        async with trio.open_nursery() as nursery:
            await nursery.start(lola.serve)
            conn = LolaConnection(lola_path, reply_deadline=2.0, connect_timeout=5.0)
            async with conn:
                await nursery.start(runtime.run, conn)
                await nursery.start(api.serve)
                try:
                    yield ApiDaemon(runtime, api, api_path, lola)
                finally:
                    nursery.cancel_scope.cancel()


class RawClient:
    """A client speaking the wire format by hand (for malformed input)."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self._buffer = bytearray()

    @classmethod
    async def open(cls, path: str) -> RawClient:
        client = cls(await trio.open_unix_socket(path))
        hello = await client.receive()
        assert hello["op"] == "hello"
        client.hello = hello
        return client

    async def send(self, message: dict) -> None:
        await self.send_raw(frame(msgpack.packb(message)))

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def receive(self, *, skip_states: bool = True) -> dict | None:
        """The next message (None when the daemon closed the connection)."""
        while True:
            if len(self._buffer) >= 4:
                (length,) = struct.unpack_from(">I", self._buffer)
                if len(self._buffer) >= 4 + length:
                    body = bytes(self._buffer[4 : 4 + length])
                    del self._buffer[: 4 + length]
                    message = msgpack.unpackb(body)
                    if skip_states and message["op"] in ("state", "tree"):
                        continue
                    return message
            data = await self.stream.receive_some(65536)
            if not data:
                return None
            self._buffer += data

    async def request(self, message: dict) -> dict | None:
        await self.send(message)
        return await self.receive()


def frame(body: bytes) -> bytes:
    """A length-prefixed frame around ``body``."""
    return struct.pack(">I", len(body)) + body
