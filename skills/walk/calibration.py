"""Step calibration: the walk reaches the velocity it is asked for, as measured.

The servos lag and sag, steps end when the swing foot really lands (later than planned), an
early touchdown cuts a step short, and a NAO stepping in place creeps forwards and turns a
little. A step planned for ``v · T`` therefore moves the robot less (in naosim at 0.2 m/s about
60 % of it before calibration), and a sideways walk drifts forwards and turns. rUNSWift
multiplies its sideways and turning steps by fixed factors for the first reason. Here both
corrections are measured: after every step the robot's displacement over the last gait cycle
(two steps, from the leg odometry) is compared with the velocity the steps were planned for.

- An axis that is asked to move (forward, turn) learns a **gain**: the gain moves a share of
  the way towards the one that would have made the measured speed the planned one, within
  ``[GAIN_MIN, GAIN_MAX[axis]]``. A robot that simply cannot go faster stops at the bound instead
  of being asked for ever longer steps.
- The gains belong to one kind of walk: they start again from 1 whenever the set of moving
  axes changes, and a gain applies in full only to a motion along its axis alone; in a
  combined one (forwards and turning) by its axis's share of the motion. A turning gain of
  1.6 learned turning on the spot made the next sideways-and-turning walk's steps too bold:
  over 101 runs of random requests (14 of 1.5 s each, on our NAO and 100 perturbed ones)
  75 stood with gains kept and applied in full, 83 with the share, 89 with the share and the
  fresh start, 91 with no gains at all (which walks 0.26 m/s where 0.35 is asked, not 0.32).
- An axis that is asked to stand still learns a **bias** that cancels its measured drift,
  within ``BIAS_LIMIT``. The drift depends on how the robot walks (sideways steps creep and
  turn differently from forward ones), so the biases start again from zero whenever the set
  of moving axes changes.
- A walk that moves but is asked not to turn **holds its heading**: the odometry heading at
  the first such step is kept (advanced by any turn too slow to count as turning), and the
  heading lost since steers the next steps back (``HEADING_GAIN``, at most ``HEADING_LIMIT``).
  The bias alone cancels a steady drift only after it has turned the robot: perturbed NAOs
  ended 10 m sprints up to 2.9 m to the side and 0.3 rad off; with the hold, within 0.4 m
  and 0.1 rad.
- Sideways steps get no gain. It helped only a little (0.05 m/s asked: 0.029 m/s without,
  0.035 m/s with the gain at 1.5) and made a sideways walk that follows a forward one fall
  after about 8 s (three seeds of three), which it survives without; wider side steps (a
  bound of 2) made the robot slower still (0.018 m/s at 0.1 m/s asked).

Different bodies, floors and servo gains therefore get their own corrections.
"""

from __future__ import annotations

import math
from collections import deque

from skills.walk.odometry import Pose2D

#: Bounds of each axis's gain (forward, left, turn); 1 means "steps as planned". At 1.5 a
#: forward walk fell on two of four perturbed NAOs (``motiond bench walk --perturb``); at 1.3
#: none did. Turning steps fall short more (the feet twist on the floor) and take more.
GAIN_MIN = 0.8
GAIN_MAX = (1.3, 1.3, 1.6)
#: Largest drift correction per axis: m/s, m/s, rad/s. The translation biases only need to
#: cancel a creep of about 1 cm/s; the heading bias may be larger (a perturbed NAO curving at
#: 0.2 m/s forwards needed more than 0.15 rad/s, and still curves at 0.3).
BIAS_LIMIT = (0.015, 0.015, 0.3)
#: Share of the way towards the measured correction taken after each step.
RATE = 0.15
#: Below these speeds (m/s, m/s, rad/s) an axis counts as asked to stand still.
MIN_SPEED = (0.04, 0.03, 0.15)
#: The axes that learn a gain (forward, turn; sideways: see the module docstring).
GAIN_AXES = (0, 2)
#: Heading hold while a walk that moves is asked not to turn: rad/s of turn per rad of heading
#: lost since, within ``HEADING_LIMIT`` rad/s. The drift bias cancels a steady drift but only
#: after it has turned the robot; this takes the heading back.
HEADING_GAIN = 1.0
HEADING_LIMIT = 0.2


