"""When a sequence's frame counts as reached: its duration has passed and, with an
:class:`Arrival`, the measured joints have caught up with their targets.

A keyframe's duration is when its targets are *commanded* to be reached; a loaded joint,
a weaker servo or a hot one (stiffness capped) gets there later. A motion whose next keyframe
assumes the last one was reached (a get-up rising from a posture it never fully took) then
starts from the wrong place. With an Arrival, the frame waits after its duration until every
named joint is within ``tolerance`` of its target, or has stopped closing in (its largest
error shrank by less than ``stall`` over the last ``window``: a joint held by the floor or its
own limit will not get closer by waiting), or ``max_wait`` has passed. B-Human's get-up engine
waits for its joints in the same spirit before it goes on.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any

import attrs

from lola_io.joints import JOINT_INDEX


def _joint_names(value: Any) -> tuple[str, ...]:
    names = tuple(value)
    unknown = [n for n in names if n not in JOINT_INDEX]
    if unknown:
        raise ValueError(f"Arrival joints {unknown} are not LoLA joint names")
    if not names:
        raise ValueError("Arrival needs at least one joint")
    return names


def _frame_indices(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return None
    indices = tuple(value)
    if any(isinstance(i, bool) or not isinstance(i, int) or i < 0 for i in indices):
        raise ValueError(f"Arrival.frames must be frame indices >= 0, got {value!r}")
    return indices


def _positive(instance: Any, attribute: attrs.Attribute, value: float) -> None:
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"Arrival.{attribute.name} must be a finite number above 0, got {value!r}")


def _non_negative(instance: Any, attribute: attrs.Attribute, value: float) -> None:
    if not (math.isfinite(value) and value >= 0.0):
        raise ValueError(f"Arrival.{attribute.name} must be a finite number >= 0, got {value!r}")


@attrs.frozen
class Arrival:
    """Wait after each frame (or the ``frames`` listed) for ``joints`` (those the frame moves)
    to be within ``tolerance`` rad of their targets; give up waiting when the largest error
    shrank less than ``stall`` rad over ``window`` s, or after ``max_wait`` s."""

    joints: tuple[str, ...] = attrs.field(converter=_joint_names)
    tolerance: float = attrs.field(default=0.1, converter=float, validator=_positive)
    max_wait: float = attrs.field(default=0.3, converter=float, validator=_non_negative)
    stall: float = attrs.field(default=0.01, converter=float, validator=_non_negative)
    window: float = attrs.field(default=0.024, converter=float, validator=_positive)
    #: Which frames of the sequence wait (indices); None: every frame.
    frames: tuple[int, ...] | None = attrs.field(default=None, converter=_frame_indices)

    def waits_after(self, index: int) -> bool:
        """Whether frame ``index`` of the sequence waits for its joints."""
        return self.frames is None or index in self.frames

    def indices(self, positions: dict[str, float]) -> tuple[list[int], list[float]]:
        """LoLA indices and targets of the frame's joints this arrival watches."""
        names = [n for n in self.joints if n in positions]
        return [JOINT_INDEX[n] for n in names], [positions[n] for n in names]


class ArrivalWait:
    """One frame's wait: made when its duration has passed, then asked ``waiting`` each cycle."""

    __slots__ = ("_arrival", "_errors", "_index", "_since", "_target")

    def __init__(self, arrival: Arrival, positions: dict[str, float], now: float) -> None:
        self._arrival = arrival
        self._index, self._target = arrival.indices(positions)
        self._since = now
        # (time, largest error) over the last window.
        self._errors: deque[tuple[float, float]] = deque()

    def waiting(self, measured: Any, now: float) -> bool:
        """Whether the frame should still wait, given the measured angles (LoLA order)."""
        arrival = self._arrival
        if not self._index or now - self._since >= arrival.max_wait:
            return False
        error = max(
            abs(float(measured[i]) - t) for i, t in zip(self._index, self._target, strict=True)
        )
        if not math.isfinite(error) or error <= arrival.tolerance:
            return False
        errors = self._errors
        errors.append((now, error))
        while errors and now - errors[0][0] > arrival.window + 1e-9:
            errors.popleft()
        # A full window of history that did not close in by `stall`: the joint is stuck.
        span_full = now - self._since >= arrival.window - 1e-9
        return not (span_full and errors[0][1] - error < arrival.stall)
