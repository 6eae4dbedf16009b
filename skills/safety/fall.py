"""Fall detection from the IMU and the foot sensors (B-Human's and rUNSWift's idea: a fall is
predicted from where the torso leans *and* how fast it is leaning further).

Every cycle :meth:`FallDetector.update` reads the torso's roll and pitch (the IMU's angles),
the gyro and the feet's loads, and says whether the robot is upright, falling or lying:

- **Falling** when the tilt the torso will have ``horizon`` seconds from now (the tilt plus
  its rate of change along the lean, from the gyro) passes ``predict_tilt`` while the torso is
  already past ``min_tilt``, or when the tilt alone passes ``sure_tilt``. The minimum tilt
  keeps the gyro's swings in a fast walk or a kick from raising an alarm; the prediction is
  what gives the arms time to move before the impact (a NAO falls from 20 degrees to the
  floor in about 0.4 s).
- **Fallen** when the tilt stays past ``fallen_tilt`` (the torso is on the floor) and the
  gyro is calm: lying on the front, the back, or a side.
- Back to **upright** only when the tilt is small, a foot is loaded, and that held for
  ``upright_after`` seconds, so a robot bouncing on its arms is not declared upright.

The direction is that of the lean (pitch forward is ``FRONT``, roll to the right ``RIGHT``),
decided when the fall is first seen and kept until the robot lies still (it then says which
side it lies on). Conventions: IMU roll positive leans right, pitch positive leans forward;
gyro x and y are the roll and pitch rates.
"""

from __future__ import annotations

import enum
import math

import attrs


class FallPhase(enum.Enum):
    """Whether the robot stands, is falling, or lies on the floor."""

    UPRIGHT = "upright"
    FALLING = "falling"
    FALLEN = "fallen"


class FallDirection(enum.Enum):
    """Which way the robot falls, or which side it lies on."""

    FRONT = "front"
    BACK = "back"
    LEFT = "left"
    RIGHT = "right"


@attrs.frozen
class FallState:
    """What the detector says this cycle; ``since`` is when the phase began (s)."""

    phase: FallPhase = FallPhase.UPRIGHT
    direction: FallDirection | None = None
    since: float = 0.0

    @property
    def falling(self) -> bool:
        """Whether a fall is under way (detected, not yet lying still)."""
        return self.phase is FallPhase.FALLING


def _positive(instance, attribute, value: float) -> None:
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{attribute.name} must be a finite number above 0, got {value!r}")


@attrs.frozen
class FallThresholds:
    """The detector's thresholds (rad, rad/s, s)."""

    min_tilt: float = attrs.field(default=0.30, validator=_positive)
    predict_tilt: float = attrs.field(default=0.75, validator=_positive)
    sure_tilt: float = attrs.field(default=0.70, validator=_positive)
    horizon: float = attrs.field(default=0.25, validator=_positive)
    fallen_tilt: float = attrs.field(default=1.0, validator=_positive)
    calm_gyro: float = attrs.field(default=0.6, validator=_positive)
    upright_tilt: float = attrs.field(default=0.35, validator=_positive)
    upright_after: float = attrs.field(default=0.3, validator=_positive)


def torso_lean(roll: float, pitch: float) -> tuple[float, float]:
    """(forward, sideways) lean of the torso, rad, from the IMU's roll and pitch.

    ``forward`` is the angle of the torso in its sagittal plane (0 upright, +pi/2 lying on the
    front, -pi/2 on the back, continuing past them: the IMU's pitch stops at pi/2 and flips
    its roll instead); ``sideways`` is the lean to the right (+) or left (-), in
    [-pi/2, pi/2]."""
    up_x = -math.sin(pitch)
    up_y = math.sin(roll) * math.cos(pitch)
    up_z = math.cos(roll) * math.cos(pitch)
    return math.atan2(-up_x, up_z), math.asin(max(-1.0, min(1.0, up_y)))


def lean_direction(roll: float, pitch: float) -> FallDirection:
    """The side the torso leans (or lies) to, from the world's up direction in the torso
    frame (``(-sin p, sin r cos p, cos r cos p)``): a robot lying with its head lower than its
    hips reads roll ±pi and pitch under pi/2, which is still its front."""
    up_x = -math.sin(pitch)
    up_y = math.sin(roll) * math.cos(pitch)
    if abs(up_x) >= abs(up_y):
        return FallDirection.FRONT if up_x < 0.0 else FallDirection.BACK
    return FallDirection.RIGHT if up_y > 0.0 else FallDirection.LEFT


class FallDetector:
    """Upright, falling or fallen, from one cycle's IMU and foot loads at a time."""

    def __init__(self, thresholds: FallThresholds | None = None) -> None:
        self.thresholds = thresholds if thresholds is not None else FallThresholds()
        self.state = FallState()
        self.tilt = 0.0
        self.predicted_tilt = 0.0
        self._upright_for = 0.0
        self._calm_for = 0.0
        #: A get-up is under way: the robot is not upright until it says it stands (its rise
        #: passes through upright postures before its last check).
        self.getting_up = False

    def reset(self, now: float = 0.0) -> None:
        """Forget the past: upright from ``now``."""
        self.state = FallState(since=now)
        self._upright_for = 0.0
        self._calm_for = 0.0

    def lying(self, now: float, side: FallDirection) -> None:
        """Start out lying on ``side`` (a daemon started under a fallen robot)."""
        self.state = FallState(FallPhase.FALLEN, side, now)
        self._upright_for = 0.0

    def update(
        self,
        now: float,
        dt: float,
        roll: float,
        pitch: float,
        gyro_roll: float,
        gyro_pitch: float,
        loaded: bool,
    ) -> FallState:
        """Read one cycle; the state after it. Non-finite readings count as no news."""
        th = self.thresholds
        if not all(map(math.isfinite, (roll, pitch, gyro_roll, gyro_pitch))):
            return self.state
        tilt = math.acos(max(-1.0, min(1.0, math.cos(roll) * math.cos(pitch))))
        # The rate at which the tilt grows: the gyro projected on the direction of the lean.
        lean = math.hypot(roll, pitch)
        rate = (roll * gyro_roll + pitch * gyro_pitch) / lean if lean > 1e-6 else 0.0
        predicted = tilt + max(rate, 0.0) * th.horizon
        self.tilt, self.predicted_tilt = tilt, predicted
        spin = math.hypot(gyro_roll, gyro_pitch)
        self._calm_for = self._calm_for + dt if spin < th.calm_gyro else 0.0
        phase = self.state.phase

        if phase is FallPhase.UPRIGHT:
            if tilt > th.sure_tilt or (tilt > th.min_tilt and predicted > th.predict_tilt):
                return self._enter(FallPhase.FALLING, lean_direction(roll, pitch), now)
            if tilt > th.fallen_tilt:
                return self._enter(FallPhase.FALLEN, lean_direction(roll, pitch), now)
            return self.state

        upright = tilt < th.upright_tilt and loaded
        self._upright_for = self._upright_for + dt if upright else 0.0
        if self._upright_for >= th.upright_after and not self.getting_up:
            return self._enter(FallPhase.UPRIGHT, None, now)
        if tilt > th.fallen_tilt and self._calm_for >= 0.1:
            side = lean_direction(roll, pitch)
            if phase is not FallPhase.FALLEN or side is not self.state.direction:
                return self._enter(FallPhase.FALLEN, side, now)
        return self.state

    def _enter(self, phase: FallPhase, direction: FallDirection | None, now: float) -> FallState:
        self.state = FallState(phase, direction, now)
        self._upright_for = 0.0
        return self.state
