"""The live tree as plain data (for tools and `motiond status`) and as readable text."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from director.emitter import Emitter
    from director.task import Node
    from director.tree import TreeCore


@attrs.frozen
class TaskView:
    """One task of the tree, in depth-first order from its root."""

    depth: int
    name: str
    type: str
    priority: float
    optional: bool
    state: str  # "running", "queued" or "reserved" (held for a provider's Needs)
    done: bool
    emitter: str
    provider: str | None
    waits_for: tuple[str, ...]
    #: A group its provider Needs that another task took (it stopped and waits for it).
    lost: str | None = None
    #: The deadline of its pending ``ctx.wait``, if any.
    wait_until: float | None = None


@attrs.frozen
class GroupView:
    """One provider group that is held, awaited or pushed."""

    name: str
    task: str | None
    provider: str | None
    watchers: tuple[str, ...]
    pushed_by: str | None


@attrs.frozen
class TreeView:
    """A snapshot of the Director; ``revision`` tells whether anything structural changed."""

    revision: int
    cycle: int
    now: float
    tasks: tuple[TaskView, ...]
    groups: tuple[GroupView, ...]
    pending_ops: int
    errors: tuple[str, ...]

    def __str__(self) -> str:
        lines = [f"director  revision {self.revision}  cycle {self.cycle}  t={self.now:.3f}"]
        if not self.tasks:
            lines.append("  (no tasks)")
        for task in self.tasks:
            flags = [task.state]
            if task.optional:
                flags.append("optional")
            if task.done:
                flags.append("done")
            text = f"{'  ' * (task.depth + 1)}{task.name}  p={task.priority:g}  {' '.join(flags)}"
            if task.depth == 0:
                text += f"  from {task.emitter}"
            if task.provider:
                text += f"  by {task.provider}"
            if task.waits_for:
                text += f"  waits for {', '.join(task.waits_for)}"
            if task.lost:
                text += f"  (lost {task.lost}, which it Needs)"
            if task.wait_until is not None:
                text += f"  Wait until t={task.wait_until:.3f}"
            lines.append(text)
        pushed = [g for g in self.groups if g.pushed_by]
        for group in pushed:
            lines.append(f"  push: {group.name} runs {group.provider} for {group.pushed_by}")
        if self.pending_ops:
            lines.append(f"  pending: {self.pending_ops} queued call(s) for the next update")
        for error in self.errors:
            lines.append(f"  error: {error}")
        return "\n".join(lines)


def _walk(
    node: Node,
    depth: int,
    emitter: str,
    blocked: dict[int, list[str]],
    waits: dict[int, float],
    out: list,
) -> None:
    if node.dead:
        return
    group = node.group
    if node.granted:
        state = "reserved" if node.placeholder else "running"
        provider = group.provider.name if group.provider is not None else None
    else:
        state = "queued"
        provider = None
    priority = node.priority if node.priority != float("inf") else 0.0
    out.append(
        TaskView(
            depth,
            node.name,
            group.name,
            priority,
            node.optional,
            state,
            node.done,
            emitter,
            provider,
            tuple(blocked.get(id(node), ())),
            node.lost.name if node.lost is not None and not node.granted else None,
            waits.get(id(node)),
        )
    )
    for child in node.children.values():
        _walk(child, depth + 1, emitter, blocked, waits, out)


def snapshot(core: TreeCore, emitters: list[Emitter]) -> TreeView:
    """Build the view of ``core`` with the root tasks of ``emitters``."""
    blocked: dict[int, list[str]] = {}
    groups = []
    for group in core.group_list:
        watchers = [w for w in group.watchers if not w.dead and not w.granted]
        for watcher in watchers:
            if watcher.group is not group:
                blocked.setdefault(id(watcher), []).append(group.name)
        if group.task is None and not watchers and group.pushed_by is None:
            continue
        groups.append(
            GroupView(
                group.name,
                group.task.name if group.task is not None else None,
                group.provider.name if group.provider is not None else None,
                tuple(w.name for w in watchers),
                group.pushed_by.name if group.pushed_by is not None else None,
            )
        )
    waits: dict[int, float] = {}
    for deadline, _, node, epoch in core.waits:
        if node.wait_epoch == epoch and not node.dead:
            waits[id(node)] = min(deadline, waits.get(id(node), deadline))
    tasks: list[TaskView] = []
    for emitter in emitters:
        for root in emitter.roots.values():
            _walk(root, 0, emitter.name, blocked, waits, tasks)
    errors = tuple(
        f"{e.provider_name} on {e.task_name} ({e.reason.value}): {e.message}"
        for e in list(core.errors)[-5:]
    )
    return TreeView(
        core.revision, core.cycle, core.now, tuple(tasks), tuple(groups), len(core.inbox), errors
    )
