"""The walk's next step, planned as it begins: its velocity, its size and where it puts the feet
(plain maths; ``WalkGenerator`` asks at each step's start and keeps the answer as its stride).

- **Acceleration limits**: the executed velocity follows the clamped request by at most one
  step's allowed change, read at the start of each step (slowing to walk on elsewhere more
  gently than stopping: ``skills.walk.request.ratchet``).
- **A forward fall** (the torso leaning ``back_step_lean`` past the gait's lean at a step's
  start) takes no backward step, and **a backward lean** (``slow_lean`` behind it, averaged
  over about a step) slows a forward walk until it has passed, as does a forward lean
  (``fast_lean`` past it) at speed (``skills.walk.request.step_velocity``); a step that
  begins falling backwards is a catch step, except just after an in-walk kick, where only a
  deep fall is caught and a smaller one (``_KICK_STILL_LEAN``) steps in place.
- **In-walk kicks**: with a kick pending, the request gains a sideways speed that brings the
  ball onto a foot's line (``skills.walk.kick_step.line_up``), and each step is shaped by
  ``skills.walk.kick_step.shape_step``: the kick step through the ball, the placing step
  before it, or an ordinary step.
- **Stepping into a lean**: leaning further forward (or back) than the gait's lean, averaged
  over the last step, the swing foot lands further out (``catch_pitch``; B-Human's and HTWK's
  step adjustment in its simplest form).
- **Footsteps** (``skills.walk.footsteps``) are placed where they were asked, aimed by the
  placement model; their velocity is their placement over their period.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from skills.walk.footsteps import PlannedStep
from skills.walk.kick_step import KickStep, line_up, shape_step
from skills.walk.odometry import Pose2D
from skills.walk.params import GaitParameters, between, share_of
from skills.walk.posture import BodySense
from skills.walk.request import Velocity, clamp_request, step_velocity
from skills.walk.soles import SoleGeometry
from skills.walk.step import Calibration, Foot, footstep_plan, step_ends, step_size
from skills.walk.stride import Stride, closing_lead

#: Steps after an in-walk kick's step before a backward fall is caught again ...
KICK_SETTLE_STEPS = 2
#: ... unless the torso leans back further than this past the gait's lean (rad): a kick
#: step two steps after a start from StandInit left a perturbed NAO 0.27 and 0.41 rad back
#: at the next two steps, and uncaught it fell (docs: "Pushed from the front").
_KICK_CATCH_LEAN = 0.3
#: A step just after an in-walk kick's step that begins leaning back further than this (rad
#: past the gait's lean; short of ``_KICK_CATCH_LEAN``) is made in place, and the walk
#: ratchets on from a standstill: on a body whose centre of mass sits back (perturbed #31
#: with twice --perturb's spreads: the torso's 8.6 mm back, 4 cycles' delay) the step walked
#: on tipped the body back over it, 8 of 32 in-walk kicks at 0.15 and 0.22 m/s fell; 2 now
#: (docs: "The in-walk kick").
_KICK_STILL_LEAN = 0.25


def lined_up(
    gait: GaitParameters,
    target: Velocity,
    kick: KickStep | None,
    geometry: SoleGeometry,
) -> Velocity:
    """The request with the sideways speed that lines a pending ``kick``'s ball up with a foot
    added; only walking at the ball: a behaviour stepping aside or back keeps its request.
    ``geometry``: the soles' (each foot's place off the hip centre, and the sole's front: a
    ball the next steps reach is lined up no further than one step goes)."""
    if kick is None or target.forward <= 0.0:
        return target
    stance = geometry.hip_y + gait.foot_spread
    side = line_up(kick, stance, gait.step_period, front=geometry.sole_front)
    if side == 0.0:
        return target
    return clamp_request(gait, target.forward, target.left + side, target.turn)


def walk_velocity(
    gait: GaitParameters,
    executed: Velocity,
    target: Velocity,
    body: BodySense,
    lean: float,
    steps_since_kick: int,
    caught: bool = False,
) -> tuple[Velocity, bool]:
    """The velocity of a step that follows another velocity step, and whether it is a catch
    step: ``executed``, the last one's, ratcheted towards ``target`` with the balance guards
    (``step_velocity``); ``lean`` is the torso's pitch past the gait's lean now (rad, +
    forwards); ``caught``: the last step was a catch step."""
    if caught:
        # A catch step's backward speed is not the walk's: the step after it ratchets from a
        # standstill (from a 0.3 m/s catch the next step went back 0.18 m/s under a body
        # already pitching forwards again, and fell that way: docs, "A deep backward lean").
        executed = Velocity(0.0, executed.left, executed.turn)
    # An in-walk kick's swing pitches the body back as a push from the front would (0.2
    # rad): no catch step in the steps after it (with them, the walk went on 0.10 m in the
    # second after a kick, not 0.17), unless it leans back further; between the two the
    # step is made in place.
    settled = steps_since_kick >= KICK_SETTLE_STEPS or lean < -_KICK_CATCH_LEAN
    v = step_velocity(
        gait, executed, target, lean, body.pitch_error_mean, body.gyro_y, catch=settled
    )
    if not settled and lean < -_KICK_STILL_LEAN and v.forward > 0.0:
        return Velocity(0.0, v.left, v.turn), False
    # Walking forwards and asked to, the ratchet never turns a step backwards: a catch does.
    return v, executed.forward > 0.0 > v.forward and target.forward > 0.0


@attrs.frozen
class StepShape:
    """What a velocity step needs besides its velocity: the step's own gait (a foot's, or
    None), the share of the gait's step frequency, the calibration, whether the walk lines
    up an in-walk kick (its steps are not lengthened), and the kick to shape this step for
    (None: an ordinary step)."""

    own: GaitParameters | None
    frequency: float
    calibrate: Calibration
    lining_up: bool
    kick: KickStep | None


def velocity_stride(
    gait: GaitParameters,
    v: Velocity,
    shape: StepShape,
    *,
    feet: tuple[Foot, Foot],
    swing_left: bool,
    first: bool,
    geometry: SoleGeometry,
    pitch_error: float,
) -> tuple[Stride, str | None]:
    """The stride of a step at ``v`` from ``feet`` (left, right, as they are), and its role in
    an in-walk kick ("kick", "placing" or None); ``pitch_error``: the torso's pitch past the
    gait's lean, averaged over the last step (rad)."""
    stance = geometry.hip_y + gait.foot_spread
    size = step_size(
        gait,
        shape.own,
        v,
        frequency=shape.frequency,
        calibrate=shape.calibrate,
        first=first,
        lengthen=not shape.lining_up,
    )
    role = None
    if shape.kick is not None:
        left, right = feet
        swing, support = (left, right) if swing_left else (right, left)
        f, period, lift, role = shape_step(
            shape.kick,
            swing_left,
            behind=support.x - swing.x,
            stance=stance,
            front=geometry.sole_front,
            step=(size.length, size.period, size.lift),
            step_period=gait.step_period,
            longest=longest_step(gait, shape.calibrate),
        )
        size = attrs.evolve(size, length=f, period=period, lift=lift)
    catch = gait.catch_pitch * pitch_error
    # The body leads a sideways opening in proportion to the sideways speed: a walk that
    # only trims its drift sideways keeps Walk2014's half (pushes survived, docs).
    share = between(0.5, gait.side_open_share, share_of(v.left, gait.max_left))
    start = (attrs.evolve(feet[0]), attrs.evolve(feet[1]))
    end = step_ends(size, swing_left, catch, open_share=share)
    stride = Stride(
        size.period,
        start,
        end,
        lift=size.lift,
        support_lift=(feet[1] if swing_left else feet[0]).z,
        side_lead=closing_lead(gait, start, end, swing_left, v),
        first=first,
    )
    return stride, role


