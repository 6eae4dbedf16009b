"""Pose helpers: roll-pitch-yaw round trips and rigid inverses."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from providers.model.transforms import (
    axis_angle_rotation,
    invert_pose,
    pose_error,
    pose_from_xyz_rpy,
    rotation_angle,
    xyz_rpy_from_pose,
)

xyz = st.floats(-1.0, 1.0)
rpy = st.tuples(
    st.floats(-math.pi + 1e-6, math.pi - 1e-6),
    st.floats(-math.pi / 2 + 1e-3, math.pi / 2 - 1e-3),
    st.floats(-math.pi + 1e-6, math.pi - 1e-6),
)


@given(xyz, xyz, xyz, rpy)
def test_xyz_rpy_round_trip(x, y, z, angles):
    pose = pose_from_xyz_rpy(x, y, z, *angles)
    np.testing.assert_allclose(xyz_rpy_from_pose(pose), (x, y, z, *angles), atol=1e-9)


@given(xyz, xyz, xyz, rpy)
def test_inverse_undoes_a_pose(x, y, z, angles):
    pose = pose_from_xyz_rpy(x, y, z, *angles)
    np.testing.assert_allclose(invert_pose(pose) @ pose, np.eye(4), atol=1e-12)


@given(st.floats(0.0, math.pi), st.tuples(xyz, xyz, xyz).filter(lambda v: np.linalg.norm(v) > 0.1))
def test_rotation_angle_recovers_small_and_large_angles(angle, axis):
    assert rotation_angle(axis_angle_rotation(np.array(axis), angle)) == pytest_approx(angle)


def pytest_approx(value: float):
    import pytest

    return pytest.approx(value, abs=1e-9)


def test_pose_error_of_a_tiny_rotation_keeps_its_digits():
    a = pose_from_xyz_rpy(0.1, 0.2, 0.3, 0.1, 0.2, 0.3)
    b = a @ pose_from_xyz_rpy(0.0, 0.0, 1e-7, yaw=1e-9)
    dp, da = pose_error(a, b)
    assert abs(dp - 1e-7) < 1e-15
    assert abs(da - 1e-9) < 1e-15
