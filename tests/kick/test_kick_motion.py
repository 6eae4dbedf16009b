"""The kick's motion, checked on the model: reach, balance, contact, and where it starts and
ends (no physics: tests/kick/test_kick_sim.py kicks in naosim)."""

from __future__ import annotations

import math

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from motiond.simulated import start_pose
from providers.model import load_nao_model, nao_kinematics
from skills.kick import Kick, KickPlanner, KickRefused, load_kick_parameters, plan_kick
from skills.kick.motion import LEG_INDEX, LEG_JOINTS
from skills.walk.kick_step import BALL_RADIUS
from skills.walk.params import load_gait

PARAMS = load_kick_parameters()
GAIT = load_gait()
START = start_pose("StandInit")
MODEL = load_nao_model()
KIN = nao_kinematics()


def body(motion, k: int) -> np.ndarray:
    q = START.copy()
    q[list(LEG_INDEX)] = motion.planned(k)
    return q


def test_a_straight_kick_meets_the_ball_with_the_front_of_the_foot():
    motion = plan_kick(Kick(0.19, -0.05), PARAMS, GAIT, START)
    assert motion.foot == "right"
    k = round(motion.contact_time / motion.period)
    assert motion.phase(k) == "swinging"
    left, right = KIN.sole_poses(body(motion, k))
    # In the support sole's frame, where the ground stays put.
    local = np.linalg.inv(left) @ right
    stand_left, stand_right = KIN.sole_poses(body(motion, 0))
    place = (np.linalg.inv(stand_left) @ stand_right)[:3, 3]
    toe = local[:3, 3] + local[:3, 0] * MODEL.foot.front - place
    # The toe meets the ball's back (less the planned penetration), in line with its centre.
    assert toe[0] == pytest.approx(0.19 - BALL_RADIUS + PARAMS.penetration, abs=0.01)
    assert abs(toe[1]) < 0.01
    # At ball height, with the sole level.
    assert local[2, 3] == pytest.approx(PARAMS.contact_height, abs=0.01)
    assert abs(math.asin(local[0, 2])) < 0.1


def test_the_kick_starts_where_the_legs_are_and_ends_in_the_walk_stand():
    motion = plan_kick(Kick(0.19, 0.05), PARAMS, GAIT, START)
    assert motion.foot == "left"
    np.testing.assert_allclose(motion.planned(0), START[list(LEG_INDEX)], atol=1e-9)
    end = motion.planned(motion.cycles - 1)
    walk_stand = plan_kick(Kick(0.19, -0.05), PARAMS, GAIT, START)._stand_q
    np.testing.assert_allclose(end, walk_stand, atol=1e-3)


@settings(max_examples=12)
@given(
    st.floats(0.16, 0.21),
    st.floats(-0.07, 0.07),
    st.sampled_from([-0.5, 0.0, 0.5]),
    st.floats(0.0, 1.0),
)
def test_planned_kicks_keep_the_centre_of_mass_over_the_support_foot_and_the_knee_bent(
    x, y, direction, power
):
    try:
        motion = plan_kick(Kick(x, y, direction, power), PARAMS, GAIT, START)
    except KickRefused:
        return
    lower = np.array([MODEL.joints[n].lower for n in LEG_JOINTS])
    upper = np.array([MODEL.joints[n].upper for n in LEG_JOINTS])
    knee = LEG_JOINTS.index(f"{motion.foot[0].upper()}KneePitch")
    for k in range(motion.cycles):
        q = motion.command(k)
        assert np.all(np.isfinite(q))
        # Never held out straight, where the leg's solution flips between branches.
        assert motion.planned(k)[knee] > 0.25
        if not motion.single_support(k):
            continue
        planned = motion.planned(k)
        assert np.all(planned >= lower - 1e-6) and np.all(planned <= upper + 1e-6)
        left, right = KIN.sole_poses(body(motion, k))
        support = right if motion.foot == "left" else left
        com = KIN.center_of_mass(body(motion, k))
        local = support[:3, :3].T @ (com - support[:3, 3])
        # Inside the sole box with a margin of 2 cm.
        assert -MODEL.foot.rear + 0.02 < local[0] < MODEL.foot.front - 0.02
        assert abs(local[1]) < MODEL.foot.inner - 0.01


