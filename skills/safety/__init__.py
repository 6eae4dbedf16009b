"""The safety skills: fall detection and protection, getting up, holding a posture.

The runtime's safety supervisor (``motiond.supervisor``) decides when each runs; here are the
tasks, their providers and the detector. Priorities (highest first; behaviours stay below the
runtime's band, which starts at ``SAFETY_PRIORITY``):

==========================  =====================================  ========================
priority                    task                                   emitted when
==========================  =====================================  ========================
``FREEZE_PRIORITY``         Freeze                                 asked (a button, a user)
``FALL_PRIORITY``           FallProtect                            a fall is detected
``GETUP_PRIORITY``          GetUp                                  lying still, auto get-up on
``SAFETY_PRIORITY``         Script (safe sit), lifted stand        an outage; lifted
behaviours                  anything below ``SAFETY_PRIORITY``
``HOLD_PRIORITY``           HoldPosture                            started standing; put down
==========================  =====================================  ========================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skills.freeze import FREEZE_PRIORITY
from skills.safety.fall import FallDetector, FallDirection, FallPhase, FallState, FallThresholds
from skills.safety.getup import GetUp, GetUpProgress, GetUpStatus
from skills.safety.hold import HoldPosture
from skills.safety.protection import FallProtect

if TYPE_CHECKING:
    from director import Director
    from providers.actuation import ServoTable

FALL_PRIORITY = FREEZE_PRIORITY - 1.0
GETUP_PRIORITY = FREEZE_PRIORITY - 2.0
#: The lowest priority reserved for the runtime: behaviours must stay below it.
SAFETY_PRIORITY = FREEZE_PRIORITY - 3.0
#: Below every behaviour: any task a behaviour emits outranks a hold.
HOLD_PRIORITY = -FREEZE_PRIORITY


def register_safety(director: Director, servos: ServoTable, state: Any) -> GetUpProgress:
    """Register FallProtect, GetUp and HoldPosture; returns the get-up's progress."""
    from skills.safety.getup import register_getup
    from skills.safety.hold import register_hold
    from skills.safety.protection import register_fall_protection
    from skills.safety.routines import shipped_routines

    register_fall_protection(director, servos, state)
    register_hold(director, servos, state)
    return register_getup(director, state, shipped_routines)


__all__ = [
    "FALL_PRIORITY",
    "GETUP_PRIORITY",
    "HOLD_PRIORITY",
    "SAFETY_PRIORITY",
    "FallDetector",
    "FallDirection",
    "FallPhase",
    "FallProtect",
    "FallState",
    "FallThresholds",
    "GetUp",
    "GetUpProgress",
    "GetUpStatus",
    "HoldPosture",
    "register_safety",
]
