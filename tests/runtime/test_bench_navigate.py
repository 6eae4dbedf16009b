"""``motiond bench navigate --quick``: every figure is measured, the moves reach their targets,
nothing falls."""

from __future__ import annotations

import math

from motiond.bench.navigate import run


def test_the_quick_navigation_bench_measures_every_figure():
    result = run(quick=True)
    f = result.figures
    for key in (
        "move_to_error_m",
        "move_to_error_deg",
        "move_to_time_ratio",
        "footstep_error_m",
        "next_position_error_m",
        "falls",
    ):
        assert math.isfinite(f[key]), key
    assert f["falls"] == 0 and f["move_to_reached_pct"] == 100.0
    assert f["move_to_time_ratio"] > 1.0  # never faster than the straight line at top speed
    assert set(result.as_dict()["goals_met"]) == {
        "move_to_error_m",
        "move_to_error_deg",
        "footstep_error_m",
        "falls",
    }
