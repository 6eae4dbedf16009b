"""Providers and provider groups: registration, kinds, Needs, When and Causing.

All providers of one task type form a `Group`. At most one provider of a group runs at a time,
serving the group's one active task. `When` and `Causing` are declared as small attrs values so a
registration reads like the NUbots DSL: ``when=When(Standing, "==", True)``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from director.task import DirectorError

if TYPE_CHECKING:
    from director.flow import Context
    from director.task import Node

#: Provider kinds: provide runs for the task; start/stop bracket the group's active period.
KINDS = ("provide", "start", "stop")

_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _check_op(_instance: object, _attribute: object, value: str) -> None:
    if value not in _OPS:
        raise DirectorError(f"When comparison must be one of {sorted(_OPS)}, got {value!r}")


@attrs.frozen
class When:
    """Run only while ``state <op> value`` holds for a state the runtime sets."""

    state: Any
    op: str = attrs.field(validator=_check_op)
    value: Any

    def holds(self, current: Any) -> bool:
        """Whether a state value satisfies this condition (a missing state never does)."""
        try:
            return bool(_OPS[self.op](current, self.value))
        except TypeError:
            return False


@attrs.frozen
class Causing:
    """Running this provider brings ``state`` to ``value`` (what makes it a pusher)."""

    state: Any
    value: Any


_MISSING = object()


class Provider:
    """A registered provider; the handle returned by `Director.provide`."""

    __slots__ = (
        "causing",
        "enabled",
        "every_cycle",
        "fn",
        "group",
        "kind",
        "name",
        "needs",
        "when",
    )

    def __init__(
        self,
        group: Group,
        fn: Callable[[Context], object],
        kind: str,
        needs: tuple[type, ...],
        when: tuple[When, ...],
        causing: tuple[Causing, ...],
        every_cycle: bool,
        name: str,
    ) -> None:
        self.group = group
        self.fn = fn
        self.kind = kind
        self.needs = needs
        self.when = when
        self.causing = causing
        self.every_cycle = every_cycle
        self.enabled = True
        self.name = name

    def when_holds(self, states: dict[Any, Any]) -> bool:
        """Whether every When condition holds for the current states."""
        return all(w.holds(states.get(w.state, _MISSING)) for w in self.when)

    def causes(self, condition: When) -> bool:
        """Whether this provider's Causing would satisfy ``condition``."""
        return any(c.state == condition.state and condition.holds(c.value) for c in self.causing)

    def __repr__(self) -> str:
        return f"<Provider {self.name} ({self.kind})>"


class Group:
    """All providers of one task type and the task (if any) that holds the group."""

    __slots__ = (
        "every_cycle",
        "index",
        "name",
        "provider",
        "providers",
        "push_provider",
        "pushed_by",
        "starts",
        "stops",
        "task",
        "type",
        "watchers",
    )

    def __init__(self, task_type: type, name: str, index: int) -> None:
        self.type = task_type
        self.name = name
        self.index = index
        self.providers: list[Provider] = []
        self.starts: list[Provider] = []
        self.stops: list[Provider] = []
        self.task: Node | None = None
        self.provider: Provider | None = None
        self.watchers: list[Node] = []
        self.pushed_by: Node | None = None
        self.push_provider: Provider | None = None
        self.every_cycle = False

    def add(self, provider: Provider) -> None:
        """Append a provider in declaration order."""
        if provider.kind == "provide":
            self.providers.append(provider)
            self.every_cycle = self.every_cycle or provider.every_cycle
        elif provider.kind == "start":
            self.starts.append(provider)
        else:
            self.stops.append(provider)

    def watch(self, node: Node) -> None:
        """Add a blocked task to this group's watchers (once)."""
        if node not in self.watchers:
            self.watchers.append(node)

    def __repr__(self) -> str:
        return f"<Group {self.name} task={self.task!r}>"


def as_tuple(value: Any, kind: type) -> tuple[Any, ...]:
    """Accept one value or an iterable of them, checked to be of ``kind``."""
    items = (value,) if isinstance(value, kind) else tuple(value)
    for item in items:
        if not isinstance(item, kind):
            raise DirectorError(f"expected {kind.__name__}, got {item!r}")
    return items
