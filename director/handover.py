"""Soft transitions: a group changing hands passes its subtasks to the new task.

NUbots keeps a provider group's subtasks when the group's task changes, and the new task's
first pack replaces them; so a Walk handed from one behaviour to another, or a watcher taking
the group of a removed task, never drops the servos below it for a moment. `TreeCore.solve`
asks `can_hand_over` when it claims a held group; `TreeCore.commit` calls `adopt`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from director.provider import Provider
    from director.task import Node


def can_hand_over(holder: Node, node: Node, provider: Provider) -> bool:
    """Whether ``node``, taking ``holder``'s group, inherits its subtasks.

    Only when the same provider goes on serving the group (``provider`` is the group's current
    one: the caller checks), both are real tasks, the newcomer has no subtasks of its own, and
    the old subtree holds every group the provider Needs, recursively, so the inherited tree is
    whole and nothing in it needs arbitrating. ``beats`` already rules out either being the
    other's ancestor.
    """
    if holder.placeholder or node.placeholder or node.children:
        return False
    return _holds_needs(holder, provider)


def _holds_needs(node: Node, provider: Provider) -> bool:
    """Whether ``node``'s subtree holds every group ``provider`` Needs, all the way down."""
    for need in provider.needs:
        child = node.children.get(need)
        if child is None or not child.granted:
            return False
        below = child.group.provider
        if below is not None and below.needs and not _holds_needs(child, below):
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
