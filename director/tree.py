"""The tree mechanics under `Director`: grants, packs, removals, provider runs.

Everything here mutates the tree and is only ever called from `Director._drain`, one step at a
time, so no handler can observe (or corrupt) a half-applied change: handlers only *queue*.

Vocabulary used below:
- *solve*: find, without changing anything, whether a node can hold its group and the groups
  its provider Needs (recursively), writing the tentative grants into ``claims``;
- *commit*: apply a set of claims atomically (every group of a Needs chain at once);
- *offer*: a group freed or weakened; its watchers are tried in priority order;
- *release*: a dying node hands its group to a watcher, or else its stop handler runs;
- *handover*: a claim whose new holder inherits the old holder's subtasks (`can_hand_over`).
"""

from __future__ import annotations

import logging
import math
from collections import deque
from typing import Any

import attrs

from director.arbitration import beats, by_precedence
from director.handover import adopt, can_hand_over, claim_inherited
from director.provider import Group, Provider
from director.pushes import PushRules
from director.task import Node, RunReason

_NEW_TASK = RunReason.NEW_TASK
_STARTED = RunReason.STARTED

#: One emitted subtask before it is applied: (data, priority, optional, name).
Emit = tuple[Any, float, bool, str]
#: Tentative grants of one solve: group → (node, provider chosen for it, the holder whose
#: subtasks it inherits — see `can_hand_over` — or None).
Claims = dict[Group, tuple[Node, Provider | None, Node | None]]


@attrs.frozen
class ProviderError:
    """A provider that raised: recorded, logged, and contained to that provider's subtree."""

    cycle: int
    task_name: str
    provider_name: str
    reason: RunReason
    message: str


