"""Footsteps and the next position in physics (naosim and the daemon's cycle): ten mixed
steps land where they were planned (after clipping), and the next position is where the step
under way leaves the robot, by the simulator's ground truth and the odometry."""

from __future__ import annotations

import math
import statistics

import pytest

from motiond.bench.navigate import footstep_sequences
from motiond.navigate_trial import footsteps_trial, move_to_trial


def test_ten_mixed_footsteps_land_where_planned():
    steps = footstep_sequences()["mixed"]
    result = footsteps_trial(steps)
    errors = zip(result.errors_m, result.errors_deg, strict=True)
    story = [f"{100 * m:.1f} cm {d:.1f} deg" for m, d in errors]
    assert not result.fell and len(result.errors_m) == len(steps), story
    # Each foot judged at rest: 0.5-2.4 cm (median 1.3) and up to 5.7 degrees here, with the
    # placement correction (1.0-2.6 cm, median 1.8, without). The navigation issue asks for 2 cm
    # and 3 degrees: not met yet. This guards against getting worse.
    assert max(result.errors_m) <= 0.03 and max(result.errors_deg) <= 8.0, story
    assert statistics.median(result.errors_m) <= 0.016, story


@pytest.mark.parametrize(
    ("target", "worst"),
    [((2.0, 0.0, 0.0), 0.02), ((1.0, 0.5, math.pi / 2), 0.03)],
    ids=["ahead", "aside-and-turned"],
)
def test_the_next_position_is_where_the_step_under_way_leaves_the_robot(target, worst):
    result = move_to_trial(target)
    story = [f"{100 * e:.1f} cm" for e in result.next_errors]
    assert not result.fell and result.reached and len(result.next_errors) >= 5, story
    # Against the odometry once the step ended: within 1.5 and 2.6 cm here (6.4 cm before the
    # steps' end was learned from the legs; the issue asks 2 cm).
    assert max(result.next_errors) <= worst, story