@pytest.mark.parametrize(
    ("kick", "words"),
    [
        (Kick(0.45, -0.05), "0.45, -0.05\\) m kicked at 0 deg is out of reach"),
        (Kick(0.05, -0.05), "out of reach"),
        (Kick(0.19, -0.25), "out of reach"),
        (Kick(0.19, -0.05, 1.2), "direction 69 deg is beyond the kick's ±34 deg"),
        (Kick(0.19, 0.3, foot="right"), "out of reach of the right foot"),
    ],
)
def test_balls_out_of_reach_are_refused_with_the_reason(kick, words):
    with pytest.raises(KickRefused, match=words):
        plan_kick(kick, PARAMS, GAIT, START)


def test_auto_takes_the_foot_on_the_balls_side():
    assert plan_kick(Kick(0.18, -0.05), PARAMS, GAIT, START).foot == "right"
    assert plan_kick(Kick(0.18, 0.06), PARAMS, GAIT, START).foot == "left"
    # Aimed 30 degrees left from in front of the right foot: the right foot, swinging inwards.
    assert plan_kick(Kick(0.17, -0.03, math.radians(30.0)), PARAMS, GAIT, START).foot == "right"


def test_power_sets_the_swing_speed():
    slow = plan_kick(Kick(0.19, -0.05, power=0.2), PARAMS, GAIT, START)
    fast = plan_kick(Kick(0.19, -0.05, power=1.0), PARAMS, GAIT, START)
    assert fast.contact_time < slow.contact_time


@pytest.mark.parametrize("kick", [Kick(0.19, -0.05), Kick(0.17, 0.0, math.radians(-30.0))])
def test_a_plan_made_a_few_solutions_a_cycle_is_the_plan_made_at_once(kick):
    whole = plan_kick(kick, PARAMS, GAIT, START)
    planner = KickPlanner(kick, PARAMS, GAIT, START)
    cycles = 1
    while (motion := planner.advance(8)) is None:
        cycles += 1
    # Spread over a few cycles, not one.
    assert 2 <= cycles <= 8
    # The same solutions in the same order, so the same plan.
    planned = [motion.planned(k) for k in range(motion.cycles)]
    np.testing.assert_array_equal(planned, [whole.planned(k) for k in range(whole.cycles)])


@pytest.mark.parametrize(
    "kick",
    [Kick(0.19, 0.05), Kick(0.15, -0.05, 0.3, 0.5), Kick(0.2, 0.09, 0.0, 0.8)],
)
def test_the_engine_s_plan_timed_and_sampled_cycle_by_cycle_is_the_plan_made_at_once(kick):
    # The engine times the swing and looks along the whip a few solutions a cycle while it
    # samples the settle and the shift; the swing's timing once started from whatever torso
    # turn the last sample had left, and the kicks the robot made differed from these plans
    # by up to 0.2 rad in the swing.
    whole = plan_kick(kick, PARAMS, GAIT, START)
    expected = [whole.command(k) for k in range(whole.cycles)]
    planner = KickPlanner(kick, PARAMS, GAIT, START)
    while (motion := planner.advance(3)) is None:
        pass
    commands, k = [], 0
    while not motion.finished(k):
        motion.prepare(1)
        commands.append(motion.command(k))
        k += 1
    np.testing.assert_array_equal(commands, expected)


def test_a_pose_out_of_reach_found_while_planning_is_refused_by_advance():
    # The ball inside the contact box, but the wind-up asked higher than the leg reaches
    # once the body balances on one foot: found after a few solutions, not at once.
    params = attrs.evolve(PARAMS, wind_height=0.1)
    planner = KickPlanner(Kick(0.19, -0.05), params, GAIT, START)
    with pytest.raises(KickRefused, match="right foot cannot reach"):
        while planner.advance(8) is None:
            pass
