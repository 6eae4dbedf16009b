"""The client's connection to the daemon's API socket: one request at a time answered by id,
states and tree changes fanned out to subscribers, and a heartbeat.

A background task reads every message (replies, states, tree changes) and pings the daemon four
times per timeout, so a connected client never counts as silent while its process lives.
:func:`open_connection` makes one; the API's verbs are :class:`motiond.client.aio.Robot`'s.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import trio

from motiond.api.protocol import (
    MAX_SERVER_MESSAGE,
    ApiError,
    FrameBuffer,
    ProtocolError,
    default_api_path,
    pack,
    unpack_body,
)

#: States a subscriber may leave unread before older ones are dropped.
SUBSCRIBER_BACKLOG = 16

C = TypeVar("C", bound="Connection")


class Connection:
    """Requests and replies, subscriptions and the heartbeat over one API socket."""

    def __init__(self, stream: trio.SocketStream, hello: dict[str, Any]) -> None:
        self._stream = stream
        self._send_lock = trio.Lock()
        self._ids = itertools.count(1)
        self._pending: dict[int, list[Any]] = {}
        self._subscribers: list[trio.MemorySendChannel] = []
        #: The daemon's hello: version, emitter name, joints, task types, timeout.
        self.hello = hello
        self.emitter: str = hello["emitter"]
        #: The newest state received (while subscribed), else None.
        self.latest: dict[str, Any] | None = None
        #: The newest Director tree received (while subscribed with ``tree=True``).
        self.tree: dict[str, Any] | None = None
        #: States this client dropped because a subscriber did not keep up.
        self.dropped_states = 0
        self.closed = False

    async def request(self, op: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return its ``ok`` reply; :class:`ApiError` if refused."""
        if self.closed:
            raise ApiError("the connection to motiond is closed", "closed")
        request_id = next(self._ids)
        slot: list[Any] = [trio.Event(), None]
        self._pending[request_id] = slot
        try:
            await self._send({"op": op, "id": request_id, **fields})
            await slot[0].wait()
        finally:
            self._pending.pop(request_id, None)
        reply = slot[1]
        if reply is None:
            raise ApiError("the connection to motiond closed before it answered", "closed")
        if reply["op"] == "error":
            raise ApiError(reply.get("error", "refused"), reply.get("code", "refused"))
        return reply

    async def ping(self) -> int:
        """A round trip; the daemon's cycle count."""
        return int((await self.request("ping"))["cycle"])

    @contextlib.asynccontextmanager
    async def subscribe(
        self, every: int = 1, *, tree: bool = False
    ) -> AsyncIterator[trio.MemoryReceiveChannel]:
        """States (and tree changes, if ``tree``) every ``every`` cycles, as a channel of
        dicts (``d["op"]`` is ``"state"`` or ``"tree"``). The subscription is the client's
        one: a later call's rate replaces an earlier one's."""
        send, receive = trio.open_memory_channel[dict](SUBSCRIBER_BACKLOG)
        self._subscribers.append(send)
        try:
            await self.request("subscribe", state=every, tree=tree)
            yield receive
        finally:
            self._subscribers.remove(send)
            send.close()
            if not self._subscribers and not self.closed:
                with contextlib.suppress(ApiError, trio.BrokenResourceError, OSError):
                    await self.request("subscribe", state=0, tree=False)

    # ------------------------------------------------------------------ plumbing

    async def _send(self, message: dict[str, Any]) -> None:
        data = pack(message)
        try:
            async with self._send_lock:
                await self._stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as error:
            raise ApiError(f"the connection to motiond is closed ({error})", "closed") from None

    async def _read(self, frames: FrameBuffer) -> None:
        try:
            while True:
                data = await self._stream.receive_some(65536)
                if not data:
                    return
                frames.feed(data)
                self._drain(frames)
        except (trio.BrokenResourceError, trio.ClosedResourceError, ProtocolError, OSError):
            return
        finally:
            self._close_pending()

    def _drain(self, frames: FrameBuffer) -> None:
        while (body := frames.next_body()) is not None:
            self._dispatch(unpack_body(body))

    def _dispatch(self, message: dict[str, Any]) -> None:
        op = message["op"]
        if op in ("ok", "error"):
            slot = self._pending.get(message.get("id"))  # type: ignore[arg-type]
            if slot is not None:
                slot[1] = message
                slot[0].set()
            return
        if op == "state":
            self.latest = message
        elif op == "tree":
            self.tree = message
        else:
            return
        for channel in self._subscribers:
            try:
                channel.send_nowait(message)
            except trio.WouldBlock:
                self.dropped_states += 1
            except trio.BrokenResourceError:
                pass

    def _close_pending(self) -> None:
        self.closed = True
        for slot in self._pending.values():
            slot[0].set()
        for channel in self._subscribers:
            channel.close()

    async def _heartbeat(self, interval: float) -> None:
        while not self.closed:
            await trio.sleep(interval)
            try:
                await self._send({"op": "ping", "id": None})
            except ApiError:
                return  # the daemon is gone: the reader marks the client closed


@contextlib.asynccontextmanager
async def open_connection(
    make: Callable[[trio.SocketStream, dict[str, Any]], C],
    path: str | None = None,
    *,
    name: str | None = None,
    connect_timeout: float = 5.0,
) -> AsyncIterator[C]:
    """``make(stream, hello)`` connected to the daemon's API socket (``path``, default
    :func:`~motiond.api.protocol.default_api_path`) and serving; ``name`` labels the client's
    tasks in the Director's tree."""
    path = path or default_api_path()
    with trio.fail_after(connect_timeout):
        try:
            stream = await trio.open_unix_socket(path)
        except OSError as error:
            raise ApiError(f"cannot connect to motiond at {path}: {error}", "unreachable") from None
        hello, frames = await _read_hello(stream)
    try:
        async with stream, trio.open_nursery() as nursery:
            robot = make(stream, hello)
            robot._drain(frames)  # anything that came in the same read as the hello
            nursery.start_soon(robot._read, frames)
            nursery.start_soon(robot._heartbeat, max(0.02, hello.get("timeout", 1.0) / 4))
            try:
                if name is not None:
                    reply = await robot.request("hello", version=hello["version"], name=name)
                    robot.emitter = reply["emitter"]
                yield robot
            finally:
                nursery.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        # The caller's own exception, not wrapped in the client's background nursery.
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise


async def _read_hello(stream: trio.SocketStream) -> tuple[dict[str, Any], FrameBuffer]:
    frames = FrameBuffer(MAX_SERVER_MESSAGE)
    while (body := frames.next_body()) is None:
        data = await stream.receive_some(65536)
        if not data:
            raise ApiError("motiond closed the connection before its hello", "closed")
        frames.feed(data)
    message = unpack_body(body)
    if message["op"] == "error":
        raise ApiError(message.get("error", "refused"), message.get("code", "refused"))
    if message["op"] != "hello":
        raise ApiError(f"expected hello from motiond, got {message['op']!r}", "protocol")
    return message, frames
