"""Task records: how an emission is checked, and the node a task occupies in the tree.

A user task is a frozen attrs value. The Director wraps it in a `Node` (a plain slotted
class: it is touched on every cycle, so it avoids attrs' per-attribute overhead). A node is a
*slot*: one per (emitter, type) for root tasks and one per (parent, type) for subtasks.
Re-emitting into a slot updates the node in place, so its identity, its children and its
place in the watch lists survive a data change.
"""

from __future__ import annotations

import enum
import math
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from director.emitter import Emitter
    from director.provider import Group


class DirectorError(Exception):
    """Misuse of the Director API (a wrong call, not a wrong task value)."""


class EmissionError(DirectorError, ValueError):
    """An emission refused at the call; nothing in the tree changed."""


class RunReason(enum.Enum):
    """Why a provider is being run."""

    NEW_TASK = "new task"
    STARTED = "started"
    STOPPED = "stopped"
    SUBTASK_DONE = "subtask done"
    PUSHED = "pushed"
    OTHER_TRIGGER = "other trigger"


class RunState(enum.Enum):
    """What `Context.uses` reports about a subtask."""

    RUNNING = "running"
    QUEUED = "queued"
    NO_TASK = "no task"


@attrs.frozen
class Uses:
    """The state of a provider's subtask of one type: its run state and whether it is done."""

    run_state: RunState
    done: bool


def check_emission(
    registered: dict[type, str], task: object, priority: object, optional: object, name: object
) -> tuple[type, float, bool, str]:
    """Validate one emission; return ``(type, priority, optional, name)`` or raise EmissionError.

    Checked at the call so that a bad value is reported where it was made, not deep inside a
    later cycle, and so that a refused emission leaves the tree untouched.
    """
    task_type = type(task)
    # The common emission (a registered type, a finite float, a bool, no name) is accepted
    # with the cheapest checks: a registered type is already known to be an attrs class.
    if (
        name is None
        and type(priority) is float
        and (optional is False or optional is True)
        and task_type in registered
        and -math.inf < priority < math.inf
    ):
        return task_type, priority, optional, registered[task_type]
    if getattr(task_type, "__attrs_attrs__", None) is None:
        raise EmissionError(
            f"a task must be an attrs class instance, got {task_type.__qualname__}: {task!r}"
        )
    if task_type not in registered:
        raise EmissionError(
            f"task type {task_type.__qualname__} is not registered with this Director "
            "(register it with Director.register or give it a provider)"
        )
    if isinstance(priority, bool) or not isinstance(priority, int | float):
        raise EmissionError(
            f"priority of {task_type.__qualname__} must be a number, got {priority!r}"
        )
    if not math.isfinite(priority):
        raise EmissionError(f"priority of {task_type.__qualname__} must be finite, got {priority}")
    if not isinstance(optional, bool):
        raise EmissionError(
            f"optional of {task_type.__qualname__} must be a bool, got {optional!r}"
        )
    if name is None:
        name = registered[task_type]
    elif not isinstance(name, str) or not name:
        raise EmissionError(f"name of {task_type.__qualname__} must be a non-empty str")
    return task_type, float(priority), optional, name


class Node:
    """One task slot in the tree (internal; the view is the public picture of it)."""

    __slots__ = (
        "children",
        "context",
        "data",
        "dead",
        "done",
        "done_pending",
        "emitter",
        "granted",
        "group",
        "last_cycle",
        "lost",
        "name",
        "optional",
        "parent",
        "placeholder",
        "priority",
        "runs",
        "serial",
        "type",
        "wait_epoch",
    )

    def __init__(
        self,
        group: Group,
        data: Any,
        priority: float,
        optional: bool,
        name: str,
        parent: Node | None,
        emitter: Emitter | None,
        serial: int,
    ) -> None:
        self.group = group
        self.type = group.type
        self.data = data
        self.priority = priority
        self.optional = optional
        self.name = name
        self.parent = parent
        self.emitter = emitter
        self.serial = serial
        # A placeholder holds a group for a provider's Needs before (or without) a real task.
        self.placeholder = data is None
        self.granted = False
        self.dead = False
        self.done = False
        # A SUBTASK_DONE run of this node is queued: more finished subtasks join it.
        self.done_pending = False
        self.runs = 0
        # A pending Wait fires only while this is unchanged: a fresh pack, a new Wait or a
        # re-emission of the task bumps it; a run that answers Continue (or Done) does not.
        self.wait_epoch = 0
        #: The group it Needs and lost to another task, while it waits for it (the view shows it).
        self.lost: Group | None = None
        self.last_cycle = -1
        self.children: dict[type, Node] = {}
        #: The provide run's context, reused from run to run (see `Lifecycle.run`).
        self.context: Any = None

    def chain(self) -> list[Node]:
        """This node and its ancestors, leaf first."""
        out = []
        node: Node | None = self
        while node is not None:
            out.append(node)
            node = node.parent
        return out

    def root(self) -> Node:
        """The root task this node descends from."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def __repr__(self) -> str:
        flags = "granted" if self.granted else "queued"
        if self.dead:
            flags = "dead"
        return f"<Node {self.name} p={self.priority:g} {flags}>"
