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
and a robot held stiff by the controller before it would sag by its servos' error once more
(in naosim the knees by 0.07 rad: the torso went 0.16 rad further back and 1 cm down in the
first half second, 0.11-0.25 rad on 18 other bodies). So each leg joint held at its measured
angle with a stiff goal is commanded past it by the servo's give under the posture's static
load (:func:`load_offsets`: the model's leg statics, the weight shared as the FSRs say, over
the servo stiffness ``SERVO_STIFFNESS`` at the task's leg stiffness), from the first frame
at the stiffness the joint has: the torso moved at most 0.02 rad and 1 mm (0.06 rad and 3 mm
on 18 other bodies). What the model or the stiffness gets wrong (a body's other masses, a
gearbox's friction) is trimmed after the ramp: each such joint's target moves by
``TRIM_RATE`` of its error a cycle (an integrator around the servo), at most ``TRIM_LIMIT``
past the angle, until every such joint has stayed within ``TRIM_DONE`` of it for
``TRIM_SETTLED`` s, or ``TRIM_SECONDS`` have passed; then the task is Done. In naosim the
torso ends within 0.009 rad of its start pitch and 0.2 mm of its height on those 19 bodies.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

from director import Context, Director, RunReason
from lola_io.joints import JOINT_INDEX, JOINT_NAMES
from providers.actuation import GROUP_JOINTS, BodySequence, JointCommand, Legs, ServoTable
from providers.model.statics import LEG_CHAINS, SERVO_STIFFNESS, nao_leg_statics

#: Stiffness steps of the ramp (a stiffness is one value per command).
RAMP_STEPS = 5
#: Below this commanded stiffness a joint is held where it measures, above it where it is
#: commanded.
SOFT = 0.5
#: The trim after the ramp (module docstring): the share of a leg joint's error its target
#: moves by a cycle (a 1.2 s time constant at 12 ms, slow beside the servo's own settling: at
#: 0.02 the body rocked 0.1 rad through the start posture and back for two seconds), the most
#: it moves past the held angle (rad), the error under which it counts as settled (rad) once
#: it has stayed there ``TRIM_SETTLED`` s (at 0.01 a trim that began near, after the load's
#: offsets, settled at once and left torsos up to 0.014 rad forwards), and the longest it
#: lasts (s).
TRIM_RATE = 0.01
TRIM_LIMIT = 0.15
TRIM_DONE = 0.005
TRIM_SETTLED = 0.3
TRIM_SECONDS = 4.0
#: Below this total FSR load (kg) the feet carry too little for the statics' load split.
LOADED_KG = 1.0
_LEGS = frozenset(GROUP_JOINTS[Legs])
_LEG_INDEX = tuple(JOINT_INDEX[name] for name in GROUP_JOINTS[Legs])
# Where each of the statics' twelve torques goes: the right hip yaw-pitch is the left's motor.
_STATICS_INDEX = np.array(
    [JOINT_INDEX.get(name, JOINT_INDEX["LHipYawPitch"]) for chain in LEG_CHAINS for name in chain]
)


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


def load_offsets(task: HoldPosture, measured: np.ndarray, fsr: np.ndarray) -> np.ndarray:
    """How far past its angle each leg joint is commanded so that, at the task's leg
    stiffness, its servo holds the static load of the posture ``measured`` with the weight
    shared between the feet as ``fsr`` (8, kg) says (25 values, LoLA order; at most
    ``TRIM_LIMIT``, 0 off the legs). Zeros when the legs are not to be stiff, the feet carry
    nothing or a measurement is not finite."""
    offsets = np.zeros(len(JOINT_NAMES))
    measured = np.asarray(measured, dtype=np.float64)
    fsr = np.asarray(fsr, dtype=np.float64)
    total = float(fsr.sum())
    stiff = task.leg_stiffness >= SOFT
    if not (stiff and math.isfinite(total) and total > LOADED_KG and np.isfinite(measured).all()):
        return offsets
    left_share = min(1.0, max(0.0, float(fsr[:4].sum()) / total))
    torques = nao_leg_statics().torques(measured, left_share)
    np.add.at(offsets, _STATICS_INDEX, torques / (SERVO_STIFFNESS * task.leg_stiffness))
    return np.clip(offsets, -TRIM_LIMIT, TRIM_LIMIT)


def hold_sequence(
    task: HoldPosture,
    measured: np.ndarray,
    applied: np.ndarray,
    commanded: np.ndarray,
    commanded_stiffness: np.ndarray,
    offsets: np.ndarray | None = None,
) -> Any:
    """The BodySequence that holds each joint where it is (:func:`held_angles`), its target
    ``offsets`` past that (25, rad: the servos' give under the load, :func:`load_offsets`),
    and ramps its stiffness from ``applied`` (the stiffness it has) to the task's."""
    held, at_measured = held_angles(measured, commanded, commanded_stiffness)
    if offsets is not None:
        held = held + np.where(at_measured, offsets, 0.0)
    positions = {name: float(held[i]) for i, name in enumerate(JOINT_NAMES)}
    start, end = {}, {}
    for i, name in enumerate(JOINT_NAMES):
        have = float(applied[i])
        start[name] = min(1.0, max(0.0, have)) if math.isfinite(have) else 0.0
        end[name] = task.leg_stiffness if name in _LEGS else task.stiffness
    # The targets at once, at the stiffness the joints have: eased in over the ramp, a joint
    # held past its angle would first be commanded nearer it and give way (the knees of a
    # robot held stiff by its old controller by 0.025 rad, its torso 0.04 rad back).
    frames = [JointCommand(positions, dict(start), 0.0)]
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
            offsets = load_offsets(ctx.task, measured, state.fsr)
            ctx.emit(
                hold_sequence(ctx.task, measured, state.stiffness, commanded, stiffness, offsets)
            )
            held, at_measured = held_angles(measured, commanded, stiffness)
            stiff_goal = ctx.task.leg_stiffness >= SOFT
            trimmed = [i for i in _LEG_INDEX if at_measured[i]] if stiff_goal else []
            hold_state.update(
                held=held,
                trimmed=trimmed,
                offset=offsets[trimmed],
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
