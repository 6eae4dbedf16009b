"""What the runtime knows of the robot after reading one sensor frame.

Kept deliberately small and cheap: it is updated every 12 ms cycle. Skills read it through the
Director's state store (``Posture``) and through the runtime.
"""

from __future__ import annotations

import enum
import math

import attrs
import numpy as np

from lola_io.frames import SensorFrame
from skills.safety.fall import FallState

#: A foot carrying less than this (kg, summed over its four FSR cells) is not in contact.
CONTACT_THRESHOLD_KG = 0.3
#: Torso tilt beyond which the robot counts as fallen (NAOqi uses about 50 degrees).
FALLEN_TILT_RAD = math.radians(50.0)


class Posture(enum.Enum):
    """Coarse posture of the robot, the state When/Causing conditions are written against."""

    UPRIGHT = "upright"
    FALLEN = "fallen"
    LIFTED = "lifted"


@attrs.define
class RobotState:
    """The robot as the runtime sees it: measured joints, tilt, foot contact and posture."""

    position: np.ndarray = attrs.field(factory=lambda: np.zeros(25))
    stiffness: np.ndarray = attrs.field(factory=lambda: np.zeros(25))  # applied, as reported
    temperature_status: np.ndarray = attrs.field(factory=lambda: np.zeros(25, dtype=np.int64))
    gyro: np.ndarray = attrs.field(factory=lambda: np.zeros(3))  # rad/s, torso frame
    fsr: np.ndarray = attrs.field(factory=lambda: np.zeros(8))  # kg, LoLA's FSR order
    tilt: float = 0.0
    roll: float = 0.0  # torso roll and pitch from the IMU (rad)
    pitch: float = 0.0
    left_contact: bool = False
    right_contact: bool = False
    posture: Posture = Posture.UPRIGHT
    battery_charge: float = 1.0
    #: The fall detector's verdict (upright, falling, fallen; direction), set by the safety
    #: supervisor after each update.
    fall: FallState = attrs.field(factory=FallState)

    def update(self, frame: SensorFrame) -> None:
        """Refresh from one sensor frame (no allocation but the posture's enum lookup)."""
        np.copyto(self.position, frame.position)
        np.copyto(self.stiffness, frame.stiffness)
        np.copyto(self.temperature_status, frame.status, casting="unsafe")
        np.copyto(self.gyro, frame.gyroscope)
        np.copyto(self.fsr, frame.fsr)
        roll, pitch = float(frame.angles[0]), float(frame.angles[1])
        self.roll, self.pitch = roll, pitch
        # Angle between the torso's z axis and the vertical, from the two torso angles.
        self.tilt = math.acos(max(-1.0, min(1.0, math.cos(roll) * math.cos(pitch))))
        self.left_contact = frame.left_fsr_total > CONTACT_THRESHOLD_KG
        self.right_contact = frame.right_fsr_total > CONTACT_THRESHOLD_KG
        self.battery_charge = float(frame.battery[0])
        if self.tilt > FALLEN_TILT_RAD:
            self.posture = Posture.FALLEN
        elif not (self.left_contact or self.right_contact):
            self.posture = Posture.LIFTED
        else:
            self.posture = Posture.UPRIGHT
