"""One step of the walk: how long and how far it goes, where it puts the feet, and the feet on
the way there (plain maths; the generator asks for a step's plan when the step begins and for
the feet every cycle).

Feet are planned as offsets from their places under the hips in the upright hip frame ``H``
(:class:`Foot`). A velocity step moves the swing foot forwards by half its length and slides
the support foot back by the other half; sideways and turning steps open with the leading
foot (left when moving or turning left) and close with the other, so the feet never cross
and both toe out (the one hip yaw-pitch motor serves both legs). A planned footstep places
the swing foot where it was asked, both feet symmetric about the hips.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import attrs

from skills.walk.footsteps import PlannedStep
from skills.walk.odometry import Pose2D
from skills.walk.params import GaitParameters, share_of
from skills.walk.profiles import lift_profile, linear_step, smooth_step
from skills.walk.request import Velocity

# Offsets this small count as feet together (m, rad): a step cut short by an early touchdown
# leaves the feet a little off their places, and chasing millimetres takes extra steps; the
# stand keeps them where they are.
_TOGETHER = 0.005
_TOGETHER_YAW = 0.03
_SETTLE_SHARE = 0.2  # of a step: time the new support foot takes to put down a leftover lift

#: Maps a velocity (and the speed limits) to the one steps are planned for
#: (``skills.walk.calibration``).
Calibration = Callable[
    [float, float, float, tuple[float, float, float]], tuple[float, float, float]
]


@attrs.define
class Foot:
    """One foot's offset from its place under the hip (H frame): m, m, rad, m of lift."""

    x: float = 0.0
    y: float = 0.0
    yaw: float = 0.0
    z: float = 0.0

    def together(self) -> bool:
        """Whether the foot is back at its stand place."""
        return abs(self.x) < _TOGETHER and abs(self.y) < _TOGETHER and abs(self.yaw) < _TOGETHER_YAW


@attrs.frozen
class StepSize:
    """A velocity step: its forward ``length``, sideways opening ``side`` (m) and ``turn``
    (rad), its ``period`` (s) and ``lift`` (m), and the calibrated sideways and turning
    speeds that decide which foot leads (``left`` m/s, ``turning`` rad/s)."""

    length: float
    side: float
    turn: float
    period: float
    lift: float
    left: float
    turning: float


def step_size(
    gait: GaitParameters,
    own: GaitParameters | None,
    v: Velocity,
    *,
    frequency: float,
    calibrate: Calibration,
    first: bool = False,
    lengthen: bool = True,
) -> StepSize:
    """The size of a step at velocity ``v``: ``gait`` is the walk's, ``own`` the swinging
    foot's own (NAOqi's per-foot move config; None: the walk's), ``frequency`` the share of
    the gait's step frequency; the ``first`` step from a stand lifts ``start_lift_share`` as
    high; without ``lengthen`` a forward step keeps the plain period."""
    g = gait
    steps = g if own is None else own  # the gait of this foot's steps
    period = steps.step_period + steps.period_side_increase * share_of(v.left, g.max_left)
    period -= steps.period_turn_decrease * share_of(v.turn, g.max_turn)
    if lengthen and v.forward > 0.0:
        period += steps.period_forward_increase * share_of(v.forward, g.max_forward)
    period /= frequency
    top = g.max_forward if v.forward >= 0.0 else g.max_backward
    vf, vl, vt = calibrate(v.forward, v.left, v.turn, (top, g.max_left, g.max_turn))
    f = vf * period
    side = abs(vl) * 2.0 * period
    turn = abs(vt) * 2.0 * period
    if own is not None:
        # The foot's own largest step where its config narrows the gait's (NAOqi's
        # MaxStepX, MaxStepY, MaxStepTheta for it): a length, whatever the step's period.
        f = min(_narrowed(own.max_forward, g.max_forward, own.step_period), f)
        f = max(-_narrowed(own.max_backward, g.max_backward, own.step_period), f)
        side = min(2.0 * _narrowed(own.max_left, g.max_left, own.step_period), side)
        turn = min(2.0 * _narrowed(own.max_turn, g.max_turn, own.step_period), turn)
    lift = steps.foot_lift + steps.lift_forward_gain * abs(f) + steps.lift_side_gain * side
    if first:
        lift *= steps.start_lift_share
    return StepSize(f, side, turn, period, lift, vl, vt)


