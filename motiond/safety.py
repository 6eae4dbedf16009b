"""The safety stage between the providers and LoLA (rUNSWift's ClippedGenerator).

Whatever the providers ask for, the frame sent to the robot has every position within its
joint's limits, every position within ``velocity × period`` of the position sent the cycle
before, every value finite, and every stiffness in [0, 1]. A non-finite request (NaN, ±inf)
does not move the joint: the last safe value is sent again and the fault is counted per joint,
so a bug upstream shows up in the counters instead of at the motors.

The order matters. Non-finite values are replaced first (so NaN cannot poison a clamp), then
positions are clamped into the limits, then the per-cycle step is limited relative to the last
position *sent*, not to the measured one: the stage bounds what it commands, and a joint that
lags its target does not make the next target jump. The one exception is a limp joint (safe
stiffness 0): its target drives nothing, so when the measured angles are passed in, a limp
joint's last target follows the joint and it stiffens again from where it is.

LoLA has one LHipYawPitch motor and no RHipYawPitch, so nothing here couples the hips.

Nothing is allocated per cycle: the stage writes into arrays it owns and returns read-only
views of them, valid until the next :meth:`SafetyStage.apply` or :meth:`SafetyStage.reset`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from lola_io.joints import NUM_JOINTS
from providers.model import NaoModel, load_nao_model

#: LoLA's cycle, s.
LOLA_PERIOD = 0.012

# The per-cycle step is shrunk by this relative margin so that rounding in `last + step` can
# never produce a frame a hair faster than the joint's velocity limit.
_STEP_MARGIN = 1e-9


def _checked(values: ArrayLike, name: str) -> np.ndarray:
    array = np.asarray(values)
    if array.shape != (NUM_JOINTS,):
        raise ValueError(f"{name}: expected {NUM_JOINTS} values, got shape {array.shape}")
    # Floats and (unsigned) integers; np.issubdtype would say the same, ten times slower.
    if array.dtype.kind not in "fiu":
        raise TypeError(f"{name}: expected numbers, got dtype {array.dtype}")
    return array


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


class SafetyStage:
    """Turns requested (position, stiffness) arrays in LoLA order into safe ones.

    Call :meth:`reset` with the measured joint positions before the first :meth:`apply` (the
    first safe target is where the joints are, limp). Counters are per-joint int64 arrays:

    - ``nonfinite_position`` / ``nonfinite_stiffness``: requests that were NaN or ±inf and were
      replaced by the last safe value (``reset`` counts non-finite measurements too);
    - ``limit_clamped``: positions requested outside the joint's limits;
    - ``velocity_limited``: positions that would have moved faster than the joint can;
    - ``stiffness_clamped``: finite stiffnesses outside [0, 1].
    """

    def __init__(self, model: NaoModel | None = None, period: float = LOLA_PERIOD) -> None:
        if not (np.isfinite(period) and period > 0.0):
            raise ValueError(f"period must be a finite number of seconds above 0, got {period!r}")
        self.model = model if model is not None else load_nao_model()
        self.period = float(period)
        n = NUM_JOINTS
        # Positions and stiffnesses are processed as one 50-long array, [position | stiffness]:
        # the same few numpy calls do both halves, and every name below is a view into it.
        self._hard_low = np.concatenate([self.model.lower, np.zeros(n)])
        self._hard_high = np.concatenate([self.model.upper, np.ones(n)])
        self._step = self.model.velocity * self.period * (1.0 - _STEP_MARGIN)
        self._state = np.zeros(2 * n)
        self._request = np.empty(2 * n)
        self._low = np.zeros(2 * n)
        self._high = np.ones(2 * n)
        self._measured = np.empty(n)
        self._limp = np.empty(n, dtype=bool)
        self._finite_measured = np.empty(n, dtype=bool)
        self._mask = np.empty(2 * n, dtype=bool)
        self._mask_position = self._mask[:n]
        self._position, self._stiffness = self._state[:n], self._state[n:]
        self._request_position, self._request_stiffness = self._request[:n], self._request[n:]
        self._low_position, self._high_position = self._low[:n], self._high[:n]
        self.position = _read_only(self._position)
        self.stiffness = _read_only(self._stiffness)

        self._nonfinite = np.zeros(2 * n, dtype=np.int64)
        self._clamped = np.zeros(2 * n, dtype=np.int64)
        self.nonfinite_position, self.nonfinite_stiffness = self._nonfinite[:n], self._nonfinite[n:]
        self.limit_clamped, self.stiffness_clamped = self._clamped[:n], self._clamped[n:]
        self.velocity_limited = np.zeros(n, dtype=np.int64)
        self.is_reset = False

    def reset(self, measured_position: ArrayLike) -> None:
        """Start from the measured joint positions, limp (stiffness 0).

        A measurement outside the limits is clamped into them; a non-finite one becomes 0
        clamped into the limits and is counted in ``nonfinite_position``.
        """
        measured = _checked(measured_position, "measured_position")
        request, bad = self._request_position, self._mask_position
        np.copyto(request, measured, casting="unsafe")
        np.isfinite(request, out=bad)
        np.logical_not(bad, out=bad)
        self.nonfinite_position += bad
        request[bad] = 0.0
        n = NUM_JOINTS
        np.clip(request, self._hard_low[:n], self._hard_high[:n], out=self._position)
        self._stiffness.fill(0.0)
        self.is_reset = True

    def apply(
        self,
        position: ArrayLike,
        stiffness: ArrayLike,
        measured: ArrayLike | None = None,
        stiffness_cap: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The safe (position, stiffness) for the requested ones; all 25-long, LoLA order.

        With ``measured`` (the joints' measured angles), a joint that was limp in the last
        frame (safe stiffness 0) first moves its last target to where it measurably is: a limp
        joint drifts, and stiffening it again must start from there, not snap back to where it
        went limp. Its next target is then within one step of the measured angle instead of
        the last one sent. Non-finite measurements are ignored (the last target stays).

        With ``stiffness_cap`` (25 values in [0, 1]), no joint's stiffness exceeds its cap (the
        heat protection: a hot joint is capped whoever commands it).

        Returns read-only views of the stage's own arrays (copy them to keep them).
        """
        if not self.is_reset:
            raise RuntimeError("SafetyStage.apply before reset(measured_position)")
        # Everything is checked before anything is used, so a bad call changes nothing.
        position = _checked(position, "position")
        stiffness = _checked(stiffness, "stiffness")
        if measured is not None:
            self._follow_limp_joints(_checked(measured, "measured"))
        request, mask = self._request, self._mask
        np.copyto(self._request_position, position, casting="unsafe")
        np.copyto(self._request_stiffness, stiffness, casting="unsafe")

        # count_nonzero is the cheapest test of a whole mask; the counting and replacing
        # below run only on cycles where something is actually wrong.
        np.isfinite(request, out=mask)
        if np.count_nonzero(mask) != mask.size:
            np.logical_not(mask, out=mask)
            self._nonfinite += mask
            np.copyto(request, self._state, where=mask)

        # Joint limits and the stiffness range.
        self._count(np.less(request, self._hard_low, out=mask), self._clamped)
        self._count(np.greater(request, self._hard_high, out=mask), self._clamped)
        np.maximum(request, self._hard_low, out=request)
        np.minimum(request, self._hard_high, out=request)

        # The window the joints can reach this cycle. It lies within the limits because the
        # last target does, so clipping a value within the limits into it stays within them.
        # The stiffness half of the window is [0, 1] and never changes.
        np.subtract(self._position, self._step, out=self._low_position)
        np.add(self._position, self._step, out=self._high_position)
        bad = self._mask_position
        self._count(
            np.less(self._request_position, self._low_position, out=bad), self.velocity_limited
        )
        self._count(
            np.greater(self._request_position, self._high_position, out=bad), self.velocity_limited
        )
        np.maximum(request, self._low, out=request)
        np.minimum(request, self._high, out=self._state)
        if stiffness_cap is not None:
            np.minimum(self._stiffness, stiffness_cap, out=self._stiffness)
        return self.position, self.stiffness

    def _follow_limp_joints(self, measured: np.ndarray) -> None:
        angles, limp = self._measured, self._limp
        np.copyto(angles, measured, casting="unsafe")
        np.equal(self._stiffness, 0.0, out=limp)
        if not np.count_nonzero(limp):
            return
        np.logical_and(limp, np.isfinite(angles, out=self._finite_measured), out=limp)
        n = NUM_JOINTS
        np.maximum(angles, self._hard_low[:n], out=angles)
        np.minimum(angles, self._hard_high[:n], out=angles)
        np.copyto(self._position, angles, where=limp)

    @staticmethod
    def _count(mask: np.ndarray, counter: np.ndarray) -> None:
        if np.count_nonzero(mask):
            counter += mask

    @property
    def fault_count(self) -> int:
        """Non-finite requests replaced so far, all joints, positions and stiffnesses."""
        return int(self._nonfinite.sum())
