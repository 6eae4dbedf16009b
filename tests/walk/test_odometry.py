"""The odometry's robot position: the middle of the feet, facing the body's heading."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skills.walk.odometry import LegOdometry, Pose2D

coordinates = st.floats(-2.0, 2.0)
angles = st.floats(-math.pi, math.pi)
soles = st.builds(Pose2D, st.floats(-0.1, 0.1), st.floats(-0.15, 0.15), st.floats(-0.5, 0.5))


@given(st.builds(Pose2D, coordinates, coordinates, angles), soles, soles)
def test_the_robot_position_is_halfway_between_the_soles_on_the_floor(body, left, right):
    odometry = LegOdometry()
    odometry.pose, odometry.feet = body, (left, right)
    robot = odometry.robot
    on_floor = [body.compose(sole) for sole in (left, right)]
    assert robot.x == pytest.approx((on_floor[0].x + on_floor[1].x) / 2, abs=1e-9)
    assert robot.y == pytest.approx((on_floor[0].y + on_floor[1].y) / 2, abs=1e-9)
    assert robot.theta == pytest.approx(body.theta, abs=1e-12)  # the body's heading


def test_before_any_measurement_the_robot_position_is_the_pose():
    odometry = LegOdometry()
    odometry.reset(Pose2D(0.5, -0.2, 1.0))
    assert odometry.robot == odometry.pose