class TreeCore(PushRules):
    """State and mechanics of the task tree (see the module docstring)."""

    def __init__(self, logger: logging.Logger | None = None) -> None:
        self.registered: dict[type, str] = {}
        self.groups: dict[type, Group] = {}
        self.group_list: list[Group] = []
        self.inbox: deque[tuple[Any, ...]] = deque()
        self.runs: deque[tuple[Node, RunReason]] = deque()
        self.waits: list[tuple[float, int, Node, int]] = []
        self.states: dict[Any, Any] = {}
        self.queued: dict[Node, None] = {}
        self.pushes: dict[Group, Node] = {}
        #: Some provider has a Causing: pushes are settled after every step (see
        #: `settle_pushes`); a tree without one never pays for it.
        self.pushable = False
        # The newest provider errors only: a provider failing every cycle on a robot must not
        # grow memory without bound. `error_count` keeps the total.
        self.errors: deque[ProviderError] = deque(maxlen=100)
        self.error_count = 0
        self.log = logger or logging.getLogger("director")
        self.now = 0.0
        self.cycle = 0
        self.serial = 0
        self.wait_seq = 0
        #: Counts structural changes (grants, queues, removals, pushes); not data updates.
        self.revision = 0

    # ---------------------------------------------------------------- arbitration

    def _placeholder(self, parent: Node, task_type: type) -> Node:
        self.serial += 1
        group = self.groups[task_type]
        return Node(group, None, math.inf, False, f"{group.name}*", parent, None, self.serial)

    def solve(self, node: Node, claims: Claims, blocked: dict[Group, None], pushes: list) -> bool:
        """Can ``node`` hold its group and its provider's Needs? Tentative grants go to claims."""
        group = node.group
        claim = claims.get(group)
        if claim is not None:
            if claim[0] is node:
                return True
            blocked[group] = None
            return False
        holder = group.task
        if holder is not None and holder is not node and not beats(node, holder):
            blocked[group] = None
            return False
        if not group.providers:
            # A group without providers can still be held as a token for someone's Needs.
            claims[group] = (node, None, None)
            return True
        pusher = group.pushed_by
        candidates = (
            (group.push_provider,) if pusher is not None and holder is node else group.providers
        )
        for provider in candidates:
            if not provider.enabled or (
                provider.when and not self._when_ok(provider, node, pushes)
            ):
                continue
            mark = len(claims)
            handover = (
                holder
                if holder is not None
                and holder is not node
                and provider is group.provider
                and can_hand_over(holder, node)
                else None
            )
            claims[group] = (node, provider, handover)
            if handover is not None:
                # The subtasks come along and hold every group the provider Needs; claimed
                # all the same, so another task of this solve cannot take one of them.
                if claim_inherited(handover, provider, claims):
                    return True
                for key in list(claims)[mark:]:
                    del claims[key]
                claims[group] = (node, provider, None)
            ok = True
            for need in provider.needs:
                child = node.children.get(need)
                if child is None or child.dead:
                    child = self._placeholder(node, need)
                if not self.solve(child, claims, blocked, pushes):
                    ok = False
                    break
            if ok:
                return True
            for key in list(claims)[mark:]:
                del claims[key]
        blocked[group] = None
        return False

    def commit(self, claims: Claims) -> None:
        """Apply tentative grants at once; displaced tasks wait, their subtrees stop.

        A displaced task's subtasks stop, unless the claim is a *handover* (see `can_hand_over`):
        then they pass to the new holder, whose first run replaces them.
        """
        self.revision += 1
        displaced: list[Node] = []
        stops: list[tuple[Group, Node]] = []
        handed: list[tuple[Node, Node, list[Node]]] = []
        contested: list[Group] = []
        runs = self.runs
        for group, (node, provider, handover) in claims.items():
            parent = node.parent
            if (
                node.placeholder
                and parent is not None
                and parent.children.get(node.type) is not node
            ):
                parent.children[node.type] = node
            old = group.task
            if old is node:
                if group.provider is not provider:
                    group.provider = provider
                    if not node.placeholder:
                        runs.append((node, _NEW_TASK))
                continue
            group.task = node
            group.provider = provider
            node.granted = True
            node.lost = None
            self.queued.pop(node, None)
            if old is not None:
                old.granted = False
                displaced.append(old)
                if handover is old:
                    # Its settling re-offers the group too, when anyone is waiting.
                    handed.append((node, old, adopt(node, old)))
                else:
                    if old.dead and group.watchers:
                        # Anyone beat a dying holder; a waiting task may beat the new one too.
                        contested.append(group)
                    if node.placeholder and not old.placeholder:
                        stops.append((group, old))
            if not node.placeholder:
                runs.append((node, _STARTED if old is None or old.placeholder else _NEW_TASK))
        losers: list[tuple[Node, Group]] = []
        for old in displaced:
            if not old.dead:
                self.enqueue(old, {old.group: None})
                self.drop_children(old)
                loser = self._loses_needs(old)
                if loser is not None:
                    losers.append((loser, old.group))
        for group, old in stops:
            self.run_handlers(group.stops, old, RunReason.STOPPED)
        for node, old, revived in handed:
            self._settle_handover(node, old, revived)
        for group in contested:
            self.offer(group)
        for loser, lost in losers:
            if not loser.dead and loser.granted:
                self.revoke(loser, lost)

    @staticmethod
    def _loses_needs(old: Node) -> Node | None:
        """The task that can no longer run because ``old`` lost its group (NUbots' Needs).

        ``old``'s parent Needs it; if that parent is itself a needed subtask, its own parent
        loses too, and so on up: the highest such ancestor is returned (its whole subtree
        stops). None when ``old`` is not needed, or the group went to a task of the same family
        (the loser would be one of the new holder's own ancestors).
        """
        if old.parent is None:
            return None
        holder = old.group.task
        family = set(map(id, holder.chain())) if holder is not None else set()
        loser = None
        node = old
        while node.parent is not None:
            parent = node.parent
            provider = parent.group.provider
            if (
                parent.dead
                or not parent.granted
                or provider is None
                or node.type not in provider.needs
                or id(parent) in family
            ):
                break
            loser = node = parent
        return loser

    def _settle_handover(self, node: Node, old: Node, revived: list[Node]) -> None:
        """Re-arbitrate an inherited subtree: it now competes with its new holder's priority.

        Only a waiting task can gain from that, so with nobody waiting (the usual takeover:
        the old holder alone queues) there is nothing to do.
        """
        if not revived and not any(waiting is not old for waiting in self.queued):
            return
        for waiting in revived:
            # Revived from a dying subtree: no longer queued anywhere, so not lost either.
            self.enqueue(waiting, {})
        self.priority_changed(node)

    def enqueue(self, node: Node, blocked: dict[Group, None]) -> None:
        """Mark a node as waiting and watch the groups that blocked it."""
        if node not in self.queued:
            self.queued[node] = None
            self.revision += 1
        for group in blocked:
            group.watch(node)
        node.group.watch(node)

    def evaluate(self, nodes: list[Node]) -> None:
        """Arbitrate waiting nodes of one pack: required together, then optional one by one."""
        required = []
        optional = []
        for node in nodes:
            if node.granted or node.dead:
                continue
            if not node.group.providers and node.placeholder is False:
                # No provider: it waits for one and blocks nothing (NUbots 1141).
                self.enqueue(node, {})
            elif node.optional:
                optional.append(node)
            else:
                required.append(node)
        pushes: list = []
        if required:
            claims: Claims = {}
            blocked: dict[Group, None] = {}
            ok = True
            for node in required:
                ok = self.solve(node, claims, blocked, pushes) and ok
            if ok:
                self.commit(claims)
            else:
                for node in required:
                    self.enqueue(node, blocked)
        for node in optional:
            claims = {}
            blocked = {}
            if self.solve(node, claims, blocked, pushes):
                self.commit(claims)
            else:
                self.enqueue(node, blocked)
        if pushes:
            self._apply_pushes(pushes)

    def evaluate_pack_of(self, node: Node) -> None:
        """Re-arbitrate the waiting part of the pack ``node`` belongs to."""
        if node.parent is None:
            self.evaluate([node])
        else:
            self.evaluate([c for c in node.parent.children.values() if not c.granted])

    def offer(self, group: Group) -> None:
        """The group freed or weakened: try its watchers in priority order until one takes it."""
        watchers = [w for w in group.watchers if not w.dead and not w.granted]
        group.watchers = watchers
        if not watchers:
            return
        if len(watchers) > 1:
            watchers = sorted(watchers, key=by_precedence)
        holder = group.task
        for watcher in watchers:
            if watcher.granted or watcher.dead:
                continue
            self.evaluate_pack_of(watcher)
            if group.task is not holder:
                return

    def reevaluate_all(self) -> None:
        """Try every waiting node again, in priority order (after a state or provider change)."""
        for node in sorted(self.queued, key=by_precedence):
            if not node.granted and not node.dead:
                self.evaluate_pack_of(node)

    def regrant(self, node: Node) -> None:
        """Choose the provider of a running node again (push released, provider disabled)."""
        claims: Claims = {}
        blocked: dict[Group, None] = {}
        pushes: list = []
        if self.solve(node, claims, blocked, pushes):
            self.commit(claims)
        else:
            self.release(node)
            self.enqueue(node, blocked)
        if pushes:
            self._apply_pushes(pushes)

    # Implemented by `director.lifecycle.Lifecycle`, which the Director builds on.
    def priority_changed(self, node: Node) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def release(self, node: Node) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def revoke(self, node: Node, lost: Group) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def drop_children(self, node: Node) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def run_handlers(self, handlers: list[Provider], node: Node, reason: RunReason) -> None:
        raise NotImplementedError  # pragma: no cover - overridden
