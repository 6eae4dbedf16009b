"""The standing kick's whip: the kicking leg's pitch joints driven flat out through the ball.

A swing that follows its curve at a joint speed the servos can track meets the ball with the
sole at 0.9-1.0 m/s: along a low, nearly straight path the hip and the knee share the work, and
neither runs near its limit. Commanded a posture far away at once, each servo instead runs at
its torque-speed limit. So the whip winds the kicking hip pitch and knee up by ``whip`` past
the posture in which the plan meets the ball (the ankle pitch the other way by as much, so the
toe does not drop), then, when the swing begins, moves the targets on to the posture
``whip_follow`` past it as fast as the joints may move (their velocity limit, 6.4 rad/s, which
the safety stage would hold them to anyway): the servos fall behind and run at their
torque-speed limit, and the joints, moved by equal amounts, pass the contact posture together,
the thigh swinging forward while the knee straightens. Hanging from a hand in naosim
the sole then passes 1.3-1.5 m/s; in a kick it meets the ball at about 1.1 m/s.

Only the kicking leg's three pitch joints are driven so; everything else (the support leg's
balance, the hip roll and yaw that aim the foot) follows the plan.

Aimed across the body, the plan turns the leg with the hip yaw-pitch and roll while the pitch
joints run ahead of it, and early in the swing the sole's inner toe dipped below the floor
(0.7 cm on the plan, 0.38-0.45 rad aimed; in naosim the toe stubbed, the robot tipped onto the
kicking side and fell on two of seven perturbed NAOs). :func:`clear_of_floor` applies less of
the whip (its joints nearer the plan's own) until the plan keeps the sole's corners above the
floor through the swing and the hold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import attrs
import numpy as np

from providers.model import load_nao_model
from skills.kick.kick_ik import LEG_JOINTS, KickIK
from skills.kick.swing_curve import COM_ITERATIONS

PITCH_JOINTS = ("HipPitch", "KneePitch", "AnklePitch")
# Winding up moves the hip back and bends the knee (both positive) and lifts the toe.
_WIND = np.array([1.0, 1.0, -1.0])
_ANKLE = PITCH_JOINTS.index("AnklePitch")
#: The kicking sole's lowest corner stays this high (m) over the floor along the whipped swing,
#: on the plan (1 cm would also take whip from kicks aimed 0.3 rad across, whose plan keeps
#: 0.1 cm in the hold and which stand).
CLEARANCE = 0.0
# Halvings of the whip's scale in the search for the largest that clears the floor.
_CUTS = 4


@attrs.frozen
class Whip:
    """The kicking leg's pitch joints (``indices`` in ``LEG_JOINTS`` order): their targets
    wound up (``wound``) and driven to (``driven``) within the joints' limits, moved between
    at ``speed``, and applied at ``share`` of the way from the plan's own."""

    indices: tuple[int, ...]
    wound: np.ndarray
    driven: np.ndarray
    speed: float

    #: How much of the whip is applied (1: all; 0: the plan's own pitch joints).
    share: float = 1.0

    def scaled(self, share: float) -> Whip:
        """The whip applied ``share`` of the way from the plan's pitch joints."""
        return attrs.evolve(self, share=share)

    @classmethod
    def around(
        cls, foot: str, contact: np.ndarray, wind: float, follow: float, toe_lift: float = 0.0
    ) -> Whip:
        """The whip of ``foot`` ("left" or "right") about the leg angles ``contact`` (the
        plan's posture at the ball), ``wind`` and ``follow`` rad either side of it; the
        ankle wound ``toe_lift`` rad further, toe up, within its limit (for the torso's
        forward lean, ``skills.kick.torso_snap``: the swing then starts with the toe lifted
        and the ankle catches up on its way to the driven posture)."""
        side = foot[0].upper()
        names = [side + name for name in PITCH_JOINTS]
        joints = load_nao_model().joints
        lower = np.array([joints[name].lower for name in names])
        upper = np.array([joints[name].upper for name in names])
        indices = tuple(LEG_JOINTS.index(name) for name in names)
        at = np.clip(np.asarray(contact, dtype=float)[list(indices)], lower, upper)
        # Cut as a whole where a joint's limit comes first: the joints move by equal amounts,
        # so that they pass the contact posture together.
        up, down = (
            np.where(_WIND > 0, upper - at, at - lower),
            np.where(_WIND > 0, at - lower, upper - at),
        )
        wind, follow = min(wind, float(up.min())), min(follow, float(down.min()))
        wound = at + wind * _WIND
        wound[_ANKLE] = max(float(lower[_ANKLE]), float(wound[_ANKLE]) - toe_lift)
        return cls(
            indices,
            wound,
            at - follow * _WIND,
            min(joints[name].velocity for name in names),
        )

    def path(self, plan: np.ndarray, phase: str, eased: float, swung: float) -> np.ndarray:
        """The plan's leg angles ``plan`` in ``phase`` with the whip's joints replaced: eased
        (by ``eased``, 0 to 1 over the phase) from the plan onto the wind-up while winding,
        moving from the wind-up to the driven posture at ``speed`` for ``swung`` s (since the
        swing began) through the swing and the hold, and eased back onto the plan while
        retracting."""
        idx = list(self.indices)
        out = np.array(plan, dtype=float)
        own = out[idx]
        if phase == "winding":
            out[idx] = (1.0 - eased) * own + eased * self.wound
        elif phase in ("swinging", "holding"):
            reach = self.speed * swung
            out[idx] = self.wound + np.clip(self.driven - self.wound, -reach, reach)
        elif phase == "retracting":
            out[idx] = eased * own + (1.0 - eased) * self.driven
        if self.share != 1.0:
            out[idx] = own + self.share * (out[idx] - own)
        return out


