"""Where a velocity step's swing foot really lands against its plan, learned from the legs.

NAOqi's getNextRobotPosition (``WalkEngine.next_pose``) is the robot position, the middle of
the feet (``LegOdometry.robot``), once the step under way has ended: halfway between the
support foot, which stands where it is, and the swing foot, where the step lands it. The plan
says where it lands; the foot lands elsewhere. Over 1,787 steps of ``bench navigate``'s walks
to poses on our NAO and the perturbed bodies #0-#6 the feet landed 0.7 cm further forwards
and 1.2 cm further out than planned on average (rms 1.5 and 0.9 cm), and by the velocity:
4 cm long at the top forward speed, 3.5-4 cm wide stepping sideways (the support hip's sag
compensation rolls the body, and the swing foot comes down wider).

The error is close to linear in the step's velocity: a least-squares fit on (1, forward,
sideways away from the support foot, |turn|, |sideways|, forward times away) leaves 0.75 and
0.43 cm rms (0.77 and 0.44 fitted on six bodies and judged on the seventh), so the middle of
the feet is then within 1 cm of its prediction in all but 30 of the 1,787 steps (without the
fit, 741). So the landing is predicted from the step's velocity, and after every velocity
step the prediction is corrected towards the measured error (normalised LMS, ``RATE``):
another body, floor or servo learns its own. It starts from that fit (``PRIOR``). Footsteps
are aimed against their own landing error (``skills.walk.placement``) and teach nothing here.

(Until session 17 the next position was the *body's* pose once the step ended, predicted the
same way: the body sways 3-5 cm over each support foot and how far it swings scatters with
the step before, so the same fit left 0.6-0.7 cm rms on each axis and steps off by up to
3.5 cm; the middle of the feet moves half as much as the swing foot and not with the sway.)
"""

from __future__ import annotations

import numpy as np

from skills.walk.odometry import Pose2D
from skills.walk.request import Velocity

#: Weights over (1, forward m/s, sideways away from the support foot m/s, |turn| rad/s,
#: |sideways| m/s, forward times away) of the swing foot's landing error along the support
#: foot's x and away from it (m): naosim's fit.
PRIOR = (
    (0.006, 0.051, -0.034, -0.004, -0.052, 0.069),
    (0.006, -0.005, 0.034, 0.0, 0.075, 0.025),
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


class LandingModel:
    """The swing foot's landing error against its plan, predicted from the step's velocity."""

    def __init__(self) -> None:
        #: Weights (forward, outward) over the features (``PRIOR``'s order), each times its
        #: feature's ``SCALE``.
        self.weights = np.array(PRIOR, dtype=float) * np.array(SCALE)

    @staticmethod
    def features(velocity: Velocity, left_support: bool) -> np.ndarray:
        """The features of a step (``PRIOR``'s order), each over its ``SCALE``."""
        side = 1.0 if left_support else -1.0
        # The swing foot is to the right of a left support foot: away from it is -y.
        away = -side * velocity.left
        raw = (1.0, velocity.forward, away, abs(velocity.turn), abs(away), velocity.forward * away)
        return np.array(raw) / np.array(SCALE)

    def predict(self, planned: Pose2D, velocity: Velocity, left_support: bool) -> Pose2D:
        """Where the swing foot of a step of ``velocity``, planned to land at ``planned`` (in
        the support foot's frame), is expected to land."""
        e = self.weights @ self.features(velocity, left_support)
        forward, outward = np.clip(e, -MAX_CORRECTION, MAX_CORRECTION)
        side = 1.0 if left_support else -1.0
        return Pose2D(planned.x + forward, planned.y - side * outward, planned.theta)

    def learn(
        self, planned: Pose2D, measured: Pose2D, velocity: Velocity, left_support: bool
    ) -> None:
        """The swing foot of a step of ``velocity``, planned to land at ``planned``, landed at
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


__all__ = ["MAX_CORRECTION", "PRIOR", "RATE", "SCALE", "LandingModel"]
