"""Footstep placement: a footstep lands where it was asked, as the legs measure it.

A footstep planned to land at ``move`` (in the support foot's frame) lands elsewhere: the
servos lag and sag, and the support hip's sag compensation (``sag_hip_roll``) rolls the body
so that the swing foot comes down wider. In naosim the feet landed 1.0 cm wider than asked on
average (0.3-3.1 cm over 25 steps of ``bench navigate``'s sequences, every one of them wider),
with no mean error forwards.

The legs see that error as it is: the leg odometry's feet at the moment the step ends (both
feet on the ground) agreed with naosim's truth of the feet at rest to 0.2 cm. So after every
footstep the measured landing is compared with the planned one, and the next footsteps are
aimed against the error: what a footstep still misses by, after the correction, adds
``RATE`` of itself to the correction (at most ``LIMIT``; slowly forwards, where single steps
scatter). It starts from naosim's measured 1 cm wider (``PRIOR``): another body, floor or
servo learns its own within a few footsteps.
"""

from __future__ import annotations

import math

from skills.walk.odometry import Pose2D

#: The error learned before any footstep: (forward, outward) m, as measured in naosim.
PRIOR = (0.0, 0.01)
#: Share of a footstep's remaining error added to the correction after it: (forward,
#: outward). Forwards a step misses by ±2 cm from one step to the next with no mean in naosim
#: (the body's sway), so that error is averaged over many steps: at the outward rate it made
#: the footsteps missing by over 2 cm 3-4 of 25 on four bodies, not 1-2.
RATE = (0.05, 0.2)
#: Largest correction per axis (m).
LIMIT = 0.03


class PlacementCorrection:
    """The mean landing error of footsteps, and footsteps aimed against it."""

    def __init__(self) -> None:
        #: The landing error aimed against (forward, outward), m, in the frame of the support
        #: foot; outward is away from the support foot.
        self.error = PRIOR

    def aim(self, move: Pose2D, left: bool) -> Pose2D:
        """Where to aim a footstep of the ``left`` (or right) foot that should land at
        ``move``."""
        side = 1.0 if left else -1.0
        forward, outward = self.error
        return Pose2D(move.x - forward, move.y - side * outward, move.theta)

    def learn(self, planned: Pose2D, measured: Pose2D, left: bool) -> None:
        """A footstep of the ``left`` (or right) foot asked to land at ``planned`` (before
        :meth:`aim`) landed at ``measured``, both in the support foot's frame."""
        side = 1.0 if left else -1.0
        seen = (measured.x - planned.x, side * (measured.y - planned.y))
        if not all(math.isfinite(e) and abs(e) < 0.1 for e in seen):
            return  # a slip or a broken measurement, not a bias
        self.error = tuple(
            max(-LIMIT, min(LIMIT, e + r * s))
            for e, s, r in zip(self.error, seen, RATE, strict=True)
        )


__all__ = ["LIMIT", "PRIOR", "RATE", "PlacementCorrection"]
