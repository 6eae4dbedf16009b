"""What a provider sees and answers with: the run context.

A provider is ``fn(ctx)``. Its answer is what it does with ``ctx`` before returning:

- ``ctx.emit(task, priority=, optional=, name=)`` adds a subtask to this run's pack;
- ``ctx.done()`` marks the task finished (subtasks are kept unless something was emitted);
- ``ctx.continue_()`` keeps the current subtasks untouched;
- ``ctx.wait(deadline)`` asks to be run again with SUBTASK_DONE at ``deadline``;
- returning having done none of these is an empty pack: all subtasks are removed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from director.task import DirectorError, RunReason, RunState, Uses, check_emission

if TYPE_CHECKING:
    from director.engine import Director
    from director.task import Node


class Context:
    """One provider run: the task, why it runs, the time, and the answer being built."""

    __slots__ = (
        "_continue",
        "_director",
        "_done",
        "_emits",
        "_kind",
        "_node",
        "_open",
        "_wait",
        "now",
        "reason",
    )

    def __init__(self, director: Director, node: Node, reason: RunReason, kind: str) -> None:
        self._director = director
        self._node = node
        self._kind = kind
        self.reopen(reason, director.now)

    def reopen(self, reason: RunReason, now: float) -> None:
        """Start a run (the first, or another of the same node) with a fresh, empty answer."""
        # Made on the first emit: most runs (servos, stop handlers) emit nothing.
        self._emits: dict[type, tuple[Any, float, bool, str]] | None = None
        self._done = False
        self._continue = False
        self._wait: float | None = None
        self._open = True
        #: Why this run happens.
        self.reason = reason
        #: The time passed to the current `Director.update`.
        self.now = now

    @property
    def task(self) -> Any:
        """The task value this provider serves."""
        return self._node.data

    @property
    def name(self) -> str:
        """The task's emission name."""
        return self._node.name

    @property
    def priority(self) -> float:
        """The task's own (local) priority."""
        return self._node.priority

    def _check_open(self, what: str) -> None:
        if not self._open:
            raise DirectorError(f"{what} called after the provider for {self._node.name} returned")

    def emit(
        self, task: Any, *, priority: float = 0.0, optional: bool = False, name: str | None = None
    ) -> None:
        """Add a subtask to this run's pack (one per type; a second emit of a type replaces it)."""
        if not self._open:
            self._check_open("emit")
        if self._kind != "provide":
            raise DirectorError(
                f"a {self._kind} provider cannot emit subtasks (task {self._node.name}); "
                "emit from the provide provider, or use an emitter for root tasks"
            )
        # check_emission starts with a fast path for the common emission (a registered type,
        # a finite float priority, no name): this runs once per subtask of every pack.
        task_type, priority, optional, name = check_emission(
            self._director.registered, task, priority, optional, name
        )
        emits = self._emits
        if emits is None:
            emits = self._emits = {}
        emits[task_type] = (task, priority, optional, name)

    def done(self) -> None:
        """This task is finished: a root is removed, a subtask's parent runs with SUBTASK_DONE."""
        if not self._open:
            self._check_open("done")
        self._done = True

    def continue_(self) -> None:
        """Keep the current subtasks as they are."""
        if not self._open:
            self._check_open("continue_")
        self._continue = True

    def wait(self, deadline: float) -> None:
        """Run again with SUBTASK_DONE at ``deadline`` unless re-run or removed before."""
        if not self._open:
            self._check_open("wait")
        self._wait = float(deadline)

    def uses(self, task_type: type) -> Uses:
        """The run state of this task's subtask of ``task_type`` and whether it is done."""
        child = self._node.children.get(task_type)
        if child is None or child.dead or child.placeholder:
            return Uses(RunState.NO_TASK, False)
        return Uses(RunState.RUNNING if child.granted else RunState.QUEUED, child.done)
