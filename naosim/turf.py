"""The turf's rolling resistance on the ball: a rolling SPL ball slows down at a constant rate.

Public SPL code models a rolling ball with a constant deceleration: B-Human's ball model uses
0.35 m/s² (BHumanCodeRelease, Config/Locations/Default/ballSpecification.cfg, ``friction =
-0.35``, and Tools/Modeling/BallPhysics.h). MuJoCo's own rolling friction cannot give it here:
the floor's friction wins its contacts (priority 1, so that ``set_floor_friction`` means what it
says for the feet) and has none, and under the pyramidal friction cone naosim uses a rolling
friction is anisotropic (a ball rolled along a diagonal went 40 % further than along an axis).
So naosim applies the resistance as a force at the ball's centre, against its horizontal
velocity, while it touches the ground. A ball that rolls without slipping decelerates at
F / (m + I / r²), so the force is (m + I / r²) a: 7/5 m a for the SPL's solid foam ball
(I = 2/5 m r²), whatever inertia a loaded model gives its ball.
"""

from __future__ import annotations

import numpy as np

#: The ball's deceleration on turf, m/s² (B-Human's ball model).
DECELERATION = 0.35
#: Below this speed (m/s) the force fades linearly to zero, so a ball at rest stays at rest.
_FADE_SPEED = 0.02
#: A ball whose centre is this far (m) above its radius is in the air: no turf under it.
_AIRBORNE = 0.005


def turf_force(
    velocity: np.ndarray, height: float, radius: float, mass: float, inertia: float
) -> np.ndarray:
    """The turf's force (N, world x, y, z) on a ball of ``mass`` (kg) and moment of
    ``inertia`` (kg m²) at ``height`` (m, centre above the floor) moving at ``velocity``
    (m/s, world)."""
    speed = float(np.hypot(velocity[0], velocity[1]))
    if speed == 0.0 or height > radius + _AIRBORNE:
        return np.zeros(3)
    rolling_mass = mass + inertia / radius**2
    magnitude = rolling_mass * DECELERATION * min(1.0, speed / _FADE_SPEED)
    return np.array([-velocity[0] / speed * magnitude, -velocity[1] / speed * magnitude, 0.0])
