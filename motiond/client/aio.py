"""The async (trio) client of the behaviour API.

.. code-block:: python

    async with motiond.connect() as robot:           # the daemon's default socket
        await robot.emit("Walk", forward=0.2, priority=10)
        async with robot.subscribe(every=10) as states:
            async for state in states:
                print(state["position"])

The connection's plumbing (replies by id, subscribers, the heartbeat that keeps a living client
from counting as silent) is ``motiond.client.connection``'s. When the ``async with`` block
ends, or the process dies, the daemon withdraws every task the client emitted.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import AsyncIterator, Callable
from typing import Any

import attrs
import trio

from motiond.api.protocol import plain
from motiond.client.connection import Connection, open_connection
from motiond.client.verbs import MOVE_TYPES, NaoqiVerbs


class Robot(Connection, NaoqiVerbs):
    """A connection to the daemon (make it with :func:`connect`)."""

    def __init__(self, stream: trio.SocketStream, hello: dict[str, Any], priority: float) -> None:
        super().__init__(stream, hello)
        self.joints: list[str] = hello["joints"]
        self.types: list[str] = hello["types"]
        #: The default priority of emissions and of the NAOqi-style verbs.
        self.priority = priority
        #: The task types this client has emitted and not withdrawn.
        self.emitted: set[str] = set()

    # ------------------------------------------------------------------ requests

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
    if not (isinstance(priority, int | float) and math.isfinite(priority)):
        raise ValueError(f"priority must be a finite number, got {priority!r}")

    def make(stream: trio.SocketStream, hello: dict[str, Any]) -> Robot:
        return Robot(stream, hello, float(priority))

    async with open_connection(make, path, name=name, connect_timeout=connect_timeout) as robot:
        yield robot
