"""The standing kick's torso snap: the support hip leans the torso forwards over the wind-up
and snaps it back as the foot swings through the ball.

The whip (``skills.kick.whip``) runs the kicking hip and knee at their servos' torque-speed
limit, and they met the ball with the sole at about 1.1 m/s. Those joints' speeds are
relative to the pelvis; turning the pelvis itself adds to them. Leaning the torso forwards
about the support hip over the wind-up draws the kicking foot further back and up; snapping
it back while the foot swings carries the whole kicking leg forwards with the pelvis, as a
kicker's trunk does. Timed so that the torso turns back fastest as the foot reaches the ball
(about 1.4 rad/s), the sole meets it at about 1.6 m/s (naosim, traced). The support hip
drives the turn; its command moves no faster than the joint may (its velocity limit, what
the safety stage allows), so its servo runs flat out as the whip's do.

The lean pitches the kicking sole toe-down with the torso, and the whipped swing is kept off
the floor only just, on a plan with the torso upright (``whip.CLEARANCE``): a far ball's
swing stubbed its toe while the torso still leaned, and the ball was never touched. So the
whip winds the kicking ankle further toe-up by the lean (``Whip.around``'s ``toe_lift``).

Where the whip is applied at less than its whole share (to keep an aimed sole off the floor,
``whip.clear_of_floor``), so is its toe lift, and the snap follows it; with no whip, no snap.

The snap drives the foot along the robot's forward axis, not along an aimed swing. A kick
aimed across takes less of it (none at ``ACROSS``): all of it sent some kicks aimed at 30
degrees 46 degrees off.
"""

from __future__ import annotations

import attrs
import numpy as np

from providers.model import load_nao_model
from skills.kick.kick_ik import LEG_JOINTS

#: A kick aimed this far across (rad, the shipped ``max_direction``) has no snap; nearer
#: straight, a share growing linearly to all of it.
ACROSS = 0.6


@attrs.frozen
class TorsoSnap:
    """The support hip pitch (``index`` in ``LEG_JOINTS``) leaning the torso ``lean`` rad
    forwards over the wind-up, then from ``delay`` s after the swing began snapping it back
    to ``snap`` rad past the plan at ``speed`` (rad/s, the joint's limit), and eased back
    onto the plan over the hold."""

    lean: float
    snap: float
    delay: float
    speed: float
    index: int

    @classmethod
    def for_kick(
        cls, foot: str, lean: float, snap: float, delay: float, direction: float
    ) -> TorsoSnap | None:
        """The snap of a kick with ``foot`` ("left" or "right") aimed at ``direction`` (rad),
        ``lean`` and ``snap`` at its power; None when there is none to make."""
        share = max(0.0, 1.0 - abs(direction) / ACROSS)
        if share * max(lean, snap) <= 0.0:
            return None
        hip = ("R" if foot == "left" else "L") + "HipPitch"
        speed = load_nao_model().joints[hip].velocity
        return cls(lean * share, snap * share, delay, speed, LEG_JOINTS.index(hip))

    def scaled(self, share: float) -> TorsoSnap | None:
        """The snap at ``share`` of its lean and snap (the whip's share, whose toe lift keeps
        the leaned kick off the floor); None at no share."""
        if share <= 0.0:
            return None
        return attrs.evolve(self, lean=self.lean * share, snap=self.snap * share)

    def offset(self, phase: str, eased: float, swung: float) -> float:
        """The support hip pitch's offset (rad; positive leans the torso back) from the plan,
        ``phase`` being the kick's phase ``delay`` s before, ``eased`` its minimum-jerk
        progress (0 to 1) and ``swung`` the time since the swing began then (s)."""
        if phase == "winding":
            return -self.lean * eased
        if phase == "swinging":
            # From the lean to the snap at the joint's speed: a step would only be clipped to
            # it (the safety stage).
            return min(self.snap, -self.lean + self.speed * swung)
        if phase == "holding":
            # Back onto the plan at once: held through the hold, the torso went on turning
            # back and tipped bodies with twice --perturb's spreads over their heels.
            return min(self.snap, -self.lean + self.speed * swung) * (1.0 - eased)
        return 0.0

    def apply(self, command: np.ndarray, phase: str, eased: float, swung: float) -> np.ndarray:
        """``command`` (leg angles, ``LEG_JOINTS`` order) with the support hip pitch moved by
        :meth:`offset`."""
        out = np.array(command, dtype=float)
        out[self.index] += self.offset(phase, eased, swung)
        return out
