"""The walk state the runtime shows: phase, support foot, steps, request and odometry."""

from __future__ import annotations

import attrs

from skills.walk.generator import Phase
from skills.walk.odometry import Pose2D
from skills.walk.request import Velocity


@attrs.frozen
class WalkStatus:
    """A snapshot of the walk.

    ``request`` is the clamped request (what the walk will reach), ``executed`` the velocity
    of the current step (the request after the per-step acceleration limits), ``odometry``
    the body's pose on the floor since start (``LegOdometry.pose``), ``position`` NAOqi's
    robot position, the middle of the feet (``LegOdometry.robot``), ``halted`` the reason of a
    protective stop in force (``"lifted"``, ``"tilt"``, ``"gyro"``) or None.
    """

    phase: Phase
    support: str | None
    step_count: int
    request: Velocity
    executed: Velocity
    odometry: Pose2D
    position: Pose2D
    killed: bool
    halted: str | None
    active: bool
    #: The stand's energy saving (``skills.walk.energy``): "plain", "saving" or "high".
    stand: str = "plain"
