"""One client connection of the behaviour API: one emitter in the Director.

A session reads length-prefixed messages, answers each request with ``ok`` or ``error`` (same
``id``; what each request does is ``motiond.api.requests``), and writes what the server
publishes to it. Its outgoing side is two bounded queues
drained by one writer task: replies and tree changes (never dropped; a client that lets
:data:`REPLY_BACKLOG` of them pile up is not reading and is disconnected) and states (at most
:data:`STATE_BACKLOG`; the oldest is dropped and counted, so a slow reader sees the newest
state, late, rather than an ever older one). Nothing here blocks the daemon's cycle: posting
is ``append``, and the only awaits are the socket's and the per-cycle message budget.

When the session ends, for whatever reason (the client closed, went silent for ``timeout``,
sent a frame over the size cap, stopped reading), its emitter is removed: every task it
emitted is withdrawn in the next cycle, and the robot falls back to what else is running (a
withdrawn walk first brings its feet together).
"""

from __future__ import annotations

import collections
import os
from typing import TYPE_CHECKING, Any

import trio

from motiond.api import requests
from motiond.api.protocol import (
    MAX_MESSAGE,
    ApiError,
    FrameBuffer,
    ProtocolError,
    pack,
    plain,
    unpack_body,
)

if TYPE_CHECKING:
    from motiond.api.server import ApiServer

#: Replies and tree messages a client may leave unread before it counts as not reading.
REPLY_BACKLOG = 256
#: States kept for a slow reader; older ones are dropped (and counted).
STATE_BACKLOG = 4
#: Messages handled per client per cycle; more wait for the next cycle (the socket then
#: fills and the client blocks, the daemon does not).
MESSAGES_PER_CYCLE = 32
_RECEIVE = 65536
_WRITE_CHUNK = 256 * 1024


