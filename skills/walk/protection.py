"""The walk's own protection (NAOqi's): no stepping while the robot is lifted, tilted or
spinning.

Lifted means no sole contact for ``LIFTED_CYCLES`` cycles in a row (a single cycle without
contact is a bounce); tilted and spinning compare the torso's tilt and the gyro's pitch/roll
rate with the gait's ``stop_tilt`` and ``stop_gyro``. The first reason found holds until
everything has been calm for ``RESUME_AFTER`` seconds. Falling itself is handled elsewhere.
"""

from __future__ import annotations

import math
from typing import Any

from skills.walk.params import GaitParameters
from skills.walk.posture import finite

RESUME_AFTER = 0.5  # s of calm before the walk lets the request through again
LIFTED_CYCLES = 6  # consecutive cycles with no sole contact that mean "lifted"


class Protection:
    """Why the walk must not step now (``reason``), or None."""

    def __init__(self) -> None:
        self.reason: str | None = None
        self._airborne = 0
        self._calm = 0.0

    def update(self, dt: float, sense: Any, gait: GaitParameters) -> bool:
        """Read one cycle's sensors; True when a protective stop begins this cycle."""
        airborne = not (sense.left_contact or sense.right_contact)
        self._airborne = self._airborne + 1 if airborne else 0
        reason = None
        if self._airborne >= LIFTED_CYCLES:
            reason = "lifted"
        elif finite(sense.tilt, 0.0) > gait.stop_tilt:
            reason = "tilt"
        elif math.hypot(finite(sense.gyro[0], 0.0), finite(sense.gyro[1], 0.0)) > gait.stop_gyro:
            reason = "gyro"
        if reason is not None:
            self._calm = 0.0
            if self.reason is None:
                self.reason = reason
                return True
            return False
        if self.reason is not None:
            self._calm += dt
            if self._calm >= RESUME_AFTER:
                self.reason = None
        return False
