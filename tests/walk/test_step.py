"""One step's plan (``skills.walk.step``): which foot leads, where a footstep puts the soles."""

from __future__ import annotations

import math

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skills.walk import Velocity, load_gait
from skills.walk.footsteps import PlannedStep
from skills.walk.odometry import Pose2D
from skills.walk.soles import SoleGeometry
from skills.walk.step import Foot, footstep_plan, move_feet, step_ends, step_size

GAIT = load_gait()
GEOMETRY = SoleGeometry()
STANCE = GEOMETRY.hip_y + GAIT.foot_spread


def _as_asked(forward, left, turn, limits):
    return forward, left, turn


@given(
    st.floats(-0.35, 0.35),
    st.floats(-0.25, 0.25),
    st.floats(-2.0, 2.0),
    st.booleans(),
    st.floats(0.0, 0.05),
    st.floats(0.2, 0.8),
)
def test_a_velocity_step_opens_with_the_leading_foot_and_catches_forwards(
    forward, left, turn, swing_left, catch, share
):
    size = step_size(GAIT, None, Velocity(forward, left, turn), frequency=1.0, calibrate=_as_asked)
    left_end, right_end = step_ends(size, swing_left, catch, open_share=share)
    swing, support = (left_end, right_end) if swing_left else (right_end, left_end)
    assert swing.x - support.x == pytest.approx(size.length + catch)
    leading = (left > 0.0) == swing_left and left != 0.0
    # Only the leading foot's step opens the feet, and it opens them outwards on both sides.
    assert left_end.y - right_end.y == pytest.approx(size.side if leading else 0.0)
    assert left_end.y >= 0.0 >= right_end.y
    # The body moves ``share`` of the opening over the support foot (away from it).
    assert abs(support.y) == pytest.approx(share * size.side if leading else 0.0)
    # Toes out, never in: the left foot turns left, the right one right.
    assert left_end.yaw >= 0.0 >= right_end.yaw


@given(
    st.floats(-0.08, 0.08),
    st.floats(0.10, 0.16),
    st.floats(-0.5, 0.5),
    st.booleans(),
)
def test_a_footstep_puts_the_swing_sole_where_asked_from_the_support_sole(x, width, theta, left):
    move = Pose2D(x, width if left else -width, theta)
    plan = footstep_plan(
        PlannedStep(left, move, 0.25),
        move,
        stance=STANCE,
        heel_shift=GEOMETRY.heel_shift,
        gait=GAIT,
    )

    def sole(foot, side):  # the sole's place, as SoleGeometry.pose puts it
        y = side * STANCE + foot.y + side * GEOMETRY.heel_shift(foot.yaw)
        return Pose2D(foot.x, y, foot.yaw)

    swing = sole(plan.left_end if left else plan.right_end, 1.0 if left else -1.0)
    support = sole(plan.right_end if left else plan.left_end, -1.0 if left else 1.0)
    landed = support.inverse().compose(swing)
    assert (landed.x, landed.y, landed.theta) == pytest.approx((x, move.y, theta), abs=1e-9)
    assert plan.velocity.forward == pytest.approx(x / 0.25)
    assert math.isfinite(plan.lift) and plan.lift >= GAIT.footstep_lift


def test_a_footstep_lifts_less_than_a_velocity_step_of_its_length_and_more_when_it_turns():
    # The higher and longer a foot is up, the further the body carries it past its aim.
    straight = Pose2D(0.05, 0.1, 0.0)
    turning = Pose2D(0.05, 0.1, 0.3)

    def lift(move, gait=GAIT):
        step = PlannedStep(True, move, 0.25)
        kw = {"stance": STANCE, "heel_shift": GEOMETRY.heel_shift, "gait": gait}
        return footstep_plan(step, move, **kw).lift

    velocity_step = GAIT.foot_lift + GAIT.lift_forward_gain * 0.05
    assert lift(straight) == pytest.approx(GAIT.footstep_lift + GAIT.footstep_lift_gain * 0.05)
    assert lift(straight) < velocity_step
    no_turn_term = attrs.evolve(GAIT, footstep_lift_turn=0.0)
    added = lift(turning) - lift(turning, no_turn_term)
    assert added == pytest.approx(GAIT.footstep_lift_turn * 0.3)


@given(
    st.floats(0.0, 1.0),
    st.floats(0.0, 0.3),
    st.floats(0.0, 0.4),
    st.floats(-0.1, 0.1),
    st.floats(-0.1, 0.1),
)
def test_the_side_lead_moves_the_swing_foot_sideways_sooner_and_only_sideways(
    s, lead, dead, start_y, end_y
):
    start, end = Foot(0.0, start_y, 0.0), Foot(0.04, end_y, 0.1)
    support = (Foot(0.0, 0.0, 0.0), Foot(-0.04, 0.0, 0.0))

    def feet(side_lead):
        swing, stand = Foot(), Foot()
        kw = {"lift": 0.03, "support_lift": 0.0, "side_dead_share": dead}
        move_feet(s, swing, stand, ends=((start, end), support), side_lead=side_lead, **kw)
        return swing, stand

    (plain, plain_support), (led, led_support) = feet(0.0), feet(lead)
    # Never past its end and never behind the plain profile: the lead only hurries it.
    travel = end_y - start_y
    done, plain_done = led.y - start_y, plain.y - start_y
    assert abs(done) <= abs(travel) + 1e-12
    assert abs(done) >= abs(plain_done) - 1e-12
    # Lifted, turned, moved forwards and supported as without the lead.
    assert (led.x, led.z, led.yaw) == (plain.x, plain.z, plain.yaw)
    assert led_support == plain_support
    if s + lead >= 1.0 - dead:
        assert led.y == pytest.approx(end_y, abs=1e-12)
