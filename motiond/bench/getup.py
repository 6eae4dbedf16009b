"""``motiond bench getup``: falling, getting up and standing, measured in physics.

Every figure is naosim's ground truth with the daemon's cycle in lockstep
(``motiond.safety_trial``):

- ``getup_front_s`` / ``getup_back_s``: median time from lying still (limp, a random start
  near the lying posture, one per seed) to standing in the walk-ready posture, automatic
  get-up; ``getup_success_pct`` over both sides (a get-up that stands and is still standing
  1 s later; retries inside ``max_attempts`` count as success, with their time);
  ``getup_side_s`` the same from lying on the left or the right side (arms as the fall
  protection leaves them, knees bent up to 1 rad: the roll-over, then the front or back
  get-up); ``getup_first_try_pct``: the share of all these get-ups (front, back and sides)
  standing at their first attempt, without a relax and a retry;
- ``fall_detect_lead_ms``: median time between the fall alarm and the body's first touch of
  the floor, over pushes that topple the robot standing, walking at 0.2 m/s and at the gait's
  top speed, 0.4 m/s, in four directions (two impulses: just enough, and hard);
  ``falls_protected_pct`` and ``falls_got_up_pct``: the share of those falls where the
  protection took the body before the impact, and where the robot then got up;
  ``fall_to_standing_s``: the median time from the push to standing again (fall, protection,
  get-up and its retries); ``head_impact_front_mps`` and ``head_impact_back_mps``: the median
  speed at which the head met the floor in the falls pushed forwards and backwards (0 when it
  did not touch; ground truth at physics-step resolution, ``naosim.impacts``), and
  ``head_impact_max_mps`` the fastest over all pushed falls;
- ``false_alarms``: fall alarms over walks at the gait's top speeds (forward, backward,
  sideways, turning, combined) and a standing hold;
- ``startup_lean_rad`` / ``startup_sink_m``: a daemon started under a standing robot (held
  stiff by the controller before it): the largest change of the torso's pitch and the
  deepest sink of its height over the first 5 s, the worst over the bodies;
- ``stand_current_ratio``: mean motor current of the energy-saving stand over the plain
  walk stand, 60 s each (``stand_height_change_m``: torso height of the one minus the other);
  ``high_stand_current_ratio`` and ``high_stand_height_change_m`` the same for the high stand
  a behaviour may ask for (``Walk(high_stand=True)``: straight legs); ``first_step_s`` and
  ``high_stand_first_step_s``: from a walk request (0.2 m/s) after 5 s in the saving or the
  high stand until the first step has ended (the high stand's cost).

``--perturb N`` repeats the get-ups, falls and alarm walks on N perturbed NAOs as well;
``--model FILE`` runs everything on that NAO MJCF instead.
"""

from __future__ import annotations

import math
import statistics
import time

from motiond.bench.timing import BenchResult, Goal

ALARM_WALKS = ((0.35, 0.0, 0.0), (-0.25, 0.0, 0.0), (0.0, 0.15, 0.0), (0.0, 0.0, 2.0))
ALARM_WALKS = (*ALARM_WALKS, (0.25, 0.1, 1.0), (0.0, 0.0, 0.0))
PUSH_IMPULSES = (4.0, 7.0)  # N s over 0.1 s: just enough to topple the robot, and hard
#: m/s forwards when pushed: standing, walking, and at the gait's top speed.
PUSH_WALK_SPEEDS = (0.0, 0.2, 0.4)


