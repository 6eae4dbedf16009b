"""``motiond bench safety``: per-cycle cost of the safety stage and of servo interpolation.

Both run every cycle on all 25 joints, inside the cycle's budget (p99 <= 1 ms on this machine
for the whole cycle), so each gets a goal of a small share of it: 60 µs.
"""

from __future__ import annotations

import numpy as np

from motiond.bench.timing import BenchResult, Goal, median_time


def run(quick: bool) -> BenchResult:
    """Median time of one safety-stage cycle (clean and faulty requests) and of one
    minimum-jerk evaluation for 25 joints."""
    from lola_io.joints import NUM_JOINTS
    from motiond.safety import SafetyStage
    from providers.interpolation import minimum_jerk
    from providers.model import load_nao_model
    from skills.script_files import shipped_script

    model = load_nao_model()
    repeat, number = (5, 200) if quick else (21, 2000)

    # A realistic clean stream: a sitting robot standing up along a minimum-jerk path.
    sit = shipped_script("Sit").final_pose().position
    stand = shipped_script("StandInit").final_pose().position
    frames = [minimum_jerk(sit, stand, 0.0, 1.5, t) for t in np.arange(0.0, 1.5, 0.012)]
    stiffness = np.ones(NUM_JOINTS)
    stage = SafetyStage(model)
    stage.reset(sit)
    cursor = iter(range(1 << 62))

    def clean() -> None:
        stage.apply(frames[next(cursor) % len(frames)], stiffness)

    # Every request broken somewhere: NaN, inf, beyond the limits, far out of reach.
    rng = np.random.default_rng(6)
    faulty = [rng.uniform(-5.0, 5.0, NUM_JOINTS) for _ in range(64)]
    for i, frame in enumerate(faulty):
        frame[i % NUM_JOINTS] = (np.nan, np.inf, -np.inf, 1e300)[i % 4]
    bad_stiffness = np.full(NUM_JOINTS, 1.5)
    bad_stiffness[3] = np.nan

    def broken() -> None:
        stage.apply(faulty[next(cursor) % len(faulty)], bad_stiffness)

    start_time = np.zeros(NUM_JOINTS)
    duration = np.full(NUM_JOINTS, 1.5)

    def interpolate() -> None:
        minimum_jerk(sit, stand, start_time, duration, 0.7)

    figures = {
        "safety_apply_us": median_time(clean, repeat=repeat, number=number) * 1e6,
        "safety_apply_faulty_us": median_time(broken, repeat=repeat, number=number) * 1e6,
        "minimum_jerk_25_us": median_time(interpolate, repeat=repeat, number=number) * 1e6,
    }
    goal = Goal(60.0)
    return BenchResult(
        name="safety",
        figures=figures,
        units=dict.fromkeys(figures, "µs"),
        goals={"safety_apply_us": goal, "minimum_jerk_25_us": goal},
        notes=(f"median of {repeat} runs of {number} calls each",),
    )
