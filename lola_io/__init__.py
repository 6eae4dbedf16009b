"""The LoLA wire format, the client connection, a server side, recording and replay."""

from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.joints import JOINT_INDEX, JOINT_NAMES, NUM_JOINTS

__all__ = ["JOINT_INDEX", "JOINT_NAMES", "NUM_JOINTS", "ActuatorFrame", "SensorFrame"]