def run(quick: bool, perturb: int = 0, model: str | None = None) -> BenchResult:
    """Get-ups from the front, the back and the sides over many seeds, pushed falls, alarm
    walks, stand currents; on naosim's NAO and ``perturb`` perturbed ones, or on the NAO MJCF
    ``model``."""
    from motiond.safety_trial import (
        LYING_SIDES,
        alarm_trial,
        first_step_trial,
        getup_trial,
        push_fall_trial,
        stand_current_trial,
        startup_trial,
    )
    from motiond.walk_trial import trial_bodies

    started = time.perf_counter()
    seeds = 6 if quick else 20
    bodies = trial_bodies(model, perturb)
    times: dict[str, list[float]] = {side: [] for side in LYING_SIDES}
    tries = successes = side_tries = side_successes = first_tries = 0
    for body in bodies:
        for side in LYING_SIDES:
            for seed in range(seeds):
                result = getup_trial(side, seed, **body)
                first_tries += result.stood and result.attempts == 1
                if result.stood:
                    times[side].append(result.seconds)
                if side in ("front", "back"):
                    tries += 1
                    successes += result.stood
                else:
                    side_tries += 1
                    side_successes += result.stood

    leads, protected, got_up, falls, back_up = [], 0, 0, 0, []
    head_speeds: dict[str, list[float]] = {"front": [], "back": [], "left": [], "right": []}
    impulses = PUSH_IMPULSES[:1] if quick else PUSH_IMPULSES
    for body in bodies:
        for direction in ("front", "back", "left", "right"):
            for speed in PUSH_WALK_SPEEDS:
                for impulse in impulses:
                    fall = push_fall_trial(
                        direction, walking=speed > 0, walk_speed=speed, impulse=impulse, **body
                    )
                    if fall.impact_at is None:
                        continue  # the robot stayed up: not a fall to count
                    falls += 1
                    protected += fall.protected and fall.lead is not None and fall.lead > 0
                    got_up += fall.stood
                    if fall.getup_seconds is not None:
                        back_up.append(fall.getup_seconds)
                    if fall.lead is not None:
                        leads.append(fall.lead)
                    if fall.head_watched:  # a head that never touched met it at 0 m/s
                        head_speeds[direction].append(fall.head.speed if fall.head else 0.0)

    alarm_seconds = 10.0 if quick else 30.0
    alarms = 0
    for body in bodies:
        for velocity in ALARM_WALKS:
            raised, _ = alarm_trial(velocity, alarm_seconds, **body)
            alarms += raised

    startups = [startup_trial(5.0, **body) for body in bodies]

    stand_seconds = 30.0 if quick else 65.0
    plain, plain_low, _ = stand_current_trial(False, stand_seconds, **bodies[0])
    saving, saving_low, _ = stand_current_trial(True, stand_seconds, **bodies[0])
    high, high_low, _ = stand_current_trial(True, stand_seconds, high=True, **bodies[0])
    first_step = first_step_trial(False, **bodies[0])
    high_first_step = first_step_trial(True, **bodies[0])

    def median(values: list[float]) -> float:
        return statistics.median(values) if values else float("inf")

    figures = {
        "getup_front_s": median(times["front"]),
        "getup_back_s": median(times["back"]),
        "getup_success_pct": 100.0 * successes / tries,
        "getup_side_s": median(times["left"] + times["right"]),
        "getup_first_try_pct": 100.0 * first_tries / (tries + side_tries),
        "fall_detect_lead_ms": 1000.0 * median(leads) if leads else 0.0,
        "falls_protected_pct": 100.0 * protected / falls if falls else 0.0,
        "falls_got_up_pct": 100.0 * got_up / falls if falls else 0.0,
        "fall_to_standing_s": median(back_up),
        # NaN: a model without a Head body, nothing to measure.
        "head_impact_front_mps": statistics.median(head_speeds["front"] or [math.nan]),
        "head_impact_back_mps": statistics.median(head_speeds["back"] or [math.nan]),
        "head_impact_max_mps": max((s for v in head_speeds.values() for s in v), default=math.nan),
        "false_alarms": float(alarms),
        "startup_lean_rad": max(s.lean for s in startups),
        "startup_sink_m": max(s.sink for s in startups),
        "stand_current_ratio": saving / plain,
        "stand_height_change_m": saving_low - plain_low,
        "high_stand_current_ratio": high / plain,
        "high_stand_height_change_m": high_low - plain_low,
        "first_step_s": first_step,
        "high_stand_first_step_s": high_first_step,
    }
    units = {
        "getup_front_s": "s",
        "getup_back_s": "s",
        "getup_success_pct": "%",
        "getup_side_s": "s",
        "getup_first_try_pct": "%",
        "fall_detect_lead_ms": "ms",
        "falls_protected_pct": "%",
        "falls_got_up_pct": "%",
        "fall_to_standing_s": "s",
        "head_impact_front_mps": "m/s",
        "head_impact_back_mps": "m/s",
        "head_impact_max_mps": "m/s",
        "startup_lean_rad": "rad",
        "startup_sink_m": "m",
        "stand_height_change_m": "m",
        "high_stand_height_change_m": "m",
        "first_step_s": "s",
        "high_stand_first_step_s": "s",
    }
    worst = max(times["front"] + times["back"], default=float("inf"))
    worst_side = max(times["left"] + times["right"], default=float("inf"))
    notes = (
        f"{len(bodies)} bodies ({model or f'{perturb} perturbed'}), {seeds} seeds per side: "
        f"{successes}/{tries} stood, slowest {worst:.2f} s; from a side {side_successes}/"
        f"{side_tries} stood, slowest {worst_side:.2f} s",
        f"{falls} pushed falls, leads {min(leads, default=0) * 1000:.0f}.."
        f"{max(leads, default=0) * 1000:.0f} ms, back up after {min(back_up, default=0):.2f}.."
        f"{max(back_up, default=0):.2f} s (mean {statistics.fmean(back_up or [0]):.2f})",
        f"started standing: {sum(s.fell for s in startups)} of {len(startups)} fell, ended within "
        f"{max(s.end_lean for s in startups):.4f} rad and "
        f"{max(abs(s.end_sink) for s in startups) * 1000:.1f} mm of the start",
        f"plain stand {plain:.2f} A, saving stand {saving:.2f} A, high stand {high:.2f} A over "
        f"{stand_seconds - 5:.0f} s",
        f"wall time {time.perf_counter() - started:.0f} s",
    )
    return BenchResult(
        name="getup",
        figures=figures,
        units=units,
        goals={
            "getup_front_s": Goal(3.0),
            "getup_back_s": Goal(4.0),
            "getup_success_pct": Goal(95.0, at_least=True),
            "fall_detect_lead_ms": Goal(200.0, at_least=True),
            "false_alarms": Goal(0.0),
            "stand_current_ratio": Goal(0.5),
        },
        notes=notes,
    )
