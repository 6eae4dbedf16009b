"""Walk requests are checked where they are made."""

from __future__ import annotations

import math

import pytest

from skills.walk import KillWalk, Walk, WalkToward
from skills.walk.tasks import ABSURD_SPEED, ABSURD_TURN


def test_valid_requests_are_plain_floats():
    walk = Walk(1, 0.1, -0.5)
    assert (walk.forward, walk.left, walk.turn, walk.frequency) == (1.0, 0.1, -0.5, 1.0)
    assert Walk() == Walk(0.0, 0.0, 0.0)
    assert WalkToward(1, -1, 0.5, 0).frequency == 0.0
    assert KillWalk() == KillWalk()


@pytest.mark.parametrize("field", ["forward", "left", "turn"])
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_velocities_fail_at_construction(field, bad):
    with pytest.raises(ValueError, match="finite"):
        Walk(**{field: bad})


@pytest.mark.parametrize("bad", [True, "0.1", None, [0.1]])
def test_non_numbers_fail_at_construction(bad):
    with pytest.raises(TypeError, match="number"):
        Walk(forward=bad)


def test_absurd_requests_are_refused_not_clamped():
    with pytest.raises(ValueError, match="m/s"):
        Walk(ABSURD_SPEED * 1.01)
    with pytest.raises(ValueError, match="rad/s"):
        Walk(turn=-ABSURD_TURN * 1.01)
    # Beyond the gait's limits but plausible: accepted here, clamped by the walk.
    assert Walk(2.0).forward == 2.0


@pytest.mark.parametrize("field", ["x", "y", "theta"])
@pytest.mark.parametrize("bad", [1.01, -1.5, math.nan])
def test_walk_toward_shares_stay_in_minus_one_to_one(field, bad):
    with pytest.raises(ValueError, match=field):
        WalkToward(**{field: bad})


@pytest.mark.parametrize("bad", [-0.1, 1.1, math.nan])
def test_frequencies_stay_in_zero_to_one(bad):
    with pytest.raises(ValueError, match="frequency"):
        WalkToward(frequency=bad)
    with pytest.raises(ValueError, match="frequency"):
        Walk(frequency=bad)
