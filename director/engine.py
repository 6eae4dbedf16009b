"""The Director: registration, emitters, states, the per-cycle `update`, and queries.

The order inside one ``update(now)`` is fixed and is part of the contract:

1. everything queued since the last update (root emissions and removals, emitter removals,
   state changes, provider enable/disable), in the order the calls were made;
2. due Waits, earliest deadline first (ties: the order they were requested);
3. providers registered ``every_cycle=True`` whose group is running, in group registration
   order, with OTHER_TRIGGER — skipped when they already ran in this update.

Each item is one *step*: the item, the provider runs it causes, and the packs those return.
Calls made from inside providers (emitter emits, removals, state changes) are queued and applied
after the current step, so no handler ever sees a half-changed tree.
"""

from __future__ import annotations

import heapq
import logging
from collections.abc import Callable
from typing import Any

from director.emitter import Emitter
from director.lifecycle import Lifecycle
from director.provider import KINDS, Causing, Group, Provider, When, as_tuple
from director.task import DirectorError, Node, RunReason, RunState
from director.tree import ProviderError
from director.view import TreeView, snapshot

__all__ = ["Director", "ProviderError"]

_OTHER = RunReason.OTHER_TRIGGER
_SUBTASK_DONE = RunReason.SUBTASK_DONE


