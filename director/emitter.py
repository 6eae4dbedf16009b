"""Root emitters: how behaviours (code outside any provider) put tasks into the tree."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from director.task import DirectorError, EmissionError, check_emission

if TYPE_CHECKING:
    from director.engine import Director
    from director.task import Node


class Emitter:
    """A behaviour's handle: at most one root task per type; emitting again replaces it.

    Calls are checked at once and *queued*; they take effect in the next `Director.update`
    (or, when made from inside a provider, right after the current step).
    """

    __slots__ = ("_director", "closed", "name", "roots")

    def __init__(self, director: Director, name: str) -> None:
        self._director = director
        self.name = name
        self.closed = False
        #: type → the root node as of the last applied update.
        self.roots: dict[type, Node] = {}

    def emit(
        self,
        task: Any,
        *,
        priority: float = 0.0,
        optional: bool = False,
        name: str | None = None,
        task_type: type | None = None,
    ) -> None:
        """Emit (or replace) this emitter's root task of ``type(task)``.

        ``emit(None, task_type=T)`` removes the root task of type T, like `emit_none`.
        """
        if self.closed:
            raise DirectorError(f"emitter {self.name!r} was removed")
        if task is None:
            if task_type is None:
                raise EmissionError("emit(None) needs task_type= to say which task to remove")
            self.emit_none(task_type)
            return
        registered = self._director.registered
        checked = check_emission(registered, task, priority, optional, name)
        if task_type is not None and task_type is not checked[0]:
            raise EmissionError(f"task_type {task_type.__qualname__} does not match {task!r}")
        self._director.inbox.append(("emit", self, checked[0], task, *checked[1:]))

    def emit_none(self, task_type: type) -> None:
        """Remove this emitter's root task of ``task_type`` (if any)."""
        if self.closed:
            raise DirectorError(f"emitter {self.name!r} was removed")
        if task_type not in self._director.registered:
            raise EmissionError(f"task type {task_type!r} is not registered with this Director")
        self._director.inbox.append(("remove", self, task_type))

    def __repr__(self) -> str:
        return f"<Emitter {self.name!r} roots={len(self.roots)}>"
