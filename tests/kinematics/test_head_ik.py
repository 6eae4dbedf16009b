"""Head inverse kinematics: the chosen camera's optical axis passes through the point."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from providers.model import load_nao_model, look_at, nao_kinematics

FRAMES = {"top": "CameraTop_frame", "bottom": "CameraBottom_frame", "head": "Head"}


def camera_miss(point: np.ndarray, camera: str, yaw: float, pitch: float) -> float:
    """Angle (rad) between the camera's x axis and the direction to the point, via FK."""
    q = load_nao_model().clamp(np.zeros(NUM_JOINTS))
    q[JOINT_INDEX["HeadYaw"]], q[JOINT_INDEX["HeadPitch"]] = yaw, pitch
    pose = nao_kinematics().link_pose(q, FRAMES[camera])
    # "head" aims the head frame's x axis from the pitch axis (the Neck origin).
    origin = nao_kinematics().link_pose(q, "Neck")[:3, 3] if camera == "head" else pose[:3, 3]
    direction = point - origin
    axis = pose[:3, 0]
    # atan2 of the cross and dot products keeps full precision near zero (acos does not).
    return math.atan2(float(np.linalg.norm(np.cross(axis, direction))), float(axis @ direction))


# Points on the field around the robot: ahead, up to 45° aside, below the torso.
ground_points = st.tuples(st.floats(0.3, 5.0), st.floats(-1.0, 1.0), st.floats(-0.45, -0.25)).map(
    lambda p: np.array([p[0], p[1] * p[0], p[2]])
)


@given(ground_points, st.sampled_from(sorted(FRAMES)))
def test_reachable_points_are_on_the_optical_axis(point, camera):
    angles = look_at(point, camera)
    model = load_nao_model()
    assert model.lower[JOINT_INDEX["HeadYaw"]] <= angles.yaw <= model.upper[JOINT_INDEX["HeadYaw"]]
    lo, hi = model.lower[JOINT_INDEX["HeadPitch"]], model.upper[JOINT_INDEX["HeadPitch"]]
    assert lo <= angles.pitch <= hi
    if angles.reachable:
        assert camera_miss(point, camera, angles.yaw, angles.pitch) < 1e-9
    else:
        # Only a pitch limit can stop the head here; it is then at that limit.
        assert angles.pitch in (lo, hi)


def test_the_camera_offset_matters_close_to_the_robot():
    # A ball on the ground 1 m ahead of a standing NAO (torso about 0.33 m up).
    ball = np.array([1.0, 0.0, -0.33])
    top, head = look_at(ball, "top"), look_at(ball, "head")
    assert top.reachable and head.reachable
    assert abs(top.pitch - head.pitch) > math.radians(1.5)
    assert camera_miss(ball, "top", head.yaw, head.pitch) > math.radians(1.5)
    # Nearer than that the top camera cannot look down far enough; the bottom one can.
    near = np.array([0.5, 0.0, -0.33])
    assert not look_at(near, "top").reachable
    assert look_at(near, "bottom").reachable


@given(st.tuples(*[st.floats(-3.0, 3.0)] * 3))
def test_any_point_gives_angles_within_limits(xyz):
    point = np.array(xyz)
    angles = look_at(point)
    model = load_nao_model()
    for name, value in (("HeadYaw", angles.yaw), ("HeadPitch", angles.pitch)):
        assert model.lower[JOINT_INDEX[name]] <= value <= model.upper[JOINT_INDEX[name]]
    if angles.reachable:
        assert camera_miss(point, "top", angles.yaw, angles.pitch) < 1e-9


def test_points_behind_beyond_the_yaw_limit_are_flagged():
    angles = look_at(np.array([-1.0, -0.05, 0.0]))
    assert not angles.reachable
    assert abs(angles.yaw) == pytest.approx(load_nao_model().upper[JOINT_INDEX["HeadYaw"]])


def test_a_point_inside_the_head_is_flagged_not_nan():
    angles = look_at(np.array([0.0, 0.0, 0.1265 + 0.03]))
    assert not angles.reachable
    assert math.isfinite(angles.yaw) and math.isfinite(angles.pitch)


def test_apply_writes_both_head_joints():
    angles = look_at(np.array([1.0, 0.3, -0.3]))
    q = angles.apply(np.zeros(NUM_JOINTS))
    assert q[JOINT_INDEX["HeadYaw"]] == angles.yaw
    assert q[JOINT_INDEX["HeadPitch"]] == angles.pitch
    assert np.count_nonzero(q) == 2


def test_bad_input_is_rejected_clearly():
    with pytest.raises(ValueError, match="camera must be one of"):
        look_at(np.array([1.0, 0.0, 0.0]), "left")
    with pytest.raises(ValueError, match="3 finite coordinates"):
        look_at(np.array([1.0, np.nan, 0.0]))
    with pytest.raises(ValueError, match="3 finite coordinates"):
        look_at(np.array([1.0, 0.0]))
