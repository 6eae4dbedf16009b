"""Where velocity steps land: the landing model's prediction and what it learns."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skills.walk.landing import MAX_CORRECTION, LandingModel
from skills.walk.odometry import Pose2D
from skills.walk.request import Velocity

velocities = st.builds(
    Velocity, st.floats(-0.35, 0.35), st.floats(-0.25, 0.25), st.floats(-1.5, 1.5)
)


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.lists(st.floats(-0.015, 0.015), min_size=12, max_size=12))
def test_feet_that_land_off_the_plan_linearly_are_learned(seed, weights):
    rng = np.random.default_rng(seed)
    steps = [
        (Velocity(*(rng.uniform(-1.0, 1.0, 3) * (0.35, 0.25, 1.5))), bool(rng.integers(2)))
        for _ in range(500)
    ]
    truth = np.array(weights).reshape(2, 6)  # over the scaled features
    model = LandingModel()
    planned = Pose2D(0.04, -0.05, 0.0)
    for velocity, left in steps:
        side = 1.0 if left else -1.0
        forward, outward = truth @ LandingModel.features(velocity, left)
        measured = Pose2D(planned.x + forward, planned.y - side * outward, 0.0)
        model.learn(planned, measured, velocity, left)
    for velocity, left in steps[-20:]:
        side = 1.0 if left else -1.0
        forward, outward = np.clip(truth @ LandingModel.features(velocity, left), -0.06, 0.06)
        got = model.predict(planned, velocity, left)
        assert got.x == pytest.approx(planned.x + forward, abs=0.005)
        assert got.y == pytest.approx(planned.y - side * outward, abs=0.005)


@given(velocities, st.booleans())
def test_a_prediction_stays_near_the_plan(velocity, left):
    model = LandingModel()
    model.weights[:] = 10.0  # however wrong the weights
    got = model.predict(Pose2D(0.04, 0.05, 0.1), velocity, left)
    assert abs(got.x - 0.04) <= MAX_CORRECTION + 1e-12
    assert abs(got.y - 0.05) <= MAX_CORRECTION + 1e-12
    assert got.theta == 0.1


def test_slips_and_broken_measurements_teach_nothing():
    model = LandingModel()
    before = model.weights.copy()
    v = Velocity(0.2, 0.0, 0.0)
    model.learn(Pose2D(0.04, -0.05, 0.0), Pose2D(math.nan, -0.05, 0.0), v, True)
    model.learn(Pose2D(0.04, -0.05, 0.0), Pose2D(0.5, -0.05, 0.0), v, True)
    np.testing.assert_array_equal(model.weights, before)
