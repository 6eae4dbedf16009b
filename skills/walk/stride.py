"""The step under way (:class:`Stride`): where its feet start and end, its period, lift and
time so far; the feet moved along it every cycle, and whether it has ended (support exchange
by foot pressure, or its time out). The generator plans a stride as each step begins.
"""

from __future__ import annotations

from typing import Any

import attrs

from skills.walk.params import GaitParameters
from skills.walk.posture import finite, sideways_share
from skills.walk.request import Velocity
from skills.walk.step import Foot, move_feet

_LEAD_RAMP = 0.4  # of a step: the share over which the lead is built up
#: Share of a straight sideways walk's full speed (``sideways_share``) from which a closing
#: foot's lead (``close_lead``) grows, to its full value at the limit.
_CLOSE_LEAD_FROM = 0.75


def _feet() -> tuple[Foot, Foot]:
    return Foot(), Foot()


@attrs.define
class Stride:
    """One step: the feet's (left, right) ``start`` and ``end`` offsets, its ``period`` (s),
    the swing foot's ``lift`` and the lift the support foot still has to put down (m), how far
    the swing foot's sideways travel runs ahead (``side_lead``, share of the step), whether it
    is the walk's first step, or a kill's step that lands where the feet were (``landing``),
    and its time so far ``t`` (s)."""

    period: float
    start: tuple[Foot, Foot] = attrs.field(factory=_feet)
    end: tuple[Foot, Foot] = attrs.field(factory=_feet)
    lift: float = 0.0
    support_lift: float = 0.0
    side_lead: float = 0.0
    first: bool = False
    landing: bool = False
    t: float = 0.0

    @property
    def share(self) -> float:
        """How far through its period the step is (1 at its planned end)."""
        return self.t / self.period

    @property
    def remaining(self) -> float:
        """Seconds left until its planned end (0 past it)."""
        return max(0.0, self.period - self.t)

    def move(self, left: Foot, right: Foot, swing_left: bool, gait: GaitParameters) -> None:
        """Put the ``left`` and ``right`` foot where the step has them now."""
        # The feet are commanded ``lead`` seconds ahead, so that they arrive when planned
        # despite the actuation delay and the servos' lag. The lead is built up over the first
        # part of the step (the feet start a little faster), never as a jump.
        t, lead = self.t, gait.lead
        if lead > 0.0:
            t += lead * min(1.0, t / (_LEAD_RAMP * self.period))
        s = min(1.0, t / self.period)
        (l0, r0), (l1, r1) = self.start, self.end
        move_feet(
            s,
            left if swing_left else right,
            right if swing_left else left,
            ends=((l0, l1), (r0, r1)) if swing_left else ((r0, r1), (l0, l1)),
            lift=self.lift,
            support_lift=self.support_lift,
            side_dead_share=gait.side_dead_share,
            side_lead=self.side_lead,
        )

    def ended(self, fsr: Any, swing_left: bool, gait: GaitParameters) -> bool:
        """Whether the step has ended: the swing foot carries weight (at least
        ``switch_pressure`` kg, more than the support foot) past ``switch_min_phase`` of the
        period; past ``switch_timeout`` periods (a kill's step: its period) it ends anyway.
        ``fsr``: the eight FSR readings (kg)."""
        t, period = self.t, self.period
        if t >= gait.switch_timeout * period or (self.landing and t >= period):
            return True
        if t < gait.switch_min_phase * period:
            return False
        left = finite(fsr[0] + fsr[1] + fsr[2] + fsr[3], 0.0)
        right = finite(fsr[4] + fsr[5] + fsr[6] + fsr[7], 0.0)
        swing, support = (left, right) if swing_left else (right, left)
        return swing >= gait.switch_pressure and swing > support


def closing_lead(
    gait: GaitParameters,
    start: tuple[Foot, Foot],
    end: tuple[Foot, Foot],
    swing_left: bool,
    v: Velocity,
) -> float:
    """How far (share of the step) the swing foot's sideways travel runs ahead of its lift on
    a step from ``start`` to ``end`` at ``v``: ``close_lead`` on a closing step (the foot comes
    back towards the hips) walking straight sideways near the limit, none otherwise.

    The swing hip roll lags its command (naosim's servo follows a moving target 51 ms late,
    damping over gain, and the actuation delay adds 24-48 ms), and the body, rolling towards a
    late closing foot, puts it down early and short of the hips: the steps after such a
    landing are wide and irregular. An opening foot that ran ahead made the walk slower; on
    every step, walks to poses (sideways while going forwards and turning) had a foot put
    down early and short now and then, and their next position was off by up to 2.8 cm
    (docs, "Sideways: a closing foot that runs ahead")."""
    i = 0 if swing_left else 1
    if abs(end[i].y) >= abs(start[i].y):
        return 0.0
    side = sideways_share(gait, v.forward, v.left, v.turn)
    return gait.close_lead * max(0.0, side - _CLOSE_LEAD_FROM) / (1.0 - _CLOSE_LEAD_FROM)


__all__ = ["Stride", "closing_lead"]
