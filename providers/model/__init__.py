"""The NAO robot model (data) and, beside it, its kinematics."""

from providers.model.head_ik import HeadAngles, HeadIK, look_at, nao_head_ik
from providers.model.kinematics import NaoKinematics, nao_kinematics
from providers.model.leg_ik import LegIK, LegSolution, nao_leg_ik, solve_legs
from providers.model.robot_model import (
    FootGeometry,
    JointSpec,
    LinkSpec,
    NaoModel,
    load_nao_model,
)
from providers.model.support import support_polygon
from providers.model.transforms import invert_pose, pose_error, pose_from_xyz_rpy

__all__ = [
    "FootGeometry",
    "HeadAngles",
    "HeadIK",
    "JointSpec",
    "LegIK",
    "LegSolution",
    "LinkSpec",
    "NaoKinematics",
    "NaoModel",
    "invert_pose",
    "load_nao_model",
    "look_at",
    "nao_head_ik",
    "nao_kinematics",
    "nao_leg_ik",
    "pose_error",
    "pose_from_xyz_rpy",
    "solve_legs",
    "support_polygon",
]
