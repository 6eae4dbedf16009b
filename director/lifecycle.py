"""Removal, packs and provider runs: how the tree changes over a task's life.

Built on `director.tree.TreeCore` (which decides *who* may hold a group); this module applies
what providers answer and what removals imply, in the order director.md describes.
"""

from __future__ import annotations

import heapq
import math

from director.flow import Context
from director.provider import Group, Provider
from director.task import Node, RunReason
from director.tree import Emit, ProviderError, TreeCore, by_precedence

_NEW_TASK = RunReason.NEW_TASK
_STARTED = RunReason.STARTED
_SUBTASK_DONE = RunReason.SUBTASK_DONE


class Lifecycle(TreeCore):
    """Removal, pack application and provider runs over the arbitration core."""

    # ---------------------------------------------------------------- removal

    def remove(self, node: Node) -> None:
        """Remove a task and its subtree: watchers take over first, then stop handlers run."""
        if node.dead:
            return
        self.revision += 1
        self._mark_dead(node)
        slots = node.emitter.roots if node.parent is None else node.parent.children
        if slots.get(node.type) is node:
            del slots[node.type]
        self.release(node)
        if self.pushes:
            self._release_pushes()

    def _mark_dead(self, node: Node) -> None:
        """Mark a subtree dying (so it loses every arbitration) and no longer waiting."""
        unqueue = self.queued.pop
        stack = [node]
        pop = stack.pop
        extend = stack.extend
        while stack:
            dying = pop()
            dying.dead = True
            unqueue(dying, None)
            if dying.children:
                extend(dying.children.values())

    def release(self, node: Node) -> None:
        """Hand a node's group to a watcher or stop it; then the same for its children."""
        if not node.dead:
            self._release_live(node)
            return
        # A dying subtree is walked without recursion, in the same pre-order as the live case:
        # a big takeover releases every node of the old tree here.
        stack = [node]
        pop = stack.pop
        while stack:
            node = pop()
            if not node.dead:
                self._release_live(node)
                continue
            if node.granted:
                if node.group.watchers:
                    self.offer(node.group)
                self._go_idle(node)
            children = node.children
            if children:
                stack.extend(reversed(children.values()))
                children.clear()

    def _release_live(self, node: Node) -> None:
        """Release one living node; its subtasks are removed (they die), not just released."""
        if node.granted:
            group = node.group
            if node.dead:
                self.offer(group)
            if self._go_idle(node) and not node.dead:
                self.offer(group)
        children = list(node.children.values())
        if node.dead:
            node.children.clear()
        for child in children:
            if node.dead:
                self.release(child)
            else:
                self.remove(child)

    def revoke(self, node: Node, lost: Group) -> None:
        """``node`` lost ``lost``, a group its provider Needs: NUbots' rule. Its subtree stops,
        it gives its own group up (its stop runs, a watcher may take it) and waits for ``lost``,
        to start afresh (STARTED) once it can hold all its Needs again, or at once with another
        of its group's providers that does not need ``lost``. Its new holder took ``lost`` by
        beating it and keeps it on a tie, so this cannot take it back in the same update."""
        self.revision += 1
        self.drop_children(node)
        group = node.group
        if self._go_idle(node):
            self.offer(group)
        node.lost = lost
        self.enqueue(node, {lost: None})
        if not node.granted:
            self.evaluate_pack_of(node)

    def _go_idle(self, node: Node) -> bool:
        """If ``node`` still holds its group, the group goes idle: its stop runs. True if so."""
        group = node.group
        if group.task is not node:
            return False
        node.granted = False
        group.task = None
        group.provider = None
        if not node.placeholder and group.stops:
            self.run_handlers(group.stops, node, RunReason.STOPPED)
        return True

    def drop_children(self, node: Node) -> None:
        """Remove every subtask of a node (its subtree stops)."""
        for child in list(node.children.values()):
            self.remove(child)

    # ---------------------------------------------------------------- packs and runs

    def apply_pack(self, owner: Node, emits: dict[type, Emit]) -> None:
        """Apply the subtasks a provider emitted; the fast path skips arbitration."""
        if owner.dead or not owner.granted:
            return
        provider = owner.group.provider
        if provider is not None and provider.needs:
            # A subtask the provider Needs is required whatever it was emitted as: the
            # provider cannot run without it, and an optional one would let any weaker task
            # take it and revoke the provider, which takes it back, every cycle.
            for task_type in provider.needs:
                emit = emits.get(task_type)
                if emit is not None and emit[2]:
                    emits[task_type] = (emit[0], emit[1], False, emit[3])
        children = owner.children
        if len(emits) == len(children):
            for task_type, (_, priority, optional, _) in emits.items():
                child = children.get(task_type)
                if (
                    child is None
                    or not child.granted
                    or child.placeholder
                    or child.priority != priority
                    or child.optional != optional
                ):
                    break
            else:
                runs = self.runs
                for task_type, (data, _, _, name) in emits.items():
                    child = children[task_type]
                    child.data = data
                    child.name = name
                    child.done = False
                    child.wait_epoch += 1
                    runs.append((child, _NEW_TASK))
                return
        self._apply_pack_slow(owner, emits)

    def _apply_pack_slow(self, owner: Node, emits: dict[type, Emit]) -> None:
        children = owner.children
        provider = owner.group.provider
        needs = provider.needs if provider is not None else ()
        removed: list[Node] = []
        vacated: list[Node] = []
        for task_type, child in list(children.items()):
            if task_type in emits or (child.placeholder and task_type in needs):
                continue
            if task_type in needs:
                vacated.append(child)
                continue
            # Dying before the new pack is arbitrated, so the pack can take its groups over.
            removed.append(child)
            self._mark_dead(child)
            del children[task_type]
        changed: list[Node] = []
        groups = self.groups
        for task_type, (data, priority, optional, name) in emits.items():
            child = children.get(task_type)
            if child is None:
                self.serial += 1
                children[task_type] = Node(
                    groups[task_type], data, priority, optional, name, owner, None, self.serial
                )
                continue
            was_placeholder = child.placeholder
            if child.priority != priority or child.optional != optional:
                child.priority = priority
                child.optional = optional
                changed.append(child)
            child.data = data
            child.name = name
            child.done = False
            child.wait_epoch += 1
            child.placeholder = False
            if child.granted:
                self.runs.append((child, _STARTED if was_placeholder else _NEW_TASK))
        self.evaluate([c for c in children.values() if not c.granted])
        for child in changed:
            self.priority_changed(child)
        for child in removed:
            self.release(child)
        for child in vacated:
            self._vacate(child)
        if any(not child.granted for child in vacated):
            # A waiting need turned placeholder is now required and outranks optional tasks:
            # its pack is tried again with it (it may take its group back from one).
            self.evaluate_pack_of(vacated[0])
        if self.pushes:
            self._release_pushes()

    def _vacate(self, child: Node) -> None:
        """A needed subtask was not re-emitted: its task ends, the group stays reserved."""
        self.drop_children(child)
        if child.granted and not child.placeholder:
            self.run_handlers(child.group.stops, child, RunReason.STOPPED)
        child.data = None
        child.wait_epoch += 1
        child.name = f"{child.group.name}*"
        child.placeholder = True
        child.priority = math.inf
        child.optional = False
        child.done = False

    def priority_changed(self, node: Node) -> None:
        """A node's priority or optional flag changed: re-arbitrate what it holds and awaits."""
        if not node.granted:
            self.evaluate_pack_of(node)
            return
        held: list[Group] = []
        waiting: list[Node] = []
        stack = [node]
        while stack:
            current = stack.pop()
            if current.granted:
                held.append(current.group)
            elif not current.dead:
                waiting.append(current)
            stack.extend(current.children.values())
        for group in held:
            self.offer(group)
        for current in sorted(waiting, key=by_precedence):
            if not current.granted and not current.dead:
                self.evaluate_pack_of(current)

    def run(self, node: Node, reason: RunReason) -> None:
        """Run the provider of a granted node and apply its answer."""
        if reason is _SUBTASK_DONE:
            # From here on a subtask that finishes needs a run of its own again.
            node.done_pending = False
        if node.dead or not node.granted or node.placeholder:
            return
        group = node.group
        if reason is _STARTED:
            if group.starts:
                self.run_handlers(group.starts, node, _STARTED)
                if node.dead or not node.granted:
                    return
            reason = _NEW_TASK
        provider = group.provider
        if provider is None:
            return
        node.runs += 1
        node.last_cycle = self.cycle
        ctx = node.context
        if ctx is None:
            ctx = node.context = Context(self, node, reason, "provide")  # type: ignore[arg-type]
        else:
            # A node's runs never overlap (runs are queued), so its context is reused: every
            # provider run passes here, and a big takeover runs a thousand of them.
            ctx.reopen(reason, self.now)
        try:
            provider.fn(ctx)
        except Exception as exc:
            ctx._open = False
            self._contain(node, provider, reason, exc)
            self.drop_children(node)
            return
        ctx._open = False
        emits = ctx._emits
        keeps = ctx._continue or ctx._done
        if emits or (node.children and not (keeps or ctx._wait is not None)):
            self.apply_pack(node, emits or {})
        if emits or ctx._wait is not None or not keeps:
            # NUbots' Wait is a subtask: Continue keeps it, a fresh pack or a new Wait does not.
            node.wait_epoch += 1
        if ctx._wait is not None:
            self.wait_seq += 1
            heapq.heappush(self.waits, (ctx._wait, self.wait_seq, node, node.wait_epoch))
        if ctx._done and not node.done:
            node.done = True
            parent = node.parent
            if parent is None:
                self.remove(node)
            elif not parent.done_pending:
                # One SUBTASK_DONE run tells a parent about every subtask finished before it
                # runs (it asks them with uses): a group of 11 servos done at once used to run
                # 11 times and ask 11 questions each time, every cycle of a walk.
                parent.done_pending = True
                self.runs.append((parent, _SUBTASK_DONE))

    def run_handlers(self, handlers: list[Provider], node: Node, reason: RunReason) -> None:
        """Run the first enabled start or stop handler whose When holds."""
        for handler in handlers:
            if handler.enabled and (not handler.when or handler.when_holds(self.states)):
                ctx = Context(self, node, reason, handler.kind)  # type: ignore[arg-type]
                try:
                    handler.fn(ctx)
                except Exception as exc:
                    self._contain(node, handler, reason, exc)
                ctx._open = False
                return

    def _contain(self, node: Node, provider: Provider, reason: RunReason, exc: Exception) -> None:
        self.revision += 1
        self.error_count += 1
        self.errors.append(ProviderError(self.cycle, node.name, provider.name, reason, f"{exc!r}"))
        self.log.error(
            "provider %s failed on task %s (%s); its subtree is stopped",
            provider.name,
            node.name,
            reason.value,
            exc_info=exc,
        )
