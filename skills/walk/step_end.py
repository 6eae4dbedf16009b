"""Where a step really leaves the body over the support foot, learned from the legs.

NAOqi's getNextRobotPosition (``WalkEngine.next_pose``) is the odometry pose once the step
under way has ended. The step's plan says where that step leaves the body over its support
foot; the body ends elsewhere: walking forwards it lags behind the plan (1.8 cm at 0.35 m/s
in naosim), backwards it lags the other way (2.8 cm), and it stands 1-1.5 cm further out from
the support foot than planned (the feet land wider, the body sways less). Over 266 steps of
``bench navigate``'s walks to poses the plan was off by 2.0 cm (rms) forwards and 2.2 cm
sideways, at worst 3.4 and 7.3 cm.

The error is close to linear in the step's velocity: a least-squares fit on (1, forward,
sideways away from the support foot, |turn|) leaves 0.8 and 0.9 cm rms (23 of the 266 steps
off by over 2 cm, at worst 4.1 cm, walking forwards and sideways at once); with |sideways|
and forward times sideways as well, 0.8 and 0.7 cm rms (13 over 2 cm, at worst 3.2). So
the error is predicted from the step's velocity, and after every step the prediction is
corrected towards the measured error (normalised LMS, ``RATE``): another body, floor or
servo learns its own. It starts from that fit (``PRIOR``), made again for the gait with the
centre of mass 2.5 cm ahead of the ankles and the ankle roll (docs/architecture.md, "Tipping
forwards on the spot"): over 2,269 steps of the walks to poses on our NAO and perturbed #4 and
#5 the old fit left 0.8 and 1.2 cm rms, this one 0.5 and 0.5 (on our NAO 5 of 748 steps off
by over 2 cm, against 131 with the old fit).
"""

from __future__ import annotations

import numpy as np

from skills.walk.odometry import Pose2D
from skills.walk.request import Velocity

#: Weights over (1, forward m/s, sideways away from the support foot m/s, |turn| rad/s,
#: |sideways| m/s, forward times away) of the body's error along the support foot's x and
#: away from it (m): naosim's fit.
PRIOR = (
    (0.009, -0.069, -0.005, 0.004, -0.019, 0.057),
    (0.003, 0.008, -0.045, 0.001, 0.051, 0.086),
)
#: The features' typical sizes: learning divides by them, so that each weight learns at a
#: similar rate (by raw values the constant and the turn would teach and the rest lag).
SCALE = (1.0, 0.35, 0.25, 1.5, 0.25, 0.0875)
#: Share of a step's prediction error corrected after it.
RATE = 0.1
#: Largest error (m) a step may teach: beyond it a slip or a broken measurement.
MAX_ERROR = 0.1
#: Largest predicted correction (m) per axis.
MAX_CORRECTION = 0.06


class StepEndModel:
    """The body's error at the end of a step against its plan, predicted from the velocity."""

    def __init__(self) -> None:
        #: Weights (forward, outward) over the features (``PRIOR``'s order), each times its
        #: feature's ``SCALE``.
        self.weights = np.array(PRIOR, dtype=float) * np.array(SCALE)

    @staticmethod
    def features(velocity: Velocity, left_support: bool) -> np.ndarray:
        """The features of a step (``PRIOR``'s order), each over its ``SCALE``."""
        side = 1.0 if left_support else -1.0
        # The body is to the right of a left support foot: away from it is -y.
        away = -side * velocity.left
        raw = (1.0, velocity.forward, away, abs(velocity.turn), abs(away), velocity.forward * away)
        return np.array(raw) / np.array(SCALE)

    def _error(self, velocity: Velocity, left_support: bool) -> np.ndarray:
        e = self.weights @ self.features(velocity, left_support)
        return np.clip(e, -MAX_CORRECTION, MAX_CORRECTION)

    def predict(self, planned: Pose2D, velocity: Velocity, left_support: bool) -> Pose2D:
        """Where a step of ``velocity`` planned to leave the body at ``planned`` (in the
        support foot's frame) is expected to leave it."""
        forward, outward = self._error(velocity, left_support)
        side = 1.0 if left_support else -1.0
        return Pose2D(planned.x + forward, planned.y - side * outward, planned.theta)

    def learn(
        self, planned: Pose2D, measured: Pose2D, velocity: Velocity, left_support: bool
    ) -> None:
        """A step of ``velocity`` planned to leave the body at ``planned`` left it at
        ``measured`` (both in the support foot's frame, as the legs see it)."""
        side = 1.0 if left_support else -1.0
        seen = np.array([measured.x - planned.x, -side * (measured.y - planned.y)])
        if not (np.all(np.isfinite(seen)) and np.all(np.abs(seen) < MAX_ERROR)):
            return
        f = self.features(velocity, left_support)
        if not np.all(np.isfinite(f)):
            return
        residual = seen - self.weights @ f
        self.weights += RATE * np.outer(residual, f) / float(f @ f)


__all__ = ["MAX_CORRECTION", "PRIOR", "RATE", "SCALE", "StepEndModel"]