class StepCalibration:
    """Per-axis gains and drift biases (forward, left, turn) learned from measured steps."""

    def __init__(self) -> None:
        self.gains = [1.0, 1.0, 1.0]
        self.biases = [0.0, 0.0, 0.0]
        self._moving = (False, False, False)
        self._steps: deque[tuple[Pose2D, float, tuple[float, float, float], float]] = deque(
            maxlen=3
        )
        #: The heading held (odometry, rad) while the walk moves without turning, or None.
        self.heading: float | None = None
        #: The turn (rad/s) steering back to ``heading``, added to the next steps.
        self.heading_turn = 0.0
        self._held_at = 0.0

    def reset(self) -> None:
        """Forget the steps seen and the drift (a new walk starts a new history)."""
        self._steps.clear()
        self.biases = [0.0, 0.0, 0.0]
        self.heading = None
        self.heading_turn = 0.0

    def step_ended(self, pose: Pose2D, now: float, executed: tuple[float, float, float]) -> None:
        """A step ended at ``now`` with the robot at ``pose`` (odometry); ``executed`` is the
        velocity the step was planned for (m/s, m/s, rad/s), before calibration."""
        moving = tuple(abs(v) >= m for v, m in zip(executed, MIN_SPEED, strict=True))
        if moving != self._moving:
            self._moving = moving
            self.gains = [1.0, 1.0, 1.0]
            self.biases = [0.0, 0.0, 0.0]
            self.heading = None
        self._steps.append((pose, now, executed, self.heading_turn))
        self._hold_heading(pose, now, executed[2], moving)
        if len(self._steps) < 3:
            return
        (p0, t0, _, _), (_, _, v1, h1), (p2, t2, v2, h2) = self._steps
        duration = t2 - t0
        if duration <= 0.0:
            return
        moved = p0.inverse().compose(p2)
        measured = (moved.x / duration, moved.y / duration, moved.theta / duration)
        for axis in range(3):
            planned = 0.5 * (v1[axis] + v2[axis])
            if axis == 2:
                planned += 0.5 * (h1 + h2)  # the bias must not learn to undo the heading hold
            if not math.isfinite(measured[axis]):
                continue
            if abs(v1[axis]) < MIN_SPEED[axis] and abs(v2[axis]) < MIN_SPEED[axis]:
                limit = BIAS_LIMIT[axis]
                bias = self.biases[axis] - RATE * (measured[axis] - planned)
                self.biases[axis] = min(limit, max(-limit, bias))
                continue
            if axis not in GAIN_AXES or v1[axis] * v2[axis] <= 0.0:
                continue
            ratio = measured[axis] / planned
            # Wanted gain: the one that would have made the measured speed the planned one.
            wanted = self.gains[axis] / max(ratio, 0.1)
            gain = self.gains[axis] + RATE * (wanted - self.gains[axis])
            self.gains[axis] = min(GAIN_MAX[axis], max(GAIN_MIN, gain))

    def _hold_heading(
        self, pose: Pose2D, now: float, turn: float, moving: tuple[bool, ...]
    ) -> None:
        if moving[2] or not (moving[0] or moving[1]):
            self.heading = None
            self.heading_turn = 0.0
            return
        if self.heading is None:
            self.heading = pose.theta
        else:
            # A turn too slow to count as turning is still asked for: the heading follows it.
            self.heading += turn * (now - self._held_at)
        self._held_at = now
        lost = math.remainder(self.heading - pose.theta, math.tau)
        self.heading_turn = max(-HEADING_LIMIT, min(HEADING_LIMIT, HEADING_GAIN * lost))

    def apply(
        self,
        forward: float,
        left: float,
        turn: float,
        limits: tuple[float, float, float] = (1.0, 1.0, 1.0),
    ) -> tuple[float, float, float]:
        """The velocity to plan a step for, so that ``(forward, left, turn)`` is reached.

        ``limits`` are the gait's (forward or backward, left, turn) that an axis's share of the
        motion is measured against: a gain applies in full when its axis is the whole
        motion, and by that axis's share of the squared shares when combined.
        Standing still stays standing still: the drift biases only steer a moving walk."""
        if forward == 0.0 and left == 0.0 and turn == 0.0:
            return 0.0, 0.0, 0.0
        velocity = (forward, left, turn)
        shares = [(v / top) ** 2 for v, top in zip(velocity, limits, strict=True)]
        total = sum(shares)
        out = []
        for axis, v in enumerate(velocity):
            if abs(v) < MIN_SPEED[axis]:
                out.append(v + self.biases[axis] + (self.heading_turn if axis == 2 else 0.0))
            else:
                out.append(v * (1.0 + (self.gains[axis] - 1.0) * shares[axis] / total))
        return out[0], out[1], out[2]
