"""The NAO robot model (data) and, beside it, its kinematics."""

from providers.model.robot_model import (
    FootGeometry,
    JointSpec,
    LinkSpec,
    NaoModel,
    load_nao_model,
)

__all__ = ["FootGeometry", "JointSpec", "LinkSpec", "NaoModel", "load_nao_model"]