class Director(Lifecycle):
    """Arbitrates tasks over provider groups; call `update` once per cycle."""

    #: A runaway guard: providers re-triggering each other forever within one update.
    max_runs_per_update = 200_000

    def __init__(self, *, logger: logging.Logger | None = None) -> None:
        super().__init__(logger)
        self._emitters: dict[str, Emitter] = {}
        # Removed emitters whose tasks go at the next update (still shown in the view).
        self._closing: list[Emitter] = []
        self._every_cycle: list[Group] = []
        self._in_update = False

    # ---------------------------------------------------------------- setup

    def register(self, task_type: type, name: str | None = None) -> Group:
        """Declare a task type (its schema) so it may be emitted; idempotent."""
        group = self.groups.get(task_type)
        if group is not None:
            return group
        if not isinstance(task_type, type) or getattr(task_type, "__attrs_attrs__", None) is None:
            raise DirectorError(f"a task type must be an attrs class, got {task_type!r}")
        name = name or task_type.__name__
        self.registered[task_type] = name
        group = Group(task_type, name, len(self.group_list))
        self.groups[task_type] = group
        self.group_list.append(group)
        return group

    def provide(
        self,
        task_type: type,
        fn: Callable[[Any], object] | None = None,
        *,
        kind: str = "provide",
        needs: type | tuple[type, ...] = (),
        when: When | tuple[When, ...] = (),
        causing: Causing | tuple[Causing, ...] = (),
        every_cycle: bool = False,
        name: str | None = None,
    ) -> Any:
        """Register ``fn(ctx)`` as a provider of ``task_type``; without ``fn``, a decorator.

        Providers of one type are tried in the order they were registered. Returns the
        `Provider` handle (the decorator form returns the function unchanged).
        """
        if fn is None:

            def decorate(f: Callable[[Any], object]) -> Callable[[Any], object]:
                self.provide(
                    task_type,
                    f,
                    kind=kind,
                    needs=needs,
                    when=when,
                    causing=causing,
                    every_cycle=every_cycle,
                    name=name,
                )
                return f

            return decorate
        if kind not in KINDS:
            raise DirectorError(f"provider kind must be one of {KINDS}, got {kind!r}")
        if every_cycle and kind != "provide":
            raise DirectorError("only provide providers can run every cycle")
        if not callable(fn):
            raise DirectorError(f"provider for {task_type!r} is not callable: {fn!r}")
        group = self.register(task_type)
        need_types = as_tuple(needs, type)
        for need in need_types:
            if need is task_type:
                raise DirectorError(f"a provider of {group.name} cannot need its own group")
            self.register(need)
        label = name or f"{group.name}.{getattr(fn, '__name__', 'provider')}"
        provider = Provider(
            group,
            fn,
            kind,
            need_types,
            as_tuple(when, When),
            as_tuple(causing, Causing),
            every_cycle,
            label,
        )
        group.add(provider)
        if provider.causing:
            self.pushable = True
        if every_cycle and group not in self._every_cycle:
            self._every_cycle.append(group)
        if self.queued:
            self.inbox.append(("reevaluate",))
        return provider

    def set_enabled(self, provider: Provider, enabled: bool) -> None:
        """Enable or disable a provider; applied (and re-arbitrated) in the next update."""
        self.inbox.append(("enabled", provider, bool(enabled)))

    def set_state(self, key: Any, value: Any) -> None:
        """Set a state that When conditions read; applied in the next update."""
        self.inbox.append(("state", key, value))

    def state(self, key: Any, default: Any = None) -> Any:
        """The applied value of a state."""
        return self.states.get(key, default)

    # ---------------------------------------------------------------- emitters

    def emitter(self, name: str) -> Emitter:
        """A new root emitter (one per behaviour); names are unique among live emitters."""
        if not isinstance(name, str) or not name:
            raise DirectorError("an emitter needs a non-empty name")
        if name in self._emitters:
            raise DirectorError(f"an emitter named {name!r} already exists")
        emitter = Emitter(self, name)
        self._emitters[name] = emitter
        return emitter

    def remove_emitter(self, emitter: Emitter) -> None:
        """Remove an emitter and (in the next update) all its root tasks."""
        if self._emitters.get(emitter.name) is not emitter:
            raise DirectorError(f"emitter {emitter.name!r} does not belong to this Director")
        del self._emitters[emitter.name]
        emitter.closed = True
        self._closing.append(emitter)
        self.inbox.append(("close", emitter))

    # ---------------------------------------------------------------- the cycle

    def update(self, now: float) -> None:
        """Apply one cycle at time ``now`` (see the module docstring for the order)."""
        if self._in_update:
            raise DirectorError("Director.update cannot be called from inside a provider")
        self._in_update = True
        self.now = now
        self.cycle += 1
        self._budget = self.max_runs_per_update
        try:
            self._drain()
            waits = self.waits
            while waits and waits[0][0] <= now:
                _, _, node, epoch = heapq.heappop(waits)
                if node.wait_epoch == epoch and node.granted and not node.dead:
                    self.runs.append((node, _SUBTASK_DONE))
                    self._drain()
            cycle = self.cycle
            for group in self._every_cycle:
                node = group.task
                provider = group.provider
                if (
                    node is not None
                    and provider is not None
                    and provider.every_cycle
                    and node.last_cycle != cycle
                    and not node.placeholder
                ):
                    self.runs.append((node, _OTHER))
                    self._drain()
        finally:
            self._in_update = False

    def _drain(self) -> None:
        runs = self.runs
        inbox = self.inbox
        run = self.run
        popleft = runs.popleft
        # Counted in a local (written back however the step ends): it is touched every run.
        budget = self._budget
        try:
            while True:
                while runs:
                    budget -= 1
                    if budget < 0:
                        for node, _ in runs:
                            node.done_pending = False
                        runs.clear()
                        raise DirectorError(
                            f"more than {self.max_runs_per_update} provider runs in one update: "
                            "providers keep re-triggering each other"
                        )
                    run(*popleft())
                if self.pushable and self.settle_pushes():
                    continue
                if not inbox:
                    return
                self._apply_op(inbox.popleft())
        finally:
            self._budget = budget

    def _apply_op(self, op: tuple[Any, ...]) -> None:
        kind = op[0]
        if kind == "emit":
            self._root_emit(*op[1:])
        elif kind == "remove":
            node = op[1].roots.get(op[2])
            if node is not None:
                self.remove(node)
        elif kind == "close":
            for node in list(op[1].roots.values()):
                self.remove(node)
            self._closing.remove(op[1])
        elif kind == "state":
            self.states[op[1]] = op[2]
            self.reevaluate_all()
        elif kind == "enabled":
            provider: Provider = op[1]
            provider.enabled = op[2]
            self.revision += 1
            group = provider.group
            if not provider.enabled and group.provider is provider and group.task is not None:
                self.regrant(group.task)
            self.reevaluate_all()
        elif kind == "reevaluate":
            self.reevaluate_all()

    def _root_emit(
        self,
        emitter: Emitter,
        task_type: type,
        data: Any,
        priority: float,
        optional: bool,
        name: str,
    ) -> None:
        node = emitter.roots.get(task_type)
        if node is None:
            self.serial += 1
            node = Node(
                self.groups[task_type], data, priority, optional, name, None, emitter, self.serial
            )
            emitter.roots[task_type] = node
            self.revision += 1
            self.evaluate([node])
            return
        node.data = data
        node.name = name
        node.done = False
        node.wait_epoch += 1
        was_running = node.granted
        if node.priority != priority or node.optional != optional:
            node.priority = priority
            node.optional = optional
            self.revision += 1
            self.priority_changed(node)
        # A node that was queued and took its group just now got its run from the grant (with
        # the new data already in place); queuing another would run a stateful provider twice
        # in one update.
        if node.granted and was_running:
            self.runs.append((node, RunReason.NEW_TASK))

    # ---------------------------------------------------------------- queries

    def active(self, task_type: type) -> Any:
        """The task value currently running in the group of ``task_type``, or None."""
        group = self.groups.get(task_type)
        if group is None or group.task is None or group.task.placeholder:
            return None
        return group.task.data

    def run_state(self, emitter: Emitter, task_type: type) -> RunState:
        """Whether an emitter's root task of ``task_type`` is running, queued or absent."""
        node = emitter.roots.get(task_type)
        if node is None or node.dead:
            return RunState.NO_TASK
        return RunState.RUNNING if node.granted else RunState.QUEUED

    def view(self) -> TreeView:
        """A plain-data snapshot of the tree; ``str()`` of it is readable text."""
        return snapshot(self, [*self._emitters.values(), *self._closing])

    def view_if_changed(self, since_revision: int) -> TreeView | None:
        """The view, or None when the tree has not changed since ``since_revision``."""
        if self.revision == since_revision:
            return None
        return self.view()
