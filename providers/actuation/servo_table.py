"""The per-joint commanded state the servo providers write and the runtime reads.

Each of the 25 joints (LoLA order) has one move in force: from ``start`` at ``start_time`` to
``target`` over ``duration`` seconds, linear or minimum-jerk, at one stiffness. A command
starts a new move from wherever the old one is *now*, so a joint re-commanded mid-move carries
on smoothly instead of jumping back to where the old move began.

A joint nobody commands keeps its last target and stiffness: the tree removing a task does not
make the robot go limp or move (the Freeze skill is how a joint goes limp on purpose). At start
every joint is limp (stiffness 0) at the initial position.

A limp joint drives nothing, so :meth:`ServoTable.hold_measured` lets its target follow the
measured angle: when stiffness returns, the joint starts from where it is and does not snap
back to where it went limp.

Nothing is allocated per cycle apart from numpy temporaries of 25 elements: the arrays are
owned by the table, and :meth:`ServoTable.targets` returns read-only views of them.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from lola_io.joints import NUM_JOINTS
from providers.interpolation import INTERPOLATIONS, minimum_jerk_profile, progress


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


class ServoTable:
    """Commanded position and stiffness of the 25 LoLA joints, with one move per joint."""

    def __init__(self, initial_position: ArrayLike) -> None:
        initial = np.array(initial_position, dtype=np.float64)
        if initial.shape != (NUM_JOINTS,):
            raise ValueError(
                f"initial_position: expected {NUM_JOINTS} angles, got shape {initial.shape}"
            )
        if not np.all(np.isfinite(initial)):
            raise ValueError(f"initial_position must be finite, got {initial.tolist()}")
        n = NUM_JOINTS
        self._start = initial.copy()
        self._target = initial.copy()
        self._start_time = np.zeros(n)
        self._duration = np.zeros(n)
        self._linear = np.zeros(n, dtype=bool)
        self._stiffness = np.zeros(n)
        self._position = initial.copy()
        self._out_stiffness = np.zeros(n)
        self._limp = np.empty(n, dtype=bool)
        self.position = _read_only(self._position)
        self.stiffness = _read_only(self._out_stiffness)

    def command(
        self,
        index: int,
        position: float,
        stiffness: float,
        now: float,
        duration: float,
        interpolation: str = "minimum_jerk",
    ) -> None:
        """Move joint ``index`` from its commanded value at ``now`` to ``position``.

        The move takes ``duration`` s (0 jumps; the safety stage still limits the speed) and
        holds ``stiffness`` from now on. Bad arguments raise before anything changes.
        """
        if not 0 <= index < NUM_JOINTS:
            raise IndexError(f"joint index must be in [0, {NUM_JOINTS}), got {index!r}")
        if not math.isfinite(position):
            raise ValueError(f"position of joint {index} must be finite, got {position!r}")
        if not 0.0 <= stiffness <= 1.0:
            raise ValueError(f"stiffness of joint {index} must be in [0, 1], got {stiffness!r}")
        if not (math.isfinite(duration) and duration >= 0.0):
            raise ValueError(f"duration of joint {index} must be >= 0 s, got {duration!r}")
        if interpolation not in INTERPOLATIONS:
            raise ValueError(
                f"unknown interpolation {interpolation!r}; expected one of {INTERPOLATIONS}"
            )
        self.command_checked(index, position, stiffness, now, duration, interpolation)

    def command_checked(
        self,
        index: int,
        position: float,
        stiffness: float,
        now: float,
        duration: float,
        interpolation: str,
    ) -> None:
        """:meth:`command` for values already validated (servo tasks check theirs when they
        are made); the servo providers call this every cycle of a walk."""
        current = self.current(index, now)
        self._start[index] = current
        self._target[index] = position
        self._start_time[index] = now
        self._duration[index] = duration
        self._linear[index] = interpolation == "linear"
        self._stiffness[index] = stiffness

    def current(self, index: int, now: float) -> float:
        """The commanded angle of joint ``index`` at ``now`` (plain float math: one joint)."""
        start_time = float(self._start_time[index])
        duration = float(self._duration[index])
        start = float(self._start[index])
        target = float(self._target[index])
        if now >= start_time + duration:
            return target
        if now <= start_time:
            return start
        s = (now - start_time) / duration
        if not self._linear[index]:
            s = s * s * s * (10.0 + s * (-15.0 + 6.0 * s))
        return start * (1.0 - s) + target * s

    def positions_at(self, now: float) -> np.ndarray:
        """Every joint's commanded angle at ``now`` (25, LoLA order; a new array): where a
        move under way has got to, not where it ends."""
        return self._interpolate(now, np.empty(NUM_JOINTS))

    def _interpolate(self, now: float, out: np.ndarray) -> np.ndarray:
        """Every move evaluated at ``now``, into ``out``."""
        tau = progress(self._start_time, self._duration, now)
        s = np.where(self._linear, tau, minimum_jerk_profile(tau))
        # start·(1 − s) + target·s is exact at both ends (see providers.interpolation).
        np.multiply(self._start, 1.0 - s, out=out)
        out += self._target * s
        return out

    def target(self, index: int) -> float:
        """Where joint ``index``'s current move ends."""
        return float(self._target[index])

    def target_array(self) -> np.ndarray:
        """Where every joint's current move ends (25, LoLA order; a read-only live view)."""
        return _read_only(self._target)

    def hold_measured(self, measured: ArrayLike, mask: np.ndarray | None = None) -> None:
        """Let every limp joint (stiffness 0; only those in ``mask`` if given) rest where it
        is measured: its move becomes "stay at the measured angle". Non-finite measurements
        are ignored (the old target stays)."""
        measured = np.asarray(measured)
        if measured.shape != (NUM_JOINTS,):
            raise ValueError(f"measured: expected {NUM_JOINTS} angles, got {measured.shape}")
        limp = self._limp
        np.equal(self._stiffness, 0.0, out=limp)
        if mask is not None:
            np.logical_and(limp, mask, out=limp)
        if not limp.any():
            return
        np.logical_and(limp, np.isfinite(measured), out=limp)
        np.copyto(self._start, measured, where=limp)
        np.copyto(self._target, measured, where=limp)

    def targets(self, now: float) -> tuple[np.ndarray, np.ndarray]:
        """(position, stiffness) of all 25 joints at ``now``, LoLA order.

        Read-only views of the table's own arrays, valid until the next call.
        """
        self._interpolate(now, self._position)
        np.copyto(self._out_stiffness, self._stiffness)
        return self.position, self.stiffness
