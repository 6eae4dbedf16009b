"""The NAO actuation tree: servo, group, sequence and IK providers over a :class:`ServoTable`.

::

    servos = ServoTable(measured_position)
    build_actuation_tree(director, servos, state)       # state.position: measured angles
    behaviour.emit(Head(JointCommand({"HeadYaw": 0.5}, 1.0, 0.8)), priority=5)
    director.update(now); servos.hold_measured(measured); position, stiffness = servos.targets(now)

See docs/architecture.md, "The actuation tree", for the shape of the tree.
"""

from providers.actuation.arrival import Arrival
from providers.actuation.ik import (
    HeadIK,
    LeftLegIK,
    LegsIK,
    LookAt,
    RightLegIK,
    register_ik,
    solve_right_leg,
)
from providers.actuation.servo_table import ServoTable
from providers.actuation.tasks import (
    GROUP_JOINTS,
    GROUP_TYPES,
    SEQUENCE_OF,
    SERVO_TASKS,
    SERVO_TYPES,
    Arms,
    ArmsSequence,
    Body,
    BodySequence,
    Head,
    HeadSequence,
    JointCommand,
    LeftArm,
    LeftArmSequence,
    LeftLeg,
    LeftLegSequence,
    Legs,
    LegsSequence,
    Limbs,
    LimbsSequence,
    RightArm,
    RightArmSequence,
    RightLeg,
    RightLegSequence,
    smallest_group,
)
from providers.actuation.tree import build_actuation_tree

__all__ = [
    "GROUP_JOINTS",
    "GROUP_TYPES",
    "SEQUENCE_OF",
    "SERVO_TASKS",
    "SERVO_TYPES",
    "Arms",
    "ArmsSequence",
    "Arrival",
    "Body",
    "BodySequence",
    "Head",
    "HeadIK",
    "HeadSequence",
    "JointCommand",
    "LeftArm",
    "LeftArmSequence",
    "LeftLeg",
    "LeftLegIK",
    "LeftLegSequence",
    "Legs",
    "LegsIK",
    "LegsSequence",
    "Limbs",
    "LimbsSequence",
    "LookAt",
    "RightArm",
    "RightArmSequence",
    "RightLeg",
    "RightLegIK",
    "RightLegSequence",
    "ServoTable",
    "build_actuation_tree",
    "register_ik",
    "smallest_group",
    "solve_right_leg",
]
