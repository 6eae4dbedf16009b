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

A daemon started under a standing robot has commanded nothing: it holds the measured angles,
and a robot held stiff by the controller before it sags by its servos' error once more (in
naosim the knees by 0.07 rad: the torso went from 0.07 to 0.20 rad back, 0.23 at worst, and
1 cm down; on perturbed NAOs 0.16-0.22 rad back). So after the ramp each leg joint held at
its measured angle with a stiff goal is trimmed back to that angle: its target moves by
``TRIM_RATE`` of the error a cycle (an integrator around the servo), at most ``TRIM_LIMIT``
past the angle, until every such joint has stayed within ``TRIM_DONE`` of it for
``TRIM_SETTLED`` s, or ``TRIM_SECONDS`` have passed; then the task is Done. In naosim the
torso is back within 0.005 rad of its start pitch 2.5 s after the start (our NAO and
perturbed #3, #6, #9); the first half second's lean is the same.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

from director import Context, Director, RunReason
from lola_io.joints import JOINT_INDEX, JOINT_NAMES
from providers.actuation import GROUP_JOINTS, BodySequence, JointCommand, Legs, ServoTable

#: Stiffness steps of the ramp (a stiffness is one value per command).
RAMP_STEPS = 5
#: Below this commanded stiffness a joint is held where it measures, above it where it is
#: commanded.
SOFT = 0.5
#: The trim after the ramp (module docstring): the share of a leg joint's error its target
#: moves by a cycle (a 1.2 s time constant at 12 ms, slow beside the servo's own settling: at
#: 0.02 the body rocked 0.1 rad through the start posture and back for two seconds), the most
#: it moves past the held angle (rad), the error under which it counts as settled (rad) once
#: it has stayed there ``TRIM_SETTLED`` s, and the longest it lasts (s).
TRIM_RATE = 0.01
TRIM_LIMIT = 0.15
TRIM_DONE = 0.01
TRIM_SETTLED = 0.3
TRIM_SECONDS = 4.0
_LEGS = frozenset(GROUP_JOINTS[Legs])
_LEG_INDEX = tuple(JOINT_INDEX[name] for name in GROUP_JOINTS[Legs])


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
    ``stiffness``, over ``ramp`` seconds; legs held at their measured angles are trimmed back
    to them against their servos' sag; then Done (a joint nobody commands keeps its target
    and stiffness, so the robot stays held until some task moves it)."""

    leg_stiffness: float = attrs.field(default=1.0, validator=_unit)
    stiffness: float = attrs.field(default=0.6, validator=_unit)
    ramp: float = attrs.field(default=0.3, validator=_ramp)


def held_angles(
    measured: np.ndarray, commanded: np.ndarray, commanded_stiffness: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Where each joint is held: ``measured`` if its ``commanded_stiffness`` is below ``SOFT``
    and the angle is finite, else ``commanded``; and which joints take the measured angle."""
    measured = np.asarray(measured, dtype=np.float64)
    at_measured = (np.asarray(commanded_stiffness) < SOFT) & np.isfinite(measured)
    return np.where(at_measured, measured, np.asarray(commanded, dtype=np.float64)), at_measured


def hold_sequence(
    task: HoldPosture,
    measured: np.ndarray,
    applied: np.ndarray,
    commanded: np.ndarray,
    commanded_stiffness: np.ndarray,
) -> Any:
    """The BodySequence that holds each joint where it is (:func:`held_angles`) and ramps
    its stiffness from ``applied`` (the stiffness it has) to the task's."""
    held, _ = held_angles(measured, commanded, commanded_stiffness)
    positions = {name: float(held[i]) for i, name in enumerate(JOINT_NAMES)}
    start, end = {}, {}
    for i, name in enumerate(JOINT_NAMES):
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
    # The hold under way: the held angles, the leg joints being trimmed and their offsets, and
    # when the ramp ended, the last trim was sent and the trim settled (None: not yet).
    hold_state: dict[str, Any] = {}

    def hold(ctx: Context) -> None:
        if ctx.reason in (RunReason.NEW_TASK, RunReason.STARTED):
            commanded = np.array([servos.current(i, ctx.now) for i in range(len(JOINT_NAMES))])
            stiffness = np.array(servos.stiffness)
            measured = np.array(state.position, dtype=np.float64)
            ctx.emit(hold_sequence(ctx.task, measured, state.stiffness, commanded, stiffness))
            held, at_measured = held_angles(measured, commanded, stiffness)
            stiff_goal = ctx.task.leg_stiffness >= SOFT
            trimmed = [i for i in _LEG_INDEX if at_measured[i]] if stiff_goal else []
            hold_state.update(
                held=held,
                trimmed=trimmed,
                offset=np.zeros(len(trimmed)),
                since=None,
                trimmed_at=None,
                settled_since=None,
            )
            return
        if hold_state["since"] is None:
            if not ctx.uses(BodySequence).done:
                ctx.continue_()
                return
            hold_state["since"] = ctx.now
        if ctx.now == hold_state["trimmed_at"]:
            ctx.continue_()  # this cycle's trim is out (its command done at once): once a cycle
            return
        hold_state["trimmed_at"] = ctx.now
        trimmed, held = hold_state["trimmed"], hold_state["held"]
        error = held[trimmed] - np.asarray(state.position)[trimmed]
        if not np.all(np.abs(error) < TRIM_DONE):
            hold_state["settled_since"] = None
        elif hold_state["settled_since"] is None:
            hold_state["settled_since"] = ctx.now
        settled = hold_state["settled_since"]
        late = ctx.now - hold_state["since"] >= TRIM_SECONDS
        if not trimmed or late or (settled is not None and ctx.now - settled >= TRIM_SETTLED):
            ctx.done()
            return
        offset = hold_state["offset"]
        offset += TRIM_RATE * np.nan_to_num(error)
        np.clip(offset, -TRIM_LIMIT, TRIM_LIMIT, out=offset)
        targets = held.copy()
        targets[trimmed] += offset
        positions = {JOINT_NAMES[i]: float(targets[i]) for i in _LEG_INDEX}
        ctx.emit(Legs(JointCommand(positions, ctx.task.leg_stiffness)))
        ctx.continue_()

    director.provide(HoldPosture, hold, every_cycle=True, name="HoldPosture")
