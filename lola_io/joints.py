"""The LoLA joint order and the names of every other per-cell array on the wire.

This is the one place the project learns the order of LoLA's arrays; everything else looks
names up here (``JOINT_INDEX["LKneePitch"]``) rather than writing indices by hand.
"""

from __future__ import annotations

from types import MappingProxyType

#: The 25 joints in LoLA order. There is no RHipYawPitch: one motor drives both hip yaw-pitch
#: joints and LHipYawPitch stands for both.
JOINT_NAMES: tuple[str, ...] = (
    "HeadYaw",
    "HeadPitch",
    "LShoulderPitch",
    "LShoulderRoll",
    "LElbowYaw",
    "LElbowRoll",
    "LWristYaw",
    "LHipYawPitch",
    "LHipRoll",
    "LHipPitch",
    "LKneePitch",
    "LAnklePitch",
    "LAnkleRoll",
    "RHipRoll",
    "RHipPitch",
    "RKneePitch",
    "RAnklePitch",
    "RAnkleRoll",
    "RShoulderPitch",
    "RShoulderRoll",
    "RElbowYaw",
    "RElbowRoll",
    "RWristYaw",
    "LHand",
    "RHand",
)
NUM_JOINTS = len(JOINT_NAMES)
JOINT_INDEX = MappingProxyType({name: i for i, name in enumerate(JOINT_NAMES)})

#: Joints of each limb, in LoLA order. The right leg has no hip yaw-pitch of its own.
HEAD_JOINTS = ("HeadYaw", "HeadPitch")
LEFT_ARM_JOINTS = (
    "LShoulderPitch",
    "LShoulderRoll",
    "LElbowYaw",
    "LElbowRoll",
    "LWristYaw",
    "LHand",
)
RIGHT_ARM_JOINTS = (
    "RShoulderPitch",
    "RShoulderRoll",
    "RElbowYaw",
    "RElbowRoll",
    "RWristYaw",
    "RHand",
)
LEFT_LEG_JOINTS = (
    "LHipYawPitch",
    "LHipRoll",
    "LHipPitch",
    "LKneePitch",
    "LAnklePitch",
    "LAnkleRoll",
)
RIGHT_LEG_JOINTS = ("RHipRoll", "RHipPitch", "RKneePitch", "RAnklePitch", "RAnkleRoll")
#: LoLA indices of the leg joints, left leg (its hip yaw-pitch first) then right.
LEG_INDICES = tuple(JOINT_INDEX[name] for name in (*LEFT_LEG_JOINTS, *RIGHT_LEG_JOINTS))

#: FSR cells: left foot front-left, front-right, rear-left, rear-right, then the right foot.
FSR_NAMES: tuple[str, ...] = (
    "LFootFrontLeft",
    "LFootFrontRight",
    "LFootRearLeft",
    "LFootRearRight",
    "RFootFrontLeft",
    "RFootFrontRight",
    "RFootRearLeft",
    "RFootRearRight",
)
FSR_INDEX = MappingProxyType({name: i for i, name in enumerate(FSR_NAMES)})

TOUCH_NAMES: tuple[str, ...] = (
    "ChestBoard",
    "HeadFront",
    "HeadMiddle",
    "HeadRear",
    "LFootBumperLeft",
    "LFootBumperRight",
    "LHandBack",
    "LHandLeft",
    "LHandRight",
    "RFootBumperLeft",
    "RFootBumperRight",
    "RHandBack",
    "RHandLeft",
    "RHandRight",
)
TOUCH_INDEX = MappingProxyType({name: i for i, name in enumerate(TOUCH_NAMES)})

#: Battery fields in the order B-Human, HULKs and rUNSWift read them off the wire
#: (several teams report that the officially documented order is wrong).
BATTERY_NAMES: tuple[str, ...] = ("charge", "status", "current", "temperature")
BATTERY_INDEX = MappingProxyType({name: i for i, name in enumerate(BATTERY_NAMES)})

#: Lengths of the LED arrays of an actuator frame, by wire key.
LED_LENGTHS = MappingProxyType(
    {
        "Chest": 3,
        "LFoot": 3,
        "RFoot": 3,
        "LEar": 10,
        "REar": 10,
        "LEye": 24,
        "REye": 24,
        "Skull": 12,
    }
)

#: Joint status values reported by LoLA.
STATUS_NORMAL, STATUS_HOT, STATUS_VERY_HOT, STATUS_CRITICAL = 0, 1, 2, 3
