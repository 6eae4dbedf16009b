"""What the leg IK returns: both legs' angles and how well they meet their sole targets."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs
import numpy as np

from lola_io.joints import JOINT_INDEX, LEFT_LEG_JOINTS, RIGHT_LEG_JOINTS

if TYPE_CHECKING:
    from providers.model.leg_ik import LegIK

_LOLA_LEFT = tuple(JOINT_INDEX[name] for name in LEFT_LEG_JOINTS)
_LOLA_RIGHT = tuple(JOINT_INDEX[name] for name in RIGHT_LEG_JOINTS)


@attrs.frozen
class LegSolution:
    """Joint angles for both legs and how well they meet the two sole targets.

    ``left`` and ``right`` are six angles each in chain order (hip yaw-pitch, hip roll, hip
    pitch, knee pitch, ankle pitch, ankle roll); ``left[0] == right[0]`` always, the one motor.
    """

    left: tuple[float, float, float, float, float, float]
    right: tuple[float, float, float, float, float, float]
    #: How far apart (rad) the hip yaw-pitch values the two feet asked for were.
    hip_yaw_pitch_conflict: float
    #: Both feet are within POSITION_TOLERANCE and ROTATION_TOLERANCE of their targets.
    reachable: bool
    # What the errors are measured against; computed on demand because the walk engine's
    # every-cycle call rarely reads them.
    _ik: LegIK = attrs.field(repr=False, eq=False)
    _targets: tuple[list[float], list[float]] = attrs.field(repr=False, eq=False)

    @property
    def left_error(self) -> tuple[float, float]:
        """Distance (m) and angle (rad) between the left sole and its target."""
        return self._ik._error(1, self.left, self._targets[0])

    @property
    def right_error(self) -> tuple[float, float]:
        """Distance (m) and angle (rad) between the right sole and its target."""
        return self._ik._error(-1, self.right, self._targets[1])

    def apply(self, position: np.ndarray) -> np.ndarray:
        """Write the 11 LoLA leg joints into ``position`` (25 angles, LoLA order); return it."""
        for i, value in zip(_LOLA_LEFT, self.left, strict=True):
            position[i] = value
        for i, value in zip(_LOLA_RIGHT, self.right[1:], strict=True):
            position[i] = value
        return position
