"""The walk's start: from wherever another task left the legs to the walk stand, then a quiet
body before the first step.

``WalkGenerator.begin`` starts one. The soles go from where they are to the stand's over
``start_duration`` along minimum-jerk blends of their poses (``skills.walk.soles.blend_pose``),
so a restart after a script or a kick never jumps. The blend ends with the body still moving
(the servos lag its path: from StandInit the torso pitches forwards at 0.7 rad/s as it ends),
and steps begun then rock it further, so the first step waits until the filtered gyro's pitch
and roll rates are below ``start_quiet_gyro``, at most ``start_quiet_wait`` (docs: "The first
step waits for a quiet body").
"""

from __future__ import annotations

import numpy as np

from skills.walk.params import GaitParameters
from skills.walk.soles import blend_pose


class WalkStart:
    """One start of the walk: the blend to the stand, then the wait for a quiet body."""

    def __init__(self, left_sole: np.ndarray, right_sole: np.ndarray) -> None:
        self._from = (np.array(left_sole, dtype=float), np.array(right_sole, dtype=float))
        self._t = 0.0
        #: Whether the soles have reached the stand.
        self.blended = False
        self._wait = 0.0  # s left to wait for a quiet body

    def soles(
        self, dt: float, stand: tuple[np.ndarray, np.ndarray], gait: GaitParameters
    ) -> tuple[np.ndarray, np.ndarray]:
        """The soles (4x4, torso frame) ``dt`` further along the blend to ``stand``'s; sets
        :attr:`blended` once there."""
        self._t += dt
        s = min(1.0, self._t / gait.start_duration)
        k = s * s * s * (10.0 - 15.0 * s + 6.0 * s * s)  # minimum jerk
        left = blend_pose(self._from[0], stand[0], k)
        right = blend_pose(self._from[1], stand[1], k)
        if s >= 1.0:
            self.blended = True
            self._wait = gait.start_quiet_wait
        return left, right

    def quietening(self, dt: float, gyro: tuple[float, float], gait: GaitParameters) -> bool:
        """Whether the first step waits on (``gyro``: the filtered roll and pitch rates); once
        the body is quiet, or the wait is over, it never waits again."""
        if self._wait <= 0.0:
            return False
        self._wait -= dt
        if max(abs(gyro[0]), abs(gyro[1])) > gait.start_quiet_gyro:
            return True
        self._wait = 0.0
        return False


__all__ = ["WalkStart"]
