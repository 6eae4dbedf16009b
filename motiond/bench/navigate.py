"""``motiond bench navigate``: walking to poses and walking footsteps, judged in physics.

Every figure is naosim's ground truth with the daemon's cycle in lockstep
(``motiond.navigate_trial``):

- ``move_to_error_m`` / ``move_to_error_deg``: the worst final error of ``WalkTo`` against its
  target, over targets 1-3 m away in every direction (ahead, behind, aside, diagonal, with and
  without a final turn) and several seeds;
- ``move_to_time_ratio``: the median of time taken over (distance / the gait's top forward
  speed): 1 would be walking the straight line at full forward speed with no turn, start or
  stop;
- ``footstep_error_m`` / ``footstep_error_deg``: the worst landing error of a footstep (the
  stepping foot at rest in the frame of the other foot at rest, against the clipped plan),
  over mixed sequences;
- ``next_position_error_m``: the worst error of the next position (NAOqi's
  getNextRobotPosition, sampled during the moves) against the odometry once that step ended;
- ``falls``: over every trial.

``--perturb N`` repeats every trial on N perturbed NAOs as well.
"""

from __future__ import annotations

import math
import statistics
import time

from motiond.bench.timing import BenchResult, Goal

#: Targets (x m, y m, theta rad) relative to the robot: 1-3 m in every direction.
TARGETS = (
    (1.0, 0.5, math.pi / 2),
    (2.0, 0.0, 0.0),
    (-1.0, 0.0, 0.0),
    (0.0, 1.0, 0.0),
    (1.5, -1.5, -math.pi / 4),
    (-1.0, 1.0, math.pi),
    (3.0, 0.0, 0.0),
    (0.0, -2.0, math.pi / 2),
)
QUICK_TARGETS = TARGETS[:3]


def footstep_sequences() -> dict[str, list]:
    """The footstep sequences the benchmark walks: mixed, turning, dance."""
    from skills.walk import Footstep

    mixed = [
        Footstep("left", 0.04, 0.10, 0.0),
        Footstep("right", 0.04, -0.10, 0.0),
        Footstep("left", 0.05, 0.12, 0.0),
        Footstep("right", 0.0, -0.10, 0.0),
        Footstep("left", 0.03, 0.10, 0.2),
        Footstep("right", 0.03, -0.10, 0.0),
        Footstep("left", -0.03, 0.10, 0.0),
        Footstep("right", -0.02, -0.12, -0.2),
        Footstep("left", 0.0, 0.14, 0.0, duration=0.3),
        Footstep("right", 0.0, -0.10, 0.0, speed=0.5),
    ]
    # Turning on the spot (0.6 rad left, then back), and NAOqi's cha-cha with alternating feet.
    left, right = (0.0, 0.1), (0.0, -0.1)
    turning = [
        Footstep("left", *left, 0.3),
        Footstep("right", *right, 0.0),
        Footstep("left", *left, 0.3),
        Footstep("right", *right, 0.0),
        Footstep("left", *left, 0.0),
        Footstep("right", *right, -0.3),
        Footstep("left", *left, 0.0),
        Footstep("right", *right, -0.3),
    ]
    dance = [
        Footstep("left", 0.06, 0.10, 0.0),
        Footstep("right", 0.0, -0.10, 0.0),
        Footstep("left", 0.0, 0.16, 0.0),
        Footstep("right", -0.04, -0.10, 0.0),
        Footstep("left", 0.0, 0.10, 0.0),
        Footstep("right", 0.0, -0.16, 0.0),
        Footstep("left", 0.0, 0.10, 0.0),
    ]
    return {"mixed": mixed, "turning": turning, "dance": dance}


def run(quick: bool, perturb: int = 0) -> BenchResult:
    """Every target and sequence over seeds and bodies; the worst and median figures."""
    from motiond.navigate_trial import footsteps_trial, move_to_trial
    from motiond.walk_trial import Perturbation
    from skills.walk import load_gait

    started = time.perf_counter()
    seeds = 1 if quick else 3
    targets = QUICK_TARGETS if quick else TARGETS
    bodies = [None] + [Perturbation(seed=k + 1) for k in range(perturb)]
    top_speed = load_gait().max_forward
    moves, feet = [], []
    for body in bodies:
        for seed in range(seeds):
            for target in targets:
                result = move_to_trial(target, seed, body)
                moves.append(result)
                print(
                    f"  .. move_to {target}: {100 * result.error_m:.1f} cm,"
                    f" {result.error_deg:.1f} deg, {result.seconds:.1f} s"
                    + (" FELL" if result.fell else "" if result.reached else " NOT reached"),
                    flush=True,
                )
            for name, steps in footstep_sequences().items():
                result = footsteps_trial(steps, seed, body)
                feet.append(result)
                worst = max(result.errors_m, default=math.nan)
                print(
                    f"  .. footsteps {name}: {len(result.errors_m)} steps, worst"
                    f" {100 * worst:.1f} cm" + (" FELL" if result.fell else ""),
                    flush=True,
                )
    ratios = [m.seconds / (m.distance / top_speed) for m in moves]
    next_errors = [e for m in moves for e in m.next_errors]
    figures = {
        "move_to_error_m": max(m.error_m for m in moves),
        "move_to_error_deg": max(m.error_deg for m in moves),
        "move_to_time_ratio": statistics.median(ratios),
        "move_to_reached_pct": 100.0 * sum(m.reached for m in moves) / len(moves),
        "footstep_error_m": max(e for f in feet for e in f.errors_m),
        "footstep_error_deg": max(e for f in feet for e in f.errors_deg),
        "footstep_error_median_m": statistics.median(e for f in feet for e in f.errors_m),
        "next_position_error_m": max(next_errors, default=math.nan),
        "falls": float(sum(m.fell for m in moves) + sum(f.fell for f in feet)),
        "trials": float(len(moves) + len(feet)),
        "wall_s": time.perf_counter() - started,
    }
    return BenchResult(
        name="navigate",
        figures=figures,
        units={
            "move_to_error_m": "m",
            "move_to_error_deg": "deg",
            "footstep_error_m": "m",
            "footstep_error_deg": "deg",
            "footstep_error_median_m": "m",
            "next_position_error_m": "m",
            "move_to_reached_pct": "%",
            "wall_s": "s",
        },
        goals={
            "move_to_error_m": Goal(0.10),
            "move_to_error_deg": Goal(10.0),
            "footstep_error_m": Goal(0.02),
            "falls": Goal(0.0),
        },
        notes=(
            f"{len(targets)} targets and {len(footstep_sequences())} footstep sequences,"
            f" {seeds} seeds,"
            f" {len(bodies)} bodies ({perturb} perturbed); time ratio against the gait's"
            f" {top_speed} m/s forward",
        ),
    )
