"""Step-size calibration: the walk reaches the speed it is asked for, measured.

The servos lag and sag, steps end when the swing foot really lands (later than planned), and
an early touchdown cuts a step short, so a step planned for ``v · T`` moves the robot less
(in naosim at 0.2 m/s about 60 % of it, before calibration). rUNSWift multiplies its sideways
and turning steps by fixed factors for the same reason. Here the factors are measured: after
every step the robot's displacement over the last gait cycle (two steps), from the leg
odometry, is compared with the executed velocity over the same time, and each axis's gain
moves a share of the way towards the ratio, within bounds. Different bodies, floors and servo
gains therefore get their own factors, and a robot that simply cannot go faster stops at the
upper bound instead of being asked for ever longer steps.
"""

from __future__ import annotations

import math
from collections import deque

from skills.walk.odometry import Pose2D

#: Bounds of each axis's gain; 1 means "steps as planned".
GAIN_MIN, GAIN_MAX = 0.8, 2.0
#: Share of the way towards the measured ratio taken after each step.
RATE = 0.15
#: Below these speeds (m/s, m/s, rad/s) an axis is not measured: the ratio would be noise.
_MIN_SPEED = (0.04, 0.03, 0.15)


class StepCalibration:
    """Per-axis gains (forward, left, turn) learned from the measured steps."""

    def __init__(self) -> None:
        self.gains = [1.0, 1.0, 1.0]
        self._steps: deque[tuple[Pose2D, float, tuple[float, float, float]]] = deque(maxlen=3)

    def reset(self) -> None:
        """Forget the steps seen (after a stop: the next walk starts a new history)."""
        self._steps.clear()

    def step_ended(self, pose: Pose2D, now: float, executed: tuple[float, float, float]) -> None:
        """A step ended at ``now`` with the robot at ``pose`` (odometry); ``executed`` is the
        velocity the step was planned for (m/s, m/s, rad/s)."""
        self._steps.append((pose, now, executed))
        if len(self._steps) < 3:
            return
        (p0, t0, _), (_, _, v1), (p2, t2, v2) = self._steps
        duration = t2 - t0
        if duration <= 0.0:
            return
        moved = p0.inverse().compose(p2)
        measured = (moved.x / duration, moved.y / duration, moved.theta / duration)
        for axis in range(3):
            planned = 0.5 * (v1[axis] + v2[axis])
            if abs(planned) < _MIN_SPEED[axis] or v1[axis] * v2[axis] <= 0.0:
                continue
            ratio = measured[axis] / planned
            if not math.isfinite(ratio):
                continue
            # Wanted gain: the one that would have made the measured speed the planned one.
            wanted = self.gains[axis] / max(ratio, 0.1)
            gain = self.gains[axis] + RATE * (wanted - self.gains[axis])
            self.gains[axis] = min(GAIN_MAX, max(GAIN_MIN, gain))
