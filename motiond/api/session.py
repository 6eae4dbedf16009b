"""One client connection of the behaviour API: one emitter in the Director.

A session reads length-prefixed messages, answers each request with ``ok`` or ``error`` (same
``id``), and writes what the server publishes to it. Its outgoing side is two bounded queues
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
import math
import os
from typing import TYPE_CHECKING, Any

import attrs
import trio

from director import EmissionError
from motiond.api.protocol import (
    MAX_MESSAGE,
    VERSION,
    ApiError,
    FrameBuffer,
    ProtocolError,
    pack,
    plain,
    unpack_body,
)
from motiond.api.state import state_message, tree_message
from motiond.api.task_types import TASK_TYPES, task_type
from motiond.runtime import PriorityError
from skills.walk import PARAMETER_RANGES, Walk, WalkPath, WalkTo, WalkToward

if TYPE_CHECKING:
    from motiond.api.server import ApiServer

#: Replies and tree messages a client may leave unread before it counts as not reading.
REPLY_BACKLOG = 256
#: States kept for a slow reader; older ones are dropped (and counted).
STATE_BACKLOG = 4
#: Messages handled per client per cycle; more wait for the next cycle (the socket then
#: fills and the client blocks, the daemon does not).
MESSAGES_PER_CYCLE = 32
#: The task types the operator's ``stop`` withdraws from every client.
WALKING_TYPES: tuple[type, ...] = (Walk, WalkToward, WalkTo, WalkPath)
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
        self.dropped_states = 0
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
            self.dropped_states += 1
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
        handler = _HANDLERS.get(message["op"])
        if handler is None:
            known = ", ".join(sorted(_HANDLERS))
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

    def _hello(self, message: dict) -> dict | None:
        version = message.get("version", VERSION)
        if version != VERSION:
            raise ApiError(f"protocol version {version!r} is not served (this is {VERSION})")
        name = message.get("name")
        if name is not None:
            if not (isinstance(name, str) and name.isprintable() and 0 < len(name) <= 40):
                raise ApiError(f"name must be 1..40 printable characters, got {name!r}")
            if self._emitter is not None:
                raise ApiError("name must be given before the first emit")
            self.name = f"api-{self.number}:{name}"
        return {"emitter": self.name}

    def _emit(self, message: dict) -> dict:
        kind = task_type(message.get("type"))
        task = kind.make(message.get("fields"))
        priority = _number(message.get("priority", 0.0), "priority")
        optional = message.get("optional", False)
        if not isinstance(optional, bool):
            raise ApiError(f"optional must be true or false, got {optional!r}", "bad_field")
        if self._emitter is None:
            self._emitter = self.runtime.emitter(self.name)
        try:
            self._emitter.emit(task, priority=priority, optional=optional)
        except (PriorityError, EmissionError) as error:
            raise ApiError(str(error), "bad_priority") from None
        self.emitted.add(kind.cls)
        # Applied by the next cycle's Director update: that cycle's frame reflects it.
        result: dict[str, Any] = {"cycle": self.runtime.counters.cycles + 1}
        duration = getattr(getattr(task, "script", None), "duration", None)
        if duration is not None:
            result["duration"] = duration / task.speed
        return result

    def _withdraw(self, message: dict) -> dict:
        name = message.get("type")
        kinds = [task_type(name).cls] if name is not None else sorted(self.emitted, key=str)
        if self._emitter is not None:
            for cls in kinds:
                self._emitter.emit_none(cls)
        self.emitted.difference_update(kinds)
        return {"cycle": self.runtime.counters.cycles + 1}

    def withdraw_walking(self) -> int:
        """Withdraw this client's walking tasks (the operator's ``stop``); how many."""
        walking = [cls for cls in WALKING_TYPES if cls in self.emitted]
        for cls in walking:
            self._emitter.emit_none(cls)
        self.emitted.difference_update(walking)
        return len(walking)

    def _subscribe(self, message: dict) -> dict:
        every = message.get("state", 1)
        if isinstance(every, bool) or not isinstance(every, int) or not 0 <= every <= 8300:
            raise ApiError(f"state must be a whole number of cycles >= 0, got {every!r}")
        tree = message.get("tree", False)
        if not isinstance(tree, bool):
            raise ApiError(f"tree must be true or false, got {tree!r}")
        self.state_every, self.tree = every, tree
        if tree:  # the tree as it is now, then its changes
            self.post(pack(plain(tree_message(self.runtime.director.view()))))
        return {}

    def _get(self, message: dict) -> dict:
        what = message.get("what", "state")
        if what == "state":
            return {"value": state_message(self.runtime, self.server.counters.as_map())}
        if what == "tree":
            return {"value": tree_message(self.runtime.director.view())}
        if what == "types":
            return {"value": {n: t.describe() for n, t in TASK_TYPES.items()}}
        if what == "gait":
            ranges = {k: list(v[:3]) for k, v in PARAMETER_RANGES.items()}
            return {"value": {"values": attrs.asdict(self.runtime.walk.gait), "ranges": ranges}}
        raise ApiError(f"get: unknown {what!r} (state, tree, types, gait)")

    def _freeze(self, message: dict) -> None:
        self.runtime.freeze()

    def _unfreeze(self, message: dict) -> None:
        self.runtime.unfreeze()

    def _stop(self, message: dict) -> dict:
        return {"withdrawn": self.server.stop_walking()}

    def _auto_getup(self, message: dict) -> None:
        enabled = message.get("enabled")
        if not isinstance(enabled, bool):
            raise ApiError(f"enabled must be true or false, got {enabled!r}")
        self.runtime.supervisor.set_auto_getup(enabled)

    def _release_safe_sit(self, message: dict) -> None:
        self.runtime.release_safe_sit()

    def _walk_arms(self, message: dict) -> None:
        left, right = message.get("left"), message.get("right")
        if not (isinstance(left, bool) and isinstance(right, bool)):
            raise ApiError(f"left and right must be true or false, got {left!r}, {right!r}")
        self.runtime.walk.arms_enabled = (left, right)

    def _get_up(self, message: dict) -> None:
        self.runtime.supervisor.get_up()

    def _ping(self, message: dict) -> dict:
        return {"cycle": self.runtime.counters.cycles}


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ApiError(f"{what} must be a finite number, got {value!r}", "bad_field")
    return float(value)


_HANDLERS = {
    "hello": Session._hello,
    "emit": Session._emit,
    "withdraw": Session._withdraw,
    "subscribe": Session._subscribe,
    "get": Session._get,
    "freeze": Session._freeze,
    "unfreeze": Session._unfreeze,
    "stop": Session._stop,
    "auto_getup": Session._auto_getup,
    "get_up": Session._get_up,
    "walk_arms": Session._walk_arms,
    "release_safe_sit": Session._release_safe_sit,
    "ping": Session._ping,
}
