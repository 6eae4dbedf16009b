"""Planning a kick without stalling the cycle: the foot chosen, the plan made a few leg
solutions at a time.

A kick's plan (the wind-up that keeps the knee bent, the shift over the support foot, the
reach checks) takes 20-40 leg solutions, 5-10 ms here and more on a NAO's CPU: more than a 12
ms cycle has to spare. :class:`KickPlanner` makes it a few solutions per cycle, in the same
order as at once, so the plan is the same; the engine holds the legs still meanwhile, so a
refusal still comes before anything moves.
"""

from __future__ import annotations

import math

import numpy as np

from skills.kick.motion import KickMotion
from skills.kick.params import KickParameters
from skills.kick.reach import KickRefused
from skills.kick.tasks import Kick
from skills.walk.params import GaitParameters


class KickPlanner:
    """A kick being planned, ``advance`` by ``advance``: with foot "auto", the foot on the
    ball's side if it reaches, else the other.

    Raises :class:`KickRefused` (the first foot's reason) at once when the ball is plainly out
    of reach, or from ``advance`` when a pose of the kick turns out unreachable.
    """

    def __init__(
        self,
        kick: Kick,
        params: KickParameters,
        gait: GaitParameters,
        start: np.ndarray,
        period: float = 0.012,
    ) -> None:
        if kick.foot != "auto":
            self._feet = [kick.foot]
        else:
            self._feet = ["left", "right"] if kick.ball_y >= 0.0 else ["right", "left"]
        self._make = lambda foot: KickMotion(kick, foot, params, gait, start, period)
        self._refusal: KickRefused | None = None
        self.motion = self._next_foot()

    def _next_foot(self) -> KickMotion:
        while self._feet:
            try:
                return self._make(self._feet.pop(0))
            except KickRefused as refusal:
                self._refusal = self._refusal or refusal
        assert self._refusal is not None
        raise self._refusal

    def advance(self, solutions: float) -> KickMotion | None:
        """Plan on for about ``solutions`` leg solutions; the motion once its plan is whole."""
        while True:
            try:
                return self.motion if self.motion.advance(solutions) else None
            except KickRefused as refusal:
                self._refusal = self._refusal or refusal
                self.motion = self._next_foot()


def plan_kick(
    kick: Kick,
    params: KickParameters,
    gait: GaitParameters,
    start: np.ndarray,
    period: float = 0.012,
) -> KickMotion:
    """The kick's motion, planned whole at once (see :class:`KickPlanner`)."""
    planner = KickPlanner(kick, params, gait, start, period)
    motion = planner.advance(math.inf)
    assert motion is not None
    return motion


__all__ = ["KickPlanner", "plan_kick"]