def longest_step(gait: GaitParameters, calibrate: Calibration) -> float:
    """The walk's longest step as it plans it: calibrated, as its own steps are (a placing
    step capped at the uncalibrated length left the ball out of reach where the walk's steps
    go 30 % further, and the kick step met it late in its swing)."""
    limits = (gait.max_forward, gait.max_left, gait.max_turn)
    return calibrate(gait.max_forward, 0.0, 0.0, limits)[0] * gait.step_period


def footstep_stride(
    gait: GaitParameters,
    step: PlannedStep,
    aim: Callable[[Pose2D, bool], Pose2D],
    *,
    feet: tuple[Foot, Foot],
    geometry: SoleGeometry,
    pitch_error: float,
) -> tuple[Stride, Velocity]:
    """The stride of a planned footstep (the swing foot lands at ``step.move`` in the support
    foot's frame, as ``aim`` aims it, both feet placed symmetrically about the hips), and the
    velocity it makes."""
    plan = footstep_plan(
        step,
        aim(step.move, step.left),
        stance=geometry.hip_y + gait.foot_spread,
        heel_shift=geometry.heel_shift,
        gait=gait,
        catch=gait.catch_pitch * pitch_error,
    )
    stride = Stride(
        step.period,
        (attrs.evolve(feet[0]), attrs.evolve(feet[1])),
        (plan.left_end, plan.right_end),
        lift=plan.lift,
        support_lift=(feet[1] if step.left else feet[0]).z,
    )
    return stride, plan.velocity


__all__ = [
    "KICK_SETTLE_STEPS",
    "StepShape",
    "footstep_stride",
    "lined_up",
    "longest_step",
    "velocity_stride",
    "walk_velocity",
]
