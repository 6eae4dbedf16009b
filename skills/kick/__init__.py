"""The kick: a standing kick aimed at the ball, as a Director task (``engine``)."""

from skills.kick.motion import KickMotion
from skills.kick.params import KickParameterError, KickParameters, load_kick_parameters
from skills.kick.planner import KickPlanner, plan_kick
from skills.kick.reach import KickRefused
from skills.kick.tasks import InWalkKick, Kick, KickStatus

__all__ = [
    "InWalkKick",
    "Kick",
    "KickMotion",
    "KickParameterError",
    "KickParameters",
    "KickPlanner",
    "KickRefused",
    "KickStatus",
    "load_kick_parameters",
    "plan_kick",
]
