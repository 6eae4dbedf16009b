"""Soft transitions: a group changing hands passes its subtasks to the new task.

NUbots keeps a provider group's subtasks when the group's task changes, and the new task's
first pack replaces them; so a Walk handed from one behaviour to another, or a watcher taking
the group of a removed task, never drops the servos below it for a moment. `TreeCore.solve`
asks `can_hand_over` and `claim_inherited` when it claims a held group; `TreeCore.commit`
calls `adopt`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from director.provider import Provider
    from director.task import Node


def can_hand_over(holder: Node, node: Node) -> bool:
    """Whether ``node``, taking ``holder``'s group, may inherit its subtasks.

    Both must be real tasks and the newcomer must have no subtasks of its own; the caller also
    requires the same provider to go on serving the group, and `claim_inherited` that the old
    subtree holds everything that provider Needs. ``beats`` already rules out either being the
    other's ancestor.
    """
    return not (holder.placeholder or node.placeholder or node.children)


def claim_inherited(holder: Node, provider: Provider, claims: dict) -> bool:
    """Claim the groups ``holder``'s subtree holds for ``provider``'s Needs, recursively.

    False when one is missing, not held, or already claimed in this solve (a sibling in the
    same pack wants it): then there is no handover and the newcomer must win its Needs the
    ordinary way, so an inherited tree is always whole and never split by its new siblings.
    """
    for need in provider.needs:
        child = holder.children.get(need)
        if child is None or not child.granted or child.group in claims:
            return False
        below = child.group.provider
        claims[child.group] = (child, below, None)
        if below is not None and below.needs and not claim_inherited(child, below, claims):
            return False
    return True


def adopt(node: Node, holder: Node) -> list[Node]:
    """Move ``holder``'s subtasks under ``node``; revive them if ``holder`` was being removed.

    Returns the revived tasks that were waiting (a dying subtree is no longer queued).
    """
    children = holder.children
    holder.children = {}
    node.children = children
    for child in children.values():
        child.parent = node
    revived: list[Node] = []
    if holder.dead:
        stack = list(children.values())
        while stack:
            current = stack.pop()
            current.dead = False
            if not current.granted:
                revived.append(current)
            if current.children:
                stack.extend(current.children.values())
    return revived
