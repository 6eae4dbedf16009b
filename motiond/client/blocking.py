"""The blocking client, for scripts and notebooks: the async client's methods, called plainly.

.. code-block:: python

    with motiond.connect_blocking() as robot:
        robot.wake_up()
        robot.move_to(1.0, 0.0, 0.0)
        for state in robot.states(every=10):
            ...

The async client runs in a background thread with its own trio loop (the client's process,
never the daemon's cycle); each method call is handed to that loop and waits for its result.
The thread also answers the daemon's liveness check, so a notebook left idle keeps its tasks;
closing the client (or the process ending) withdraws them.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

import trio

from motiond.client.aio import Robot, connect

_END = object()


class BlockingRobot:
    """A blocking connection to the daemon; every coroutine method of :class:`Robot` is here
    as a plain method with the same arguments."""

    def __init__(
        self,
        path: str | None = None,
        *,
        name: str | None = None,
        priority: float = 10.0,
        connect_timeout: float = 5.0,
    ) -> None:
        self._robot: Robot | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._error: BaseException | None = None
        self._ready = threading.Event()
        self._stop: trio.Event | None = None
        options = {"name": name, "priority": priority, "connect_timeout": connect_timeout}
        self._thread = threading.Thread(
            target=trio.run, args=(self._main, path, options), name="motiond-client", daemon=True
        )
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            self._thread.join()
            raise self._error

    async def _main(self, path: str | None, options: dict[str, Any]) -> None:
        try:
            async with connect(path, **options) as robot:
                self._robot = robot
                self._token = trio.lowlevel.current_trio_token()
                self._stop = trio.Event()
                self._ready.set()
                await self._stop.wait()
        except BaseException as error:  # handed to the caller's thread
            self._error = error
        finally:
            self._robot = None
            self._ready.set()

    def _call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self._robot is None or self._token is None:
            raise RuntimeError("the motiond client is closed")
        return trio.from_thread.run(functools.partial(fn, *args, **kwargs), trio_token=self._token)

    def __getattr__(self, name: str) -> Any:
        robot = self.__dict__.get("_robot")
        if robot is None:
            raise AttributeError(name)
        attribute = getattr(robot, name)
        if inspect.iscoroutinefunction(attribute):
            return functools.partial(self._call, attribute)
        return attribute

    def states(self, every: int = 1, *, tree: bool = False) -> Iterator[dict[str, Any]]:
        """States (and tree changes) as a blocking iterator; stop iterating to unsubscribe."""
        robot = self._robot
        if robot is None or self._token is None:
            raise RuntimeError("the motiond client is closed")
        items: queue.Queue[Any] = queue.Queue(maxsize=64)
        cancel: list[trio.CancelScope] = []

        async def pump() -> None:
            with trio.CancelScope() as scope:
                cancel.append(scope)
                try:
                    async with robot.subscribe(every, tree=tree) as channel:
                        async for message in channel:
                            try:
                                items.put_nowait(message)
                            except queue.Full:
                                robot.dropped_states += 1
                finally:
                    items.put(_END)

        trio.from_thread.run_sync(
            lambda: trio.lowlevel.spawn_system_task(pump), trio_token=self._token
        )
        try:
            while (item := items.get()) is not _END:
                yield item
        finally:
            if cancel and self._token is not None:
                with contextlib.suppress(trio.RunFinishedError):
                    trio.from_thread.run_sync(cancel[0].cancel, trio_token=self._token)

    def close(self) -> None:
        """Disconnect (the daemon withdraws this client's tasks)."""
        if self._stop is not None and self._token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                trio.from_thread.run_sync(self._stop.set, trio_token=self._token)
        self._thread.join(timeout=5.0)

    def __enter__(self) -> BlockingRobot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect_blocking(path: str | None = None, **options: Any) -> BlockingRobot:
    """A :class:`BlockingRobot` (use it in a ``with`` block or call ``close()``)."""
    return BlockingRobot(path, **options)
