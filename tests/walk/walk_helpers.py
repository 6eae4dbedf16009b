"""What the gait generator reads from the robot, for driving it without physics."""

from __future__ import annotations

import numpy as np


class Sense:
    """Gyro, FSRs, tilt, torso angles and contacts of a robot standing level on both feet."""

    def __init__(self) -> None:
        self.gyro = np.zeros(3)
        self.fsr = np.full(8, 0.6)
        self.tilt = self.roll = self.pitch = 0.0
        self.left_contact = self.right_contact = True
