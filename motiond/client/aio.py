"""The async (trio) client of the behaviour API.

.. code-block:: python

    async with motiond.connect() as robot:           # the daemon's default socket
        await robot.emit("Walk", forward=0.2, priority=10)
        async with robot.subscribe(every=10) as states:
            async for state in states:
                print(state["position"])

A background task answers for the client: it reads every message (replies, states, tree
changes) and pings the daemon four times per timeout, so a connected client never counts as
silent while its process lives. When the ``async with`` block ends, or the process dies, the
daemon withdraws every task the client emitted.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import AsyncIterator, Callable
from typing import Any

import attrs
import trio

from motiond.api.protocol import (
    MAX_SERVER_MESSAGE,
    ApiError,
    FrameBuffer,
    ProtocolError,
    default_api_path,
    pack,
    plain,
    unpack_body,
)
from motiond.client.verbs import MOVE_TYPES, NaoqiVerbs

#: States a subscriber may leave unread before older ones are dropped.
SUBSCRIBER_BACKLOG = 16


class Robot(NaoqiVerbs):
    """A connection to the daemon (make it with :func:`connect`)."""

    def __init__(self, stream: trio.SocketStream, hello: dict[str, Any], priority: float) -> None:
        self._stream = stream
        self._send_lock = trio.Lock()
        self._ids = itertools.count(1)
        self._pending: dict[int, list[Any]] = {}
        self._subscribers: list[trio.MemorySendChannel] = []
        #: The daemon's hello: version, emitter name, joints, task types, timeout.
        self.hello = hello
        self.emitter: str = hello["emitter"]
        self.joints: list[str] = hello["joints"]
        self.types: list[str] = hello["types"]
        #: The default priority of emissions and of the NAOqi-style verbs.
        self.priority = priority
        #: The newest state received (while subscribed), else None.
        self.latest: dict[str, Any] | None = None
        #: The newest Director tree received (while subscribed with ``tree=True``).
        self.tree: dict[str, Any] | None = None
        #: The task types this client has emitted and not withdrawn.
        self.emitted: set[str] = set()
        #: States this client dropped because a subscriber did not keep up.
        self.dropped_states = 0
        self.closed = False

    # ------------------------------------------------------------------ requests

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

    async def emit(
        self,
        task: Any,
        *,
        priority: float | None = None,
        optional: bool = False,
        **fields: Any,
    ) -> int:
        """Emit (or replace) this client's task of a type: ``emit("Walk", forward=0.2)``, or
        an attrs task object (``emit(Walk(0.2))``) whose fields are plain values. Returns the
        cycle whose actuator frame first reflects it. ``priority`` defaults to
        :attr:`priority`."""
        if isinstance(task, str):
            name = task
        elif attrs.has(type(task)):
            name = type(task).__name__
            fields = {**attrs.asdict(task, recurse=False), **fields}
        else:
            raise TypeError(f"emit a task type name or an attrs task, got {task!r}")
        reply = await self.request(
            "emit",
            type=name,
            fields=plain(fields),
            priority=self.priority if priority is None else priority,
            optional=optional,
        )
        self.emitted.add(name)
        return int(reply["cycle"])

    async def play(
        self,
        name: str | None = None,
        *,
        yaml: str | None = None,
        label: str | None = None,
        speed: float = 1.0,
        hold: bool = False,
        priority: float | None = None,
        wait: bool = True,
        interrupt: bool = False,
    ) -> float:
        """Play a shipped script by ``name``, or one given as ``yaml`` text (docs/scripts.md);
        its duration in s (at ``speed``). ``hold`` keeps its last posture until withdrawn.
        A script that moves the legs, above a stepping walk or a kick under way, starts once
        they have finished, unless ``interrupt`` (a dive). With ``wait``, returns once it has
        ended (robot time)."""
        fields: dict[str, Any] = {"speed": speed, "hold": hold, "interrupt": interrupt}
        if name is not None:
            fields["name"] = name
        if yaml is not None:
            fields["yaml"] = yaml
            if label is not None:
                fields["label"] = label
        reply = await self.request(
            "emit",
            type="Script",
            fields=fields,
            priority=self.priority if priority is None else priority,
        )
        self.emitted.add("Script")
        duration = float(reply["duration"])
        if wait:
            if reply.get("waits_for_legs"):
                # It starts once the walk has closed its feet or the kick has ended.
                await self.wait_robot_time(3.0, until=_legs_at_rest)
            await self.wait_robot_time(duration + 0.1)
        return duration

    async def withdraw(self, task_type: str | type | None = None) -> None:
        """Withdraw this client's task of ``task_type`` (a name or class), or all of them."""
        if isinstance(task_type, type):
            task_type = task_type.__name__
        await self.request("withdraw", type=task_type)
        if task_type is None:
            self.emitted.clear()
        else:
            self.emitted.discard(task_type)

    async def get_state(self) -> dict[str, Any]:
        """The robot's and the daemon's state now (docs/api.md lists the keys)."""
        return (await self.request("get", what="state"))["value"]

    async def get_tree(self) -> dict[str, Any]:
        """The Director's tree now (``["text"]`` is it as readable text)."""
        return (await self.request("get", what="tree"))["value"]

    async def get_types(self) -> dict[str, Any]:
        """Every task type a client may emit, with its fields."""
        return (await self.request("get", what="types"))["value"]

    async def get_gait(self) -> dict[str, Any]:
        """The gait in use: ``values`` (name → value) and ``ranges`` (name → [low, high, unit])."""
        return (await self.request("get", what="gait"))["value"]

    async def freeze(self) -> None:
        """Every joint limp at its measured angle, above every task, until :meth:`unfreeze`
        (from any client). It outlives this connection."""
        await self.request("freeze")

    async def unfreeze(self) -> None:
        """Release a freeze."""
        await self.request("unfreeze")

    async def stop_all(self) -> int:
        """The operator's stop: withdraw every client's walking tasks; how many were."""
        return int((await self.request("stop"))["withdrawn"])

    async def release_safe_sit(self) -> None:
        """Hand the joints back to the behaviours after the daemon's safe sit (which it plays
        after a LoLA outage, and holds until released)."""
        await self.request("release_safe_sit")

    async def kick(
        self,
        ball_x: float,
        ball_y: float,
        direction: float = 0.0,
        power: float = 1.0,
        foot: str = "auto",
        *,
        in_walk: bool = False,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """Kick the ball at (``ball_x``, ``ball_y``) (m, robot frame) towards ``direction``
        (rad) with ``power`` (0..1) and ``foot`` (a ``Kick``, standing: this client's walk is
        withdrawn and the feet come together first). With ``in_walk`` an ``InWalkKick``
        (straight, no power): keep a walk towards the ball emitted meanwhile. Returns the
        state's ``kick`` once the kick has ended: its ``outcome`` is kicked, refused
        (``reason`` says why), interrupted or missed. ``timeout`` (s of wall time) raises
        trio.TooSlowError."""
        name = "InWalkKick" if in_walk else "Kick"
        fields: dict[str, Any] = {"ball_x": ball_x, "ball_y": ball_y, "foot": foot}
        if not in_walk:
            fields.update(direction=direction, power=power)
        await self.withdraw(name)  # a fresh emission: the same kick again kicks again
        if not in_walk:
            # This client's walk holds the legs at the same priority (the incumbent wins
            # ties): withdrawn, the walk brings the feet together and the kick takes over.
            for move in MOVE_TYPES:
                if move in self.emitted:
                    await self.withdraw(move)
        cycle = await self.emit(name, **fields)
        with trio.fail_after(math.inf if timeout is None else timeout):
            while True:
                state = await self.get_state()
                if state["cycle"] >= cycle and state["kick"]["phase"] == "idle":
                    return dict(state["kick"])
                await trio.sleep(0.02)

    async def set_auto_getup(self, enabled: bool) -> None:
        """Whether the robot gets up by itself after a fall."""
        await self.request("auto_getup", enabled=enabled)

    async def get_up(self) -> None:
        """Start a get-up now (when lying still)."""
        await self.request("get_up")

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

    # ------------------------------------------------------------------ waiting

    async def wait_robot_time(
        self,
        seconds: float,
        poll: float = 0.02,
        until: Callable[[dict[str, Any]], bool] | None = None,
    ) -> dict[str, Any]:
        """Wait ``seconds`` of the robot's time (LoLA cycles, not wall time), or less once a
        state satisfies ``until``; the last state."""
        state = await self.get_state()
        end = state["t"] + seconds
        while state["t"] < end - 1e-9 and not (until is not None and until(state)):
            await trio.sleep(poll)
            state = await self.get_state()
        return state

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


def _legs_at_rest(state: dict[str, Any]) -> bool:
    return state["walk"]["phase"] == "standing" and not state["kick"]["moving"]


@contextlib.asynccontextmanager
async def connect(
    path: str | None = None,
    *,
    name: str | None = None,
    priority: float = 10.0,
    connect_timeout: float = 5.0,
) -> AsyncIterator[Robot]:
    """A :class:`Robot` connected to the daemon's API socket (``path``, default
    :func:`~motiond.api.protocol.default_api_path`). ``name`` labels this client's tasks in
    the Director's tree; ``priority`` is the default priority of its emissions."""
    path = path or default_api_path()
    if not (isinstance(priority, int | float) and math.isfinite(priority)):
        raise ValueError(f"priority must be a finite number, got {priority!r}")
    with trio.fail_after(connect_timeout):
        try:
            stream = await trio.open_unix_socket(path)
        except OSError as error:
            raise ApiError(f"cannot connect to motiond at {path}: {error}", "unreachable") from None
        hello, frames = await _read_hello(stream)
    try:
        async with stream, trio.open_nursery() as nursery:
            robot = Robot(stream, hello, float(priority))
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
