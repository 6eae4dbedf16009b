"""The standing kick's whip (skills/kick/whip.py), on the model: the kicking leg's pitch joints
wound up past the contact posture and driven through it together, at their velocity limit,
everything else as planned (no physics: tests/kick/test_kick_sim.py kicks in naosim)."""

from __future__ import annotations

import math

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from motiond.simulated import start_pose
from providers.model import load_nao_model
from skills.kick import Kick, load_kick_parameters, plan_kick
from skills.kick.motion import LEG_JOINTS
from skills.kick.whip import PITCH_JOINTS, Whip
from skills.walk.params import load_gait

MODEL = load_nao_model()
PARAMS = load_kick_parameters()
GAIT = load_gait()
START = start_pose("StandInit")
RIGHT = [LEG_JOINTS.index("R" + name) for name in PITCH_JOINTS]
LOWER = np.array([MODEL.joints["R" + name].lower for name in PITCH_JOINTS])
UPPER = np.array([MODEL.joints["R" + name].upper for name in PITCH_JOINTS])


def contact_postures():
    return st.tuples(*(st.floats(lo, hi) for lo, hi in zip(LOWER, UPPER, strict=True)))


@settings(max_examples=60)
@given(contact_postures(), st.floats(0.0, 1.2), st.floats(0.0, 1.0))
def test_the_joints_are_wound_and_driven_by_equal_amounts_within_their_limits(at, wind, follow):
    legs = np.zeros(len(LEG_JOINTS))
    legs[RIGHT] = at
    whip = Whip.around("right", legs, wind, follow)
    assert whip.indices == tuple(RIGHT)
    for posture in (whip.wound, whip.driven):
        assert np.all(posture >= LOWER - 1e-12) and np.all(posture <= UPPER + 1e-12)
    # Hip and knee one way, the ankle the other, all by the same amount: cut as a whole
    # where a limit comes first, never joint by joint.
    up, down = whip.wound - np.array(at), np.array(at) - whip.driven
    assert up[0] == pytest.approx(up[1]) == pytest.approx(-up[2])
    assert down[0] == pytest.approx(down[1]) == pytest.approx(-down[2])
    assert 0.0 <= up[0] <= wind + 1e-12 and 0.0 <= down[0] <= follow + 1e-12
    # Not cut while every joint has room.
    room = min(UPPER[0] - at[0], UPPER[1] - at[1], at[2] - LOWER[2])
    if wind <= room:
        assert up[0] == pytest.approx(wind)


@settings(max_examples=60)
@given(
    st.sampled_from(["settling", "shifting", "winding", "swinging", "holding", "retracting"]),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.lists(st.floats(-1.0, 1.0), min_size=len(LEG_JOINTS), max_size=len(LEG_JOINTS)),
)
def test_the_whip_moves_only_its_joints_and_those_no_faster_than_their_limit(
    phase, eased, swung, plan
):
    contact = np.zeros(len(LEG_JOINTS))
    contact[RIGHT] = [-1.0, 1.0, 0.0]
    whip = Whip.around("right", contact, 0.8, 0.4)
    plan = np.array(plan)
    out = whip.path(plan, phase, eased, swung)
    others = [i for i in range(len(LEG_JOINTS)) if i not in RIGHT]
    np.testing.assert_array_equal(out[others], plan[others])
    moved = out[RIGHT]
    if phase in ("settling", "shifting"):
        np.testing.assert_array_equal(moved, plan[RIGHT])
    elif phase == "winding":
        # From the plan at the start onto the wind-up at the end.
        np.testing.assert_allclose(moved, (1.0 - eased) * plan[RIGHT] + eased * whip.wound)
    elif phase == "retracting":
        # From the driven posture back onto the plan.
        np.testing.assert_allclose(moved, eased * plan[RIGHT] + (1.0 - eased) * whip.driven)
    else:
        # From the wind-up towards the driven posture, at most speed x time, never past it.
        travelled = np.abs(moved - whip.wound)
        assert np.all(travelled <= whip.speed * swung + 1e-12)
        assert np.all(travelled <= np.abs(whip.driven - whip.wound) + 1e-12)
        if swung * whip.speed >= 1.2:
            np.testing.assert_allclose(moved, whip.driven)


def commands(kick: Kick, params=PARAMS) -> tuple[object, np.ndarray]:
    motion = plan_kick(kick, params, GAIT, START)
    return motion, np.array([motion.command(k) for k in range(motion.cycles)])


