"""StepCalibration: gains, drift biases and the heading hold, fed with synthetic steps."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skills.walk.calibration import (
    BIAS_LIMIT,
    GAIN_MAX,
    GAIN_MIN,
    HEADING_LIMIT,
    StepCalibration,
)
from skills.walk.odometry import Pose2D

STEP = 0.25  # s


def _walk(cal: StepCalibration, planned, speeds, steps: int) -> Pose2D:
    """Feed ``steps`` steps planned at ``planned`` whose measured velocity is ``speeds(cal)``
    (robot frame, rad/s for turn); returns the last pose."""
    pose = Pose2D()
    t = 0.0
    for _ in range(steps):
        vx, vy, w = speeds(cal)
        pose = pose.compose(Pose2D(vx * STEP, vy * STEP, w * STEP))
        t += STEP
        cal.step_ended(pose, t, planned)
    return pose


@given(ratio=st.floats(0.3, 2.0))
def test_the_forward_gain_moves_towards_the_shortfall_and_stays_bounded(ratio):
    cal = StepCalibration()
    # The robot covers ``ratio`` of what the calibrated step plans.
    _walk(cal, (0.2, 0.0, 0.0), lambda c: (0.2 * c.gains[0] * ratio, 0.0, 0.0), 80)
    gain = cal.gains[0]
    assert GAIN_MIN <= gain <= GAIN_MAX[0]
    wanted = 1.0 / ratio
    if GAIN_MIN < wanted < GAIN_MAX[0]:
        assert gain == pytest.approx(wanted, rel=0.05)


def test_a_drift_on_a_still_axis_is_cancelled_within_its_limit():
    cal = StepCalibration()
    # Walking forwards, the robot creeps sideways at 1 cm/s more than the bias cancels.
    _walk(cal, (0.2, 0.0, 0.0), lambda c: (0.2, 0.01 + c.biases[1], 0.0), 60)
    assert cal.biases[1] == pytest.approx(-0.01, abs=0.002)
    assert abs(cal.biases[1]) <= BIAS_LIMIT[1]


def test_the_heading_is_held_against_a_turning_drift():
    cal = StepCalibration()
    # A body that turns left at 0.1 rad/s on its own, whatever it is asked.
    end = _walk(
        cal,
        (0.2, 0.0, 0.0),
        lambda c: (0.2, 0.0, 0.1 + c.biases[2] + c.heading_turn),
        120,
    )
    assert abs(end.theta) < 0.05, "the heading came back"
    assert abs(cal.heading_turn) <= HEADING_LIMIT


def test_the_heading_hold_is_bounded_and_steers_back():
    cal = StepCalibration()
    # The robot was turned 1 rad off its heading by a push: the hold steers back, bounded.
    pose = _walk(cal, (0.2, 0.0, 0.0), lambda c: (0.2, 0.0, 0.0), 3)
    pose = Pose2D(pose.x, pose.y, pose.theta - 1.0)
    cal.step_ended(pose, 10.0, (0.2, 0.0, 0.0))
    assert cal.heading_turn == HEADING_LIMIT


def test_a_turn_too_slow_to_count_is_followed_not_held():
    cal = StepCalibration()
    # 0.1 rad/s asked (below the speed that counts as turning) and reached: no correction.
    end = _walk(cal, (0.2, 0.0, 0.1), lambda c: (0.2, 0.0, 0.1), 40)
    assert abs(cal.heading_turn) < 1e-6
    assert math.isclose(end.theta, math.remainder(0.1 * 40 * STEP, math.tau), abs_tol=1e-9)


def test_no_hold_when_turning_or_standing():
    cal = StepCalibration()
    _walk(cal, (0.0, 0.0, 1.0), lambda c: (0.0, 0.0, 0.5), 10)
    assert cal.heading is None and cal.heading_turn == 0.0
    _walk(cal, (0.0, 0.0, 0.0), lambda c: (0.0, 0.0, 0.05), 10)
    assert cal.heading is None and cal.heading_turn == 0.0
    assert cal.apply(0.0, 0.0, 0.0) == (0.0, 0.0, 0.0)


def test_gains_belong_to_one_kind_of_walk_and_apply_by_their_axis_share():
    cal = StepCalibration()
    limits = (0.35, 0.25, 2.0)
    # Turning on the spot, the robot turns 60 % of the plan: the turn gain grows.
    _walk(cal, (0.0, 0.0, 1.5), lambda c: (0.0, 0.0, 1.5 * c.gains[2] * 0.6), 40)
    assert cal.gains[2] > 1.4
    assert cal.apply(0.0, 0.0, 1.5, limits)[2] == pytest.approx(1.5 * cal.gains[2])
    # Combined with an equal share of sideways motion, half of the gain's excess applies.
    turn = cal.apply(0.0, 0.125, 1.0, limits)[2]
    assert turn == pytest.approx(1.0 * (1.0 + (cal.gains[2] - 1.0) * 0.5))
    # A new kind of walk (sideways and turning: another set of moving axes) starts afresh.
    _walk(cal, (0.0, 0.15, 1.0), lambda c: (0.0, 0.15, 1.0), 1)
    assert cal.gains == [1.0, 1.0, 1.0]
