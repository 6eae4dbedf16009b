"""A recording harness for Director scenario tests (NUbots style: compare an event log)."""

from __future__ import annotations

import difflib
import pprint
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from director import Context, Director


def assert_log(actual: list, expected: list) -> None:
    """Compare event logs; on mismatch fail with a readable unified diff."""
    if actual == expected:
        return
    diff = difflib.unified_diff(
        pprint.pformat(expected, width=60).splitlines(),
        pprint.pformat(actual, width=60).splitlines(),
        "expected",
        "actual",
        lineterm="",
    )
    pytest.fail("event log differs:\n" + "\n".join(diff), pytrace=False)


class Harness:
    """A Director whose providers append ``(provider name, reason, task)`` to ``log``."""

    def __init__(self) -> None:
        self.d = Director()
        self.log: list[tuple[Any, ...]] = []
        self.t = 0.0

    def provider(
        self,
        task_type: type,
        label: str | None = None,
        body: Callable[[Context], None] | None = None,
        **options: Any,
    ):
        """Register a provider that logs its run, then calls ``body(ctx)`` if given."""
        name = label or task_type.__name__
        kind = options.get("kind", "provide")
        tag = name if kind == "provide" else f"{name}:{kind}"

        def fn(ctx: Context) -> None:
            self.log.append((tag, ctx.reason.name, ctx.task))
            if body is not None:
                body(ctx)

        return self.d.provide(task_type, fn, name=name, **options)

    def update(self, dt: float = 0.012) -> list:
        """Advance time, run one update, return (and clear) the log of that update."""
        self.t += dt
        self.d.update(self.t)
        out = self.log[:]
        self.log.clear()
        return out

    def holder(self, task_type: type) -> Any:
        """The task value running in a group (None when idle)."""
        return self.d.active(task_type)


def task(name: str, *fields: str) -> type:
    """A frozen attrs task class with the given fields (default 0)."""
    return attrs.make_class(name, {f: attrs.field(default=0) for f in fields}, frozen=True)
