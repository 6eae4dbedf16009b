"""The walk: an omnidirectional Walk2014-family gait with pressure-timed support exchange.

Public surface: the tasks (:class:`Walk`, :class:`WalkToward`, :class:`KillWalk`), the gait
parameters (:class:`GaitParameters`, :func:`load_gait`, :class:`GaitError`), the state
(:class:`WalkStatus`, :class:`Phase`, :class:`Pose2D`) and :func:`register_walk`.
"""

from skills.walk.engine import WalkEngine, register_walk
from skills.walk.generator import Phase, WalkGenerator, WalkTargets
from skills.walk.odometry import Pose2D
from skills.walk.params import PARAMETER_RANGES, GaitError, GaitParameters, load_gait
from skills.walk.request import Velocity, clamp_request, ratchet
from skills.walk.status import WalkStatus
from skills.walk.tasks import KillWalk, StopWalk, Walk, WalkToward

__all__ = [
    "PARAMETER_RANGES",
    "GaitError",
    "GaitParameters",
    "KillWalk",
    "Phase",
    "Pose2D",
    "StopWalk",
    "Velocity",
    "Walk",
    "WalkEngine",
    "WalkGenerator",
    "WalkStatus",
    "WalkTargets",
    "WalkToward",
    "clamp_request",
    "load_gait",
    "ratchet",
    "register_walk",
]
