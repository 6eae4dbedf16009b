"""Holding a posture: keep the joints where they are, stiffening smoothly.

``HoldPosture`` is what a daemon started on a standing robot emits first (the start-up hold),
and what the robot gets once it is put down after being lifted or stood up by hand: each joint
is held where it is, and the stiffness ramps from what the joints have (the sensor frame
reports the applied stiffness) to ``stiffness`` over ``ramp`` seconds, so a robot held by its
old controller is not dropped and a limp one is not jerked.

"Where it is" is the measured angle for a soft joint (below ``SOFT``: it goes where the load
puts it) and the commanded one for a stiff joint: a stiff joint under load sits a little short
of its target, and making its measured angle the new target would let it sag by that much
again, and a knee that sags tips the robot over.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

from director import Context, Director, RunReason
from lola_io.joints import JOINT_NAMES
from providers.actuation import GROUP_JOINTS, BodySequence, JointCommand, Legs, ServoTable

#: Stiffness steps of the ramp (a stiffness is one value per command).
RAMP_STEPS = 5
#: Below this commanded stiffness a joint is held where it measures, above it where it is
#: commanded.
SOFT = 0.5
_LEGS = frozenset(GROUP_JOINTS[Legs])


def _unit(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{attribute.name} must be a number, got {value!r}")
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{attribute.name} must be within [0, 1], got {value!r}")


def _ramp(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"ramp must be a number of seconds, got {value!r}")
    if not (math.isfinite(value) and 0.0 < value <= 10.0):
        raise ValueError(f"ramp must be within (0, 10] s, got {value!r}")


@attrs.frozen
class HoldPosture:
    """Hold the measured posture; legs stiffen to ``leg_stiffness``, the rest to
    ``stiffness``, over ``ramp`` seconds, then Done (a joint nobody commands keeps its target
    and stiffness, so the robot stays held until some task moves it)."""

    leg_stiffness: float = attrs.field(default=1.0, validator=_unit)
    stiffness: float = attrs.field(default=0.6, validator=_unit)
    ramp: float = attrs.field(default=0.3, validator=_ramp)


def hold_sequence(
    task: HoldPosture,
    measured: np.ndarray,
    applied: np.ndarray,
    commanded: np.ndarray,
    commanded_stiffness: np.ndarray,
) -> Any:
    """The BodySequence that holds each joint where it is (``measured`` if its
    ``commanded_stiffness`` is below ``SOFT`` or the angle is not finite, else ``commanded``)
    and ramps its stiffness from ``applied`` (the stiffness it has) to the task's."""
    positions = {}
    start, end = {}, {}
    for i, name in enumerate(JOINT_NAMES):
        angle = float(measured[i])
        stiff = commanded_stiffness[i] >= SOFT
        positions[name] = float(commanded[i]) if stiff or not math.isfinite(angle) else angle
        have = float(applied[i])
        start[name] = min(1.0, max(0.0, have)) if math.isfinite(have) else 0.0
        end[name] = task.leg_stiffness if name in _LEGS else task.stiffness
    frames = []
    for k in range(1, RAMP_STEPS + 1):
        share = k / RAMP_STEPS
        stiffness = {n: start[n] + (end[n] - start[n]) * share for n in positions}
        frames.append(JointCommand(positions, stiffness, task.ramp / RAMP_STEPS))
    return BodySequence(frames)


def register_hold(director: Director, servos: ServoTable, state: Any) -> None:
    """Register the HoldPosture provider (reads ``state.position`` and ``state.stiffness``)."""

    def hold(ctx: Context) -> None:
        if ctx.reason in (RunReason.NEW_TASK, RunReason.STARTED):
            commanded = np.array([servos.current(i, ctx.now) for i in range(len(JOINT_NAMES))])
            stiffness = np.array(servos.stiffness)
            ctx.emit(hold_sequence(ctx.task, state.position, state.stiffness, commanded, stiffness))
            return
        if ctx.uses(BodySequence).done:
            ctx.done()
            return
        ctx.continue_()

    director.provide(HoldPosture, hold, name="HoldPosture")
