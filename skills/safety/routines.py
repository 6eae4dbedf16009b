"""The shipped get-up routines: which keyframes of which script form each phase, and what
the IMU and feet must say after it (see ``skills.safety.getup``).

Pitch is the IMU's torso pitch (rad, positive leaning forward: +1.57 lying on the front,
-1.57 on the back); roll positive leans right.
"""

from __future__ import annotations

import attrs

from lola_io.joints import LEFT_ARM_JOINTS, LEFT_LEG_JOINTS, RIGHT_ARM_JOINTS, RIGHT_LEG_JOINTS
from providers.actuation import Arrival
from skills.safety.fall import FallDirection
from skills.safety.getup import Check, GetUpPhase, GetUpRoutine
from skills.script_files import shipped_script_names

_LEGS = (*LEFT_LEG_JOINTS, *RIGHT_LEG_JOINTS)
_ARMS = tuple(j for j in (*LEFT_ARM_JOINTS, *RIGHT_ARM_JOINTS) if "Shoulder" in j or "Elbow" in j)
#: How long a roll's check waits for the robot to come to rest on its front or back, s: a
#: roll that gravity finishes went on for up to 0.8 s after its keyframes (naosim's NAO).
ROLL_REST_WAIT = 1.5
_STANDING = Check(pitch=(-0.3, 0.3), max_roll=0.3, feet_loaded=True)


def _roll_over(side: str) -> GetUpRoutine:
    """Lying on ``side``: the limbs swing so that the robot rolls onto its front (or, tilted
    towards its back, onto the back, whose get-up goes on from there). The check waits for
    the roll to end (``rest_wait``): judged when the keyframes ended, the robot was often
    still rolling, and the try was lost (docs/architecture.md, "Safety"). The script's first
    keyframe straightens the legs (bent, the roll went onto the back in 38 of 96 side starts);
    straight after another routine's roll it is left out (``lead_in``)."""
    return GetUpRoutine(
        f"RollOver{side}",
        f"GetUpRollOver{side}",
        (GetUpPhase("roll", (0, 4), Check(max_roll=0.5), rest_wait=ROLL_REST_WAIT, lead_in=1),),
        rolls_over=True,
    )


ROLL_OVER_LEFT, ROLL_OVER_RIGHT = _roll_over("Left"), _roll_over("Right")


def shipped_routines() -> dict[FallDirection, GetUpRoutine]:
    """The routine for each side the robot may lie on."""
    names = set(shipped_script_names())
    return {
        # A mirror that is not shipped is dropped: every try plays the script itself.
        side: routine
        if routine.mirror is None or routine.mirror in names
        else attrs.evolve(routine, mirror=None)
        for side, routine in (
            (FallDirection.FRONT, FRONT),
            (FallDirection.BACK, BACK),
            (FallDirection.LEFT, ROLL_OVER_LEFT),
            (FallDirection.RIGHT, ROLL_OVER_RIGHT),
        )
        if routine.script in names and routine.phases
    }


#: Lying on the front: push up on straight arms, knees under into a "table" on hands and
#: feet, feet under the centre of mass (through a wide frog), rise (GetUpFront.yaml's header).
#: Windows: the forward lean measured at each boundary over 10 seeds, with margin (after the
#: push-up 1.67 rad, the table 1.76-1.77, the pike 1.88-1.93 with about 2.3 kg a foot).
FRONT = GetUpRoutine(
    "GetUpFront",
    "GetUpFront",
    (
        GetUpPhase(
            "push up",
            (0, 4),
            Check(pitch=(1.3, 2.0), max_roll=0.5),
            # The push-up starts from its first posture (arms along the body, out a little):
            # lagging arms (after the back get-up's roll, one under the chest) pushed up into a
            # head-down table, and the robot tipped onto its face in the feet-under.
            Arrival(_ARMS, tolerance=0.15, max_wait=0.6, frames=(0,)),
        ),
        GetUpPhase("knees under", (4, 7), Check(pitch=(1.55, 2.3), max_roll=0.5)),
        GetUpPhase(
            "feet under",
            (7, 9),
            Check(pitch=(1.35, 2.2), max_roll=0.5, feet_loaded=True),
            Arrival(_LEGS, tolerance=0.1),
        ),
        GetUpPhase("rise", (9, 16), _STANDING, Arrival(_LEGS, tolerance=0.25)),
    ),
)
#: Lying on the back: bridge, tip onto the right side, roll onto the front (GetUpBack.yaml's
#: header); then the side it lies on decides what comes next. Still on the back: start over,
#: tipping onto the left side (GetUpBackLeft, its mirror image) every other try: a body that
#: cannot tip one way tips the other. With a very hot right hip pitch (its stiffness capped)
#: the back get-up gave up after five tries from each of four starts; now all four stand, three
#: at the second try.
BACK = GetUpRoutine(
    "GetUpBack",
    "GetUpBack",
    (
        GetUpPhase(
            "bridge and roll",
            (0, 8),
            Check(pitch=(-1.2, 2.3)),
            # The tip needs the whole bridge under it: its lift (keyframe 1) waits for the legs.
            Arrival(_LEGS, tolerance=0.1, max_wait=0.3, frames=(1,)),
        ),
    ),
    rolls_over=True,
    mirror="GetUpBackLeft",
)