class SessionEnded(Exception):
    """The session must end; ``reason`` is counted by the server."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Session:
    """One connected client (see the module docstring)."""

    def __init__(self, server: ApiServer, stream: trio.SocketStream, number: int) -> None:
        self.server = server
        self.runtime = server.runtime
        self.stream = stream
        self.number = number
        self.name = f"api-{number}"
        self.state_every = 0  # cycles between states; 0: not subscribed
        self.tree = False
        self.emitted: set[type] = set()
        self._replies: collections.deque[bytes] = collections.deque()
        self._states: collections.deque[bytes] = collections.deque()
        self._wake = trio.Event()
        self._emitter: Any = None
        self._budget_cycle = -1
        self._budget = 0
        self._scope: trio.CancelScope | None = None
        self._writing = False  # the writer holds data it has not finished sending
        self._fd = stream.socket.fileno()
        #: Why the session ended (None while it runs).
        self.reason: str | None = None

    # ------------------------------------------------------------------ the emitter

    @property
    def has_emitted(self) -> bool:
        """Whether this client has an emitter in the Director yet (made at its first emit)."""
        return self._emitter is not None

    def emitter(self) -> Any:
        """This client's emitter (a ``BehaviourEmitter``), made on first use."""
        if self._emitter is None:
            self._emitter = self.runtime.emitter(self.name)
        return self._emitter

    # ------------------------------------------------------------------ posting (sync)

    def post(self, frame: bytes) -> None:
        """Send or queue a reply or tree message; never dropped."""
        if self._direct(frame):
            return
        if len(self._replies) >= REPLY_BACKLOG:
            raise SessionEnded("not reading")
        self._replies.append(frame)
        self._wake.set()

    def post_state(self, frame: bytes) -> None:
        """Send or queue a state message; the oldest queued one is dropped if the client is
        behind."""
        if self._direct(frame):
            return
        if len(self._replies) >= REPLY_BACKLOG:
            raise SessionEnded("not reading")
        if len(self._states) >= STATE_BACKLOG:
            self._states.popleft()
            self.server.counters.dropped_states += 1
        self._states.append(frame)
        self._wake.set()

    def _direct(self, frame: bytes) -> bool:
        """Write ``frame`` at once if nothing is queued before it (the usual case: the socket
        buffer has room). Waking a writer task per client per cycle would cost the daemon's
        thread far more than the write itself. What the kernel does not take is queued first."""
        if self._replies or self._states or self._writing or self.reason is not None:
            return False
        try:
            written = os.write(self._fd, frame)
        except BlockingIOError:
            return False
        except OSError:
            self.end("closed")
            return True
        if written < len(frame):
            self._replies.append(frame[written:])
            self._wake.set()
        return True

    # ------------------------------------------------------------------ the connection

    async def run(self) -> str:
        """Serve the client until the session ends; the reason it ended."""
        try:
            async with trio.open_nursery() as nursery:
                self._scope = nursery.cancel_scope
                nursery.start_soon(self._write)
                self.post(pack(self.server.hello(self)))
                self.end(await self._read())
        except SessionEnded as ended:  # raised by post() on the session's own reads
            self.end(ended.reason)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            self.end("closed")
        finally:
            self.close()
        return self.reason or "closed"

    def end(self, reason: str) -> None:
        """End the session (from any task); the first reason given is the one counted."""
        if self.reason is None:
            self.reason = reason
        if self._scope is not None:
            self._scope.cancel()

    def close(self) -> None:
        """Withdraw every task of this client (idempotent)."""
        if self._emitter is not None:
            self.runtime.remove_emitter(self.name)
            self._emitter = None

    async def _write(self) -> None:
        timeout = self.server.write_timeout
        try:
            while True:
                if not self._replies and not self._states:
                    self._wake = trio.Event()
                    await self._wake.wait()
                    continue
                data = self._take()
                self._writing = True
                with trio.move_on_after(timeout) as scope:
                    await self.stream.send_all(data)
                self._writing = False
                if scope.cancelled_caught:
                    self.end("not reading")
                    return
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            self.end("closed")

    def _take(self) -> bytes:
        # Everything queued in one write: one scheduling round drains the queues, however
        # many requests a client pipelined.
        parts = []
        size = 0
        while self._replies and size < _WRITE_CHUNK:
            parts.append(self._replies.popleft())
            size += len(parts[-1])
        while self._states and size < _WRITE_CHUNK:
            parts.append(self._states.popleft())
            size += len(parts[-1])
        return b"".join(parts)

    async def _read(self) -> str:
        frames = FrameBuffer(MAX_MESSAGE)
        timeout = self.server.timeout
        while True:
            with trio.move_on_after(timeout) as scope:
                try:
                    data = await self.stream.receive_some(_RECEIVE)
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    return "closed"
            if scope.cancelled_caught:
                return "silent"
            if not data:
                return "closed"
            frames.feed(data)
            while True:
                try:
                    body = frames.next_body()
                except ProtocolError as error:
                    self._reply_error(None, error.problem, "oversize")
                    await self._flush()
                    return "oversize"
                if body is None:
                    break
                await self._within_budget()
                try:
                    self._handle(body)
                except SessionEnded as ended:
                    return ended.reason

    async def _flush(self) -> None:
        """Give the writer a moment to deliver the last reply before hanging up."""
        with trio.move_on_after(0.2):
            while self._replies:
                await trio.sleep(0.005)

    async def _within_budget(self) -> None:
        cycle = self.runtime.counters.cycles
        if cycle != self._budget_cycle:
            self._budget_cycle, self._budget = cycle, 0
        if self._budget >= MESSAGES_PER_CYCLE:
            await self.runtime.next_cycle()
            self._budget_cycle, self._budget = self.runtime.counters.cycles, 0
        self._budget += 1

    # ------------------------------------------------------------------ requests

    def _handle(self, body: bytes) -> None:
        self.server.counters.messages += 1
        try:
            message = unpack_body(body)
        except ProtocolError as error:
            self._reply_error(None, error.problem, "malformed")
            return
        request_id = message.get("id")
        handler = requests.HANDLERS.get(message["op"])
        if handler is None:
            known = ", ".join(sorted(requests.HANDLERS))
            self._reply_error(request_id, f"unknown op {message['op']!r} (ops: {known})", "bad_op")
            return
        try:
            result = handler(self, message)
        except ApiError as error:
            self._reply_error(request_id, str(error), error.code)
            return
        reply = {"op": "ok", "id": request_id}
        if result:
            reply.update(result)
        self.post(pack(plain(reply)))

    def _reply_error(self, request_id: Any, text: str, code: str) -> None:
        self.server.counters.errors += 1
        if not isinstance(request_id, int | str | None):
            request_id = None
        self.post(pack({"op": "error", "id": request_id, "code": code, "error": text}))