def step_ends(
    size: StepSize, swing_left: bool, catch: float = 0.0, *, open_share: float = 0.5
) -> tuple[Foot, Foot]:
    """Where a velocity step of ``size`` (its ``length`` perhaps reshaped) puts the left and
    the right foot; the swing foot lands ``catch`` m further forwards. A sideways step that
    opens the feet moves the body ``open_share`` of the opening over the support foot (the
    swing foot the rest); the closing step brings both back under the hips."""
    vl, vt, side, turn = size.left, size.turning, size.side, size.turn
    lead_side = (vl > 0.0) == swing_left and vl != 0.0
    lead_turn = (vt > 0.0) == swing_left and vt != 0.0
    swing_x, support_x = size.length / 2.0, -size.length / 2.0
    swing_x += catch
    swing_y, support_y = (side * (1.0 - open_share), side * open_share) if lead_side else (0.0, 0.0)
    left_end = Foot(
        swing_x if swing_left else support_x,
        swing_y if swing_left else support_y,
        turn / 2.0 if lead_turn else 0.0,
    )
    right_end = Foot(
        support_x if swing_left else swing_x,
        -(support_y if swing_left else swing_y),
        -turn / 2.0 if lead_turn else 0.0,
    )
    return left_end, right_end


@attrs.frozen
class FootstepPlan:
    """A planned footstep's ends (left, right), the velocity it makes and its lift (m)."""

    left_end: Foot
    right_end: Foot
    velocity: Velocity
    lift: float


def footstep_plan(
    step: PlannedStep,
    aim: Pose2D,
    *,
    stance: float,
    heel_shift: Callable[[float], float],
    gait: GaitParameters,
    catch: float = 0.0,
) -> FootstepPlan:
    """The feet's ends for ``step``, its swing foot aimed at ``aim`` (the support foot's frame),
    both feet placed symmetrically about the hips (each moves half of it); ``stance`` is a
    foot's place from the hip centre, ``heel_shift`` how far a foot turned by a yaw is moved
    out (``SoleGeometry.heel_shift``)."""
    g = gait
    m = step.move
    # The support foot ends at yaw -theta/2, the swing foot at +theta/2: the swing foot's
    # offset from the support foot, turned into the hips' frame.
    c, s = math.cos(-aim.theta / 2.0), math.sin(-aim.theta / 2.0)
    dx, dy = c * aim.x - s * aim.y, s * aim.x + c * aim.y
    side = 1.0 if step.left else -1.0  # the swing foot's side
    # Both soles are moved out by their toe-out's heel shift (``SoleGeometry.pose``); the
    # ends are moved in by as much, so the feet land as far apart as asked (the clip
    # already kept their boxes apart).
    heel = heel_shift(aim.theta / 2.0)
    swing = Foot(dx / 2.0, dy / 2.0 - side * (stance + heel), aim.theta / 2.0)
    support = Foot(-dx / 2.0, -dy / 2.0 + side * (stance + heel), -aim.theta / 2.0)
    swing.x += catch
    left_end, right_end = (swing, support) if step.left else (support, swing)
    lateral = abs(dy) - 2.0 * stance
    period = step.period
    velocity = Velocity(m.x / period, side * lateral / period, m.theta / period)
    lift = g.footstep_lift + g.footstep_lift_gain * abs(dx) + g.lift_side_gain * abs(lateral)
    lift += g.footstep_lift_turn * abs(aim.theta)
    return FootstepPlan(left_end, right_end, velocity, lift)


def move_feet(
    s: float,
    swing: Foot,
    support: Foot,
    *,
    ends: tuple[tuple[Foot, Foot], tuple[Foot, Foot]],
    lift: float,
    support_lift: float,
    side_dead_share: float,
    side_lead: float = 0.0,
) -> None:
    """Put the ``swing`` and ``support`` foot where they are at phase ``s`` of their step:
    ``ends`` are the swing foot's (start, end) and the support foot's; the swing foot lifts by
    ``lift``, the support foot puts down the ``support_lift`` it was left with; the swing
    foot's sideways travel runs ``side_lead`` of the step ahead of the rest of its motion."""
    lin, par, up = linear_step(s), smooth_step(s), lift_profile(s)
    (sw0, sw1), (su0, su1) = ends
    # A foot moves sideways only once it is off the ground (rUNSWift's dead time), and may run
    # ahead of the lift (the generator's closing lead).
    side = smooth_step(min(1.0, s + side_lead), side_dead_share)
    for foot, a, b, k, ky in ((swing, sw0, sw1, par, side), (support, su0, su1, lin, lin)):
        foot.x = a.x + (b.x - a.x) * k
        foot.y = a.y + (b.y - a.y) * ky
        foot.yaw = a.yaw + (b.yaw - a.yaw) * k
    swing.z = lift * up
    settle = min(1.0, s / _SETTLE_SHARE)
    support.z = support_lift * (1.0 - smooth_step(settle))


def _narrowed(own: float, limit: float, period: float) -> float:
    """A foot's largest step (``own`` speed limit over ``period``), or no bound where its own
    limit is not below the gait's ``limit``."""
    return own * period if own < limit else math.inf
