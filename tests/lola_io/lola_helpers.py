"""Small bodies and frames shared by the lola_io tests."""

from __future__ import annotations

import numpy as np

from lola_io.codec import decode_sensor, encode_sensor
from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.joints import NUM_JOINTS


class CountingBody:
    """A body whose frame n carries n in HeadYaw's position, so losses and repeats show."""

    def __init__(self) -> None:
        self.count = 0
        self.commands: list[ActuatorFrame | None] = []

    def frame(self) -> SensorFrame:
        position = np.zeros(NUM_JOINTS)
        position[0] = self.count
        return SensorFrame.neutral(position=position)

    def first_frame(self) -> SensorFrame:
        return self.frame()

    def step(self, command: ActuatorFrame | None, dt: float) -> SensorFrame:
        self.commands.append(command)
        self.count += 1
        return self.frame()


def numbered(n: int) -> SensorFrame:
    """The sensor frame CountingBody sends n-th, as it reads after the wire (float32 values)."""
    position = np.zeros(NUM_JOINTS)
    position[0] = n
    return decode_sensor(encode_sensor(SensorFrame.neutral(position=position)))


def command(value: float = 0.0) -> ActuatorFrame:
    """A complete actuator frame whose targets are all ``value``."""
    return ActuatorFrame.complete(np.full(NUM_JOINTS, value), np.ones(NUM_JOINTS))
