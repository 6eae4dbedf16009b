"""The walk: an omnidirectional Walk2014-family gait with pressure-timed support exchange.

Public surface: the tasks (:class:`Walk`, :class:`WalkToward`, :class:`KillWalk`,
:class:`WalkTo`, :class:`WalkPath` and its :class:`MoveStatus`, :class:`Footsteps` of
:class:`Footstep` and their :class:`FootstepStatus`), the gait
parameters (:class:`GaitParameters`, :func:`load_gait`, :class:`GaitError`), the state
(:class:`WalkStatus`, :class:`Phase`, :class:`Pose2D`) and :func:`register_walk`.
"""

from skills.walk.engine import WalkEngine
from skills.walk.footsteps import Footstep, Footsteps, FootstepStatus
from skills.walk.generator import Phase, WalkGenerator
from skills.walk.odometry import Pose2D
from skills.walk.params import PARAMETER_RANGES, GaitError, GaitParameters, load_gait
from skills.walk.posture import WalkTargets
from skills.walk.providers import register_walk
from skills.walk.request import Velocity, clamp_request, ratchet
from skills.walk.status import WalkStatus
from skills.walk.tasks import KillWalk, StopWalk, Walk, WalkToward
from skills.walk.walk_to import MoveStatus, WalkPath, WalkTo

__all__ = [
    "PARAMETER_RANGES",
    "Footstep",
    "FootstepStatus",
    "Footsteps",
    "GaitError",
    "GaitParameters",
    "KillWalk",
    "MoveStatus",
    "Phase",
    "Pose2D",
    "StopWalk",
    "Velocity",
    "Walk",
    "WalkEngine",
    "WalkGenerator",
    "WalkPath",
    "WalkStatus",
    "WalkTargets",
    "WalkTo",
    "WalkToward",
    "clamp_request",
    "load_gait",
    "ratchet",
    "register_walk",
]
