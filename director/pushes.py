"""Pushes (director.md, When/Causing): who may push which running group, and for how long.

A provider whose When is unmet leaves its task waiting and may *push* a running group that
has a provider Causing the state it waits for; the group runs that provider while the push
lasts. `TreeCore` arbitrates with these rules (`_when_ok` inside its solve); they are kept
here because they are one policy with one set of invariants: a push belongs to the strongest
waiting task that wants it and outranks the group's own task.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from director.arbitration import beats, by_precedence
from director.provider import Group, Provider, When
from director.task import Node, RunReason

if TYPE_CHECKING:
    from collections import deque

_MISSING = object()


class PushRules:
    """The push half of the arbitration core (`director.tree.TreeCore` inherits it)."""

    states: dict[Any, Any]
    group_list: list[Group]
    pushes: dict[Group, Node]
    queued: dict[Node, None]
    runs: deque[tuple[Node, RunReason]]
    revision: int

    def regrant(self, node: Node) -> None:  # pragma: no cover - TreeCore's
        raise NotImplementedError

    def _when_ok(self, provider: Provider, node: Node, pushes: list) -> bool:
        """Check When conditions; for an unmet one, look for a group to push (side list)."""
        ok = True
        for cond in provider.when:
            if cond.holds(self.states.get(cond.state, _MISSING)):
                continue
            ok = False
            self._find_pusher(cond, node, pushes)
        return ok

    def _find_pusher(self, cond: When, node: Node, pushes: list) -> None:
        for group in self.group_list:
            holder = group.task
            if group is node.group or holder is None or holder.placeholder or holder.dead:
                continue
            pusher = next((p for p in group.providers if p.enabled and p.causes(cond)), None)
            if pusher is None:
                continue
            current = group.pushed_by
            if current is node or (
                beats(node, holder) and (current is None or beats(node, current))
            ):
                pushes.append((group, pusher, node))
                return

    def _apply_pushes(self, pushes: list) -> bool:
        """Apply found pushes (strongest first); a weaker task never takes a push over."""
        changed = False
        for group, provider, pusher in pushes:
            holder = group.task
            if pusher.dead or holder is None or holder.placeholder:
                continue
            current = group.pushed_by
            if current is pusher and group.provider is provider:
                continue
            if pusher.granted and current is not pusher:
                # It found a provider whose When holds after all: only a waiting task pushes.
                continue
            if current is not None and current is not pusher and not beats(pusher, current):
                continue
            group.pushed_by = pusher
            group.push_provider = provider
            self.pushes[group] = pusher
            self.revision += 1
            changed = True
            if group.provider is not provider:
                group.provider = provider
                self.runs.append((holder, RunReason.PUSHED))
        return changed

    def settle_pushes(self) -> bool:
        """Keep every push with the strongest waiting task that wants it (director.md).

        Stale pushes are released (`_release_pushes`); a waiting task that wants a push it
        could now take (a holder appeared after it was tried, or it outranks the pusher) takes
        it. True if anything changed. Run after each step, only when some provider has a
        Causing.
        """
        changed = self._release_pushes()
        return self._apply_pushes(self._wanted_pushes()) or changed

    def _wanted_pushes(self) -> list:
        """Every push a waiting task would take now, strongest task first."""
        pushes: list = []
        for node in sorted(self.queued, key=by_precedence):
            if node.dead or node.granted:
                continue
            for provider in node.group.providers:
                if provider.enabled and provider.when:
                    self._when_ok(provider, node, pushes)
        return pushes

    def _release_pushes(self) -> bool:
        """End the pushes whose pusher is gone, whose group went idle, or whose pusher no longer
        outranks the group's task; each passes on (`_pass_push`) or the group re-chooses its
        provider. True if any ended."""
        changed = False
        for group, pusher in list(self.pushes.items()):
            holder = group.task
            live = holder is not None and not holder.dead and not holder.placeholder
            if not pusher.dead and live and beats(pusher, holder):
                continue
            del self.pushes[group]
            group.pushed_by = None
            group.push_provider = None
            self.revision += 1
            changed = True
            if live and not self._pass_push(group):
                self.regrant(holder)
        return changed

    def _pass_push(self, group: Group) -> bool:
        """Hand a released push to the strongest waiting task that still wants it (NUbots'
        push_displace): a task blocked on the same When must not wait forever because a
        stronger pusher went away. False when nobody that outranks the holder wants it."""
        wanted = [push for push in self._wanted_pushes() if push[0] is group]
        self._apply_pushes(wanted[:1])
        return bool(wanted)