@pytest.mark.parametrize("kick", [Kick(0.19, -0.05), Kick(0.17, 0.0, math.radians(30.0))])
def test_a_full_power_kick_swings_its_pitch_joints_from_the_wind_up_at_their_limit(kick):
    motion, sent = commands(kick)
    whip = motion._whip
    idx = list(whip.indices)
    delay = int(PARAMS.servo_delay)
    swinging = [k for k in range(motion.cycles) if motion.phase(k + delay) == "swinging"]
    first, last = swinging[0], swinging[-1]
    # Wound up when the swing starts, then on at the joints' velocity limit, together.
    np.testing.assert_allclose(sent[first - 1, idx], whip.wound, atol=1e-3)
    limit = whip.speed * motion.period
    step = np.abs(np.diff(sent[first - 1 : last + 1, idx], axis=0))
    assert np.all(step <= limit + 1e-3)
    moving = step[1:, 0] > 1e-9
    np.testing.assert_allclose(step[1:][moving, 1], step[1:][moving, 0])
    assert step.max() == pytest.approx(limit)
    # Well past the contact posture by the end of the hold, and wound well before it.
    travelled = np.abs(sent[last, idx] - whip.wound)
    assert np.all(travelled > 0.8)
    # The support leg is the plan's: the same commands as without the whip (the torso snap,
    # which goes with the whip and moves the support hip, off in both: test_torso_snap.py).
    upright = attrs.evolve(PARAMS, torso_lean=0.0, torso_snap=0.0)
    _, whipped = commands(kick, upright)
    _, unwhipped = commands(kick, attrs.evolve(upright, whip=0.0, whip_follow=0.0))
    others = [i for i in range(len(LEG_JOINTS)) if i not in idx]
    np.testing.assert_array_equal(whipped[:, others], unwhipped[:, others])


def test_without_a_whip_the_kick_is_the_swing_along_its_curve():
    plain = attrs.evolve(PARAMS, whip=0.0, whip_follow=0.0)
    motion, _ = commands(Kick(0.19, -0.05), plain)
    assert motion._whip is None
    zero_power, _ = commands(Kick(0.19, -0.05, power=0.0))
    assert zero_power._whip is None


def _lowest_along_the_swing(motion) -> float:
    """The kicking sole's lowest corner over the floor (m) on the plan with the whip, from
    the wind-up to the end of the hold."""
    ik = motion._ik
    phases = ("winding", "swinging", "holding")
    return min(
        ik.lowest_corner(motion._path(k)) for k in range(motion.cycles) if motion.phase(k) in phases
    )


@pytest.mark.parametrize(
    "kick",
    [Kick(0.169, -0.05, 0.4, 0.7), Kick(0.169, 0.05, -0.45, 1.0), Kick(0.169, -0.05, 0.38, 0.5)],
)
def test_a_kick_aimed_across_the_body_keeps_its_sole_off_the_floor(kick, monkeypatch):
    # The whip's pitch joints run ahead of the hip roll and yaw that aim the foot across:
    # the inner toe dipped below the floor, stubbed, and the robot fell onto the kicking side.
    motion = plan_kick(kick, PARAMS, GAIT, START)
    assert motion.duration > 0.0  # timed: the whip is settled
    assert motion._whip is not None and motion._whip.share < 1.0  # less of the whip
    assert _lowest_along_the_swing(motion) > -0.002  # looked at every third cycle
    # Without the cut the plan digs in; less far with the ankle wound toe-up for the torso's
    # forward lean (skills/kick/torso_snap.py).
    monkeypatch.setattr("skills.kick.whip.CLEARANCE", -1.0)
    assert _lowest_along_the_swing(plan_kick(kick, PARAMS, GAIT, START)) < -0.001
    upright = attrs.evolve(PARAMS, torso_lean=0.0, torso_snap=0.0)
    assert _lowest_along_the_swing(plan_kick(kick, upright, GAIT, START)) < -0.004


def test_a_straight_kick_keeps_its_whole_whip():
    motion = plan_kick(Kick(0.19, -0.05), PARAMS, GAIT, START)
    assert motion.duration > 0.0
    assert motion._whip.share == 1.0


def test_a_whip_applied_at_no_share_is_the_plan():
    legs = np.zeros(len(LEG_JOINTS))
    legs[RIGHT] = (-0.7, 0.7, 0.0)
    whip = Whip.around("right", legs, 1.0, 0.6)
    plan = np.linspace(-0.3, 0.3, len(LEG_JOINTS))
    for phase in ("winding", "swinging", "holding", "retracting"):
        np.testing.assert_allclose(whip.scaled(0.0).path(plan, phase, 0.5, 0.05), plan)
        half = whip.scaled(0.5).path(plan, phase, 0.5, 0.05)
        np.testing.assert_allclose(half, 0.5 * (plan + whip.path(plan, phase, 0.5, 0.05)))
