"""Where the kicking foot meets the ball, and how far it reaches: the kick's geometry before
any leg is solved.

The foot meets the ball with its front, ``penetration`` into it, at ``contact_height``,
moving in the kick's direction, and follows through along it; sideways the foot reaches
``max_inward`` towards the support foot and ``max_outward`` away from its place, forwards
``min_contact_x`` to ``max_contact_x`` ahead of it (``skills/kick/kick.yaml``). A ball the
foot cannot meet so is refused (:class:`KickRefused`) before anything moves.
"""

from __future__ import annotations

import math

import attrs
import numpy as np

from skills.kick.params import KickParameters
from skills.kick.tasks import Kick
from skills.walk.kick_step import BALL_RADIUS


class KickRefused(ValueError):
    """The kick cannot be made as asked; the message says why."""


@attrs.frozen
class Reach:
    """The kicking foot's reach about its place: ``side`` +1 for the left foot, -1 for the
    right (outward is away from the support foot)."""

    side: float
    params: KickParameters

    def lateral(self, y: float) -> float:
        """How far ``y`` (m, off the kicking foot's place) is outward, away from the support."""
        return self.side * y

    def along(self, start: np.ndarray, u: np.ndarray, length: float) -> float:
        """``length``, cut so that ``start`` + ``length`` ``u`` stays between the foot's
        inward and outward reach."""
        p = self.params
        sideways = self.lateral(float(u[1]))
        if sideways > 0.0:
            length = min(length, (p.max_outward - self.lateral(float(start[1]))) / sideways)
        elif sideways < 0.0:
            length = min(length, (p.max_inward + self.lateral(float(start[1]))) / -sideways)
        return max(length, 0.0)


@attrs.frozen
class Contact:
    """Where the foot meets the ball (``at``: x, y, z off its place) moving along ``u`` (the
    kick's direction, turned by ``yaw``), and where its swing ends: ``on`` m further along,
    at ``end``."""

    u: np.ndarray
    yaw: float
    at: np.ndarray
    on: float
    end: np.ndarray


def place_contact(kick: Kick, foot: str, stance: float, reach: Reach, front: float) -> Contact:
    """Where the ``foot`` ("left" or "right") meets ``kick``'s ball, its place ``stance`` m
    beside the middle of the feet and its sole ``front`` m long ahead of the ankle; raises
    :class:`KickRefused` when the direction or the ball is beyond its reach."""
    p, theta = reach.params, kick.direction
    if abs(theta) > p.max_direction:
        raise KickRefused(
            f"direction {math.degrees(theta):.0f} deg is beyond the kick's "
            f"±{math.degrees(p.max_direction):.0f} deg"
        )
    ball = np.array([kick.ball_x, kick.ball_y - reach.side * stance])
    u = np.array([math.cos(theta), math.sin(theta)])
    contact = ball - (BALL_RADIUS - p.penetration + front) * u
    outward = reach.lateral(contact[1])
    if not (p.min_contact_x <= contact[0] <= p.max_contact_x) or not (
        -p.max_inward <= outward <= p.max_outward
    ):
        raise KickRefused(
            f"ball ({kick.ball_x:.2f}, {kick.ball_y:+.2f}) m kicked at "
            f"{math.degrees(theta):.0f} deg is out of reach of the {foot} foot: it "
            f"would meet the ball {contact[0]:.2f} m ahead and {outward:+.2f} m outward of "
            f"its place, where it reaches {p.min_contact_x:.2f} to {p.max_contact_x:.2f} m "
            f"ahead and {-p.max_inward:+.2f} to {p.max_outward:+.2f} m outward"
        )
    # Through the contact on along the direction: the foot meets the ball moving in the
    # kick's direction. Sideways the end stays where the foot reaches.
    on = reach.along(contact, u, p.follow_through)
    return Contact(
        u,
        theta,
        np.array([*contact, p.contact_height]),
        on,
        np.array([*(contact + on * u), p.follow_height]),
    )


__all__ = ["Contact", "KickRefused", "Reach", "place_contact"]
