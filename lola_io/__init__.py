"""The LoLA wire format, the client connection, a server side, recording and replay.

The package namespace holds the data pieces (frames, joint order, codec, errors); the trio
parts live in their modules (``lola_io.connection``, ``lola_io.server``, ``lola_io.recording``)
so that importing the joint order does not import trio.
"""

from lola_io.codec import decode_actuator, decode_sensor, encode_actuator, encode_sensor
from lola_io.errors import LolaConnectionError, LolaDecodeError, LolaEncodeError, LolaError
from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.joints import JOINT_INDEX, JOINT_NAMES, NUM_JOINTS

__all__ = [
    "JOINT_INDEX",
    "JOINT_NAMES",
    "NUM_JOINTS",
    "ActuatorFrame",
    "LolaConnectionError",
    "LolaDecodeError",
    "LolaEncodeError",
    "LolaError",
    "SensorFrame",
    "decode_actuator",
    "decode_sensor",
    "encode_actuator",
    "encode_sensor",
]
