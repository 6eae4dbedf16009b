"""Support polygon of the feet in contact, and the convex hull under it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lola_io.joints import NUM_JOINTS
from providers.model import load_nao_model, nao_kinematics, support_polygon
from providers.model.support import convex_hull, sole_corners
from providers.model.transforms import pose_from_xyz_rpy


def standing_soles():
    q = load_nao_model().clamp(np.zeros(NUM_JOINTS))
    return nao_kinematics().sole_poses(q)


def test_both_feet_give_the_box_around_both_soles():
    left, right = standing_soles()
    poly = support_polygon(left, right, left_contact=True, right_contact=True)
    foot = load_nao_model().foot
    # Feet side by side 0.1 m apart: a rectangle from the right foot's outer edge to the
    # left foot's outer edge, front to rear.
    assert len(poly) == 4
    assert poly[:, 0].min() == pytest.approx(-foot.rear)
    assert poly[:, 0].max() == pytest.approx(foot.front)
    assert poly[:, 1].max() == pytest.approx(0.05 + foot.outer)
    assert poly[:, 1].min() == pytest.approx(-0.05 - foot.outer)


def test_one_foot_gives_its_own_sole_and_none_gives_nothing():
    left, right = standing_soles()
    only_left = support_polygon(left, right, left_contact=True, right_contact=False)
    foot = load_nao_model().foot
    assert len(only_left) == 4
    assert only_left[:, 1].min() == pytest.approx(0.05 - foot.inner)
    assert support_polygon(left, right, left_contact=False, right_contact=False).shape == (0, 2)


def test_polygon_in_a_sole_frame_is_that_soles_box():
    left, right = standing_soles()
    tilted_left = left @ pose_from_xyz_rpy(pitch=0.2, yaw=0.4)
    poly = support_polygon(
        tilted_left, right, left_contact=True, right_contact=False, frame=tilted_left
    )
    expected = sole_corners(load_nao_model().foot, "left")[:, :2]
    # Same corners (the hull may start at another one, rounding decides) and counter-clockwise.
    assert sorted(map(tuple, np.round(poly, 9))) == sorted(map(tuple, np.round(expected, 9)))
    assert shoelace(poly) == pytest.approx(shoelace(expected))
    assert shoelace(poly) > 0


def shoelace(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


points = st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1)), min_size=3, max_size=30)


@given(points)
def test_hull_is_convex_counter_clockwise_and_contains_every_point(raw):
    pts = np.array(raw)
    hull = convex_hull(pts)
    if len(hull) < 3:
        return
    assert shoelace(hull) > 0.0
    for i in range(len(hull)):
        a, b = hull[i], hull[(i + 1) % len(hull)]
        edge = b - a
        # Every point lies on the inner (left) side of every counter-clockwise edge.
        cross = edge[0] * (pts[:, 1] - a[1]) - edge[1] * (pts[:, 0] - a[0])
        assert np.all(cross >= -1e-12)
    assert {tuple(p) for p in hull} <= {tuple(p) for p in pts}


def test_bad_input_is_rejected_clearly():
    _, right = standing_soles()
    with pytest.raises(ValueError, match="left sole must be a finite 4x4 pose"):
        support_polygon(np.eye(3), right, left_contact=True, right_contact=True)
    with pytest.raises(ValueError, match="side must be"):
        sole_corners(load_nao_model().foot, "middle")
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        convex_hull(np.zeros((3, 3)))
