"""The kicking foot's swing: where it winds up, meets the ball and follows through, and the
torso shift that balances the robot on its support foot meanwhile (``KickMotion`` times the
swing and samples it; ``skills.kick.whip`` drives its pitch joints past it).

Planned as foot offsets in the frame of the ground under the support foot, a leg solution at
a time (the planning is a generator that yields after every solution, so a cycle pays for a
few of them only):

- **Wind-up W**: drawn back from the contact along the kick's direction to ``wind_back``
  behind the stand place, no further than a bent knee allows: at a straight knee the leg's
  solution flips between branches on the last bit of a float (the foot turned 30 degrees, the
  swing began from either, and one fell).
- **Single-support shift**: the torso shift that puts the centre of mass ``com_ahead`` in
  front of the support ankle with the foot at W.
- **Follow-through F**: ``on`` m past the contact C, no further than a bent knee allows (a leg
  held out straight alternates between the bent knee and its mirror from one cycle to the
  next, and the servo feed-forward makes radians of that: a half-power kick at the reach's
  edge commanded the knee -4.5 rad).
- **The curve**: a quadratic Bezier from W through C (at s = 0.5) to F, its three points
  checked reachable, and never within a centimetre of the support foot.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs
import numpy as np

from providers.model.robot_model import FootGeometry
from skills.kick.kick_ik import LEG_JOINTS, KickIK
from skills.kick.params import KickParameters
from skills.kick.reach import Contact, KickRefused, Reach

#: Torso-shift iterations per balanced posture (each one leg solution).
COM_ITERATIONS = 3
# The wind-up keeps the kicking knee bent at least this much (rad), drawing back less by steps.
_MIN_KNEE = 0.5
_WIND_STEP = 0.01
# The follow-through keeps the kicking knee bent at least this much (rad).
_MIN_FOLLOW_KNEE = 0.3


@attrs.frozen(eq=False)
class SwingCurve:
    """The swing from ``wind`` (W) through ``contact`` (C, at s = 0.5) to ``follow`` (F):
    kicking-foot offsets (x, y, z, m) off its place, in the support foot's ground frame;
    ``shift`` is the torso shift (x, y, m) that balances the robot with the foot at W."""

    wind: np.ndarray
    contact: np.ndarray
    follow: np.ndarray
    shift: np.ndarray
    control: np.ndarray = attrs.field(init=False)

    @control.default
    def _control(self) -> np.ndarray:
        return (self.contact - 0.25 * self.wind - 0.25 * self.follow) / 0.5

    def point(self, s: float) -> np.ndarray:
        """The foot's offset at ``s`` along the swing (0 at W, 0.5 at C, 1 at F)."""
        return (1 - s) ** 2 * self.wind + 2 * (1 - s) * s * self.control + s * s * self.follow


def plan_swing(
    ik: KickIK,
    params: KickParameters,
    com_offset: float,
    reach: Reach,
    contact: Contact,
    *,
    foot: str,
    sole: FootGeometry,
) -> Generator[None, None, SwingCurve]:
    """The swing of ``foot`` ("left" or "right") through ``contact``, yielding after every
    leg solution; raises :class:`KickRefused` when a point of it cannot be reached or it
    would hit the support foot. ``com_offset``: the walk stand's centre-of-mass offset (m,
    where the shift's search starts); ``sole``: the NAO's sole box."""
    p, u, yaw = params, contact.u, contact.yaw
    at = contact.at[:2]
    knee = LEG_JOINTS.index(f"{foot[0].upper()}KneePitch")
    target = np.array([p.com_ahead, 0.0])
    start_shift = np.array([com_offset, -ik.side * ik.stance])

    def balanced(
        point: np.ndarray, shift: np.ndarray, iterations: int, exact: bool
    ) -> Generator[None, None, tuple[np.ndarray, np.ndarray]]:
        """The torso shift from ``shift`` that balances the foot at ``point``, and the leg
        angles of its last solution."""
        for _ in range(iterations):
            q, _ = ik.solve(shift, point, yaw, exact=exact)
            shift = shift - (ik.com_in_support(q) - target)
            yield
        return shift, q

    back = reach.along(at, -u, (float(at[0]) + p.wind_back) / u[0])
    while True:
        wind = np.array([*(at - back * u), p.wind_height])
        shift, _ = yield from balanced(wind, start_shift, COM_ITERATIONS, exact=False)
        q, _ = ik.solve(shift, wind, yaw, exact=False)
        yield
        if q[knee] >= _MIN_KNEE or back <= _WIND_STEP:
            break
        back -= _WIND_STEP
    single, _ = yield from balanced(wind, start_shift, 2 * COM_ITERATIONS, exact=True)

    # Checked with the centre of mass balanced as the hold will be.
    on = contact.on
    while True:
        follow = np.array([*(at + on * u), p.follow_height])
        _, q = yield from balanced(follow, single, COM_ITERATIONS, exact=False)
        if q[knee] >= _MIN_FOLLOW_KNEE or on <= _WIND_STEP:
            break
        on -= _WIND_STEP

    curve = SwingCurve(wind, contact.at, follow, single)
    for point in (curve.wind, curve.contact, curve.follow):
        _, ok = ik.solve(single, point, yaw, exact=False)
        yield
        if not ok:
            x, y, z = point
            raise KickRefused(
                f"the {foot} foot cannot reach ({x:.2f}, {y:.2f}, {z:.2f}) m of the swing"
            )
    gap = 2.0 * ik.stance - 2.0 * sole.inner
    for s in np.linspace(0.0, 1.0, 21):
        x, y, _ = curve.point(s)
        if x < sole.front + sole.rear and -reach.lateral(y) > gap - 0.01:
            raise KickRefused(f"the {foot} foot would hit the support foot")
    return curve


__all__ = ["COM_ITERATIONS", "SwingCurve", "plan_swing"]
