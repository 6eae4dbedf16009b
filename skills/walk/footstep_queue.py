"""The generator's list of footsteps (NAOqi's footstep list): the steps queued, the one being
made and the last ones made.

The step being made cannot be changed: the generator has planned its ends. A halted walk
drops the rest (it does not resume a list of steps later), as NAOqi drops a killed move's.
"""

from __future__ import annotations

import collections

from skills.walk.footsteps import PlannedStep

#: How many made footsteps are remembered (``FootstepStatus.done``).
DONE_KEPT = 64


class FootstepQueue:
    """Footsteps to make (``queued``), the one being made (``current``, None between
    footsteps) and the last ones made (``done``, oldest first)."""

    def __init__(self) -> None:
        self.queued: collections.deque[PlannedStep] = collections.deque()
        self.current: PlannedStep | None = None
        self.done: collections.deque[PlannedStep] = collections.deque(maxlen=DONE_KEPT)

    @property
    def pending(self) -> bool:
        """Whether a footstep is being made or waits to be."""
        return self.current is not None or bool(self.queued)

    def add(self, steps: list[PlannedStep], *, clear: bool) -> None:
        """Queue ``steps`` after the one being made (replacing the queued ones if ``clear``)."""
        if clear:
            self.queued.clear()
        self.queued.extend(steps)

    def take(self, left: bool) -> PlannedStep | None:
        """The next footstep, made now, if it is the ``left`` (or right) foot's; else None."""
        if not self.queued or self.queued[0].left != left:
            return None
        self.current = self.queued.popleft()
        return self.current

    def finish(self) -> bool:
        """The footstep being made has landed; False if none was being made."""
        if self.current is None:
            return False
        self.done.append(self.current)
        self.current = None
        return True

    def cancel(self) -> None:
        """Forget the queued steps; the one being made goes on."""
        self.queued.clear()

    def drop(self) -> None:
        """Forget the queued steps; the one being made counts as made (its foot is down)."""
        self.cancel()
        self.finish()


__all__ = ["DONE_KEPT", "FootstepQueue"]