def clear_of_floor(
    whip: Whip, ik: KickIK, plan_at: Callable[[float], np.ndarray], times: Sequence[float]
) -> Iterator[None]:
    """The whip (the generator's value) scaled down until the kicking sole's corners stay
    ``CLEARANCE`` over the floor at ``times`` (s since the swing began; past its end, the
    hold): ``plan_at(t)`` is the plan's leg angles then. Yields after every plan looked at
    and every cut; the whip as it is when it clears already, None when no share of it does."""
    looks = []
    for t in times:
        looks.append((plan_at(t), t))
        yield

    def lowest(candidate: Whip) -> float:
        return min(ik.lowest_corner(candidate.path(q, "swinging", 1.0, t)) for q, t in looks)

    if lowest(whip) >= CLEARANCE:
        return whip
    low, high = 0.0, 1.0
    for _ in range(_CUTS):
        yield
        middle = 0.5 * (low + high)
        if lowest(whip.scaled(middle)) >= CLEARANCE:
            low = middle
        else:
            high = middle
    return whip.scaled(low) if low > 0.0 else None


def plan_whip(
    ik: KickIK,
    shift: np.ndarray,
    com: np.ndarray,
    yaw: float,
    contact: np.ndarray,
    wind: float,
    follow: float,
    toe_lift: float = 0.0,
) -> Iterator[None]:
    """The whip about the plan's contact posture (the generator's value), yielding after
    every leg solution: the kicking foot at ``contact`` (its offset), solved with the torso
    shifted from ``shift`` until the centre of mass is at ``com`` over the support ankle, as
    the plan balances it, aside from the plan's own solutions (``KickIK.solve_aside``); the
    ankle wound ``toe_lift`` further (``Whip.around``)."""
    for _ in range(COM_ITERATIONS):
        q, _ = ik.solve_aside(shift, contact, yaw)
        shift = shift - (ik.com_in_support(q) - com)
        yield
    return Whip.around(ik.foot, q, wind, follow, toe_lift)
