"""Footsteps in physics (naosim and the daemon's cycle): ten mixed steps land where they
were planned (after clipping), by the simulator's ground truth."""

from __future__ import annotations

from motiond.bench.navigate import footstep_sequences
from motiond.navigate_trial import footsteps_trial


def test_ten_mixed_footsteps_land_where_planned():
    steps = footstep_sequences()["mixed"]
    result = footsteps_trial(steps)
    errors = zip(result.errors_m, result.errors_deg, strict=True)
    story = [f"{100 * m:.1f} cm {d:.1f} deg" for m, d in errors]
    assert not result.fell and len(result.errors_m) == len(steps), story
    # Each foot judged at rest: 1.0-2.6 cm and up to 5.6 degrees here (the navigation issue
    # asks for 2 cm and 3 degrees: not met yet). This guards against getting worse.
    assert max(result.errors_m) <= 0.035 and max(result.errors_deg) <= 8.0, story
