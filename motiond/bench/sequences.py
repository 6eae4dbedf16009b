"""``motiond bench sequences``: random behaviour sequences through the runtime, counted.

Each run is 40 s of random emissions on the simulated NAO, a new one every 0.2-2 s
(``motiond.behaviour_sequences``): walks, stops, walks aside, in-walk and standing kicks at a
ball put in front of the robot, scripts, looks, the runtime's safe sit and its release, and (in
the runs ``with arms``) arm postures held above the walk. Bodies: naosim's NAO and ``--perturb
N`` perturbed ones, or the NAO MJCF ``--model FILE`` alone.

- ``stood_pct``: runs without arm postures in which the robot never fell;
- ``stood_with_arms_pct``: the same for the runs with arm postures;
- ``falls``: runs of both kinds that fell; each is listed as a note (seed, body, when, the
  emissions before it) so that it can be replayed with :func:`~motiond.behaviour_sequences
  .sequence_run`;
- ``unsafe_runs``: runs in which a frame sent was non-finite, outside a joint's limits or
  faster than a stiff joint moves; ``errors``: the runtime's cycle and provider errors.
"""

from __future__ import annotations

import time

from motiond.bench.timing import BenchResult, Goal

#: Seconds of one run.
RUN_SECONDS = 40.0
#: Seeds of the runs with arm postures start here (the arm-less ones at 0).
ARMS_SEED = 1000


def run(quick: bool, perturb: int = 0, model: str | None = None) -> BenchResult:
    """Random sequences on each body, ``quick``: 10 runs of each kind a body, else 30."""
    from motiond.behaviour_sequences import sequence_run
    from motiond.walk_trial import trial_bodies

    started = time.perf_counter()
    runs = 10 if quick else 30
    bodies = trial_bodies(model, perturb)
    stood = {False: 0, True: 0}
    unsafe = errors = 0
    notes = []
    for index, body in enumerate(bodies):
        name = "the MJCF" if model else ("naosim's NAO" if index == 0 else f"perturbed #{index}")
        for arms in (False, True):
            for k in range(runs):
                seed = k + (ARMS_SEED if arms else 0)
                result = sequence_run(seed, body, RUN_SECONDS, arms=arms)
                stood[arms] += result.fell_at is None
                unsafe += result.unsafe is not None
                errors += result.errors
                if result.fell_at is not None:
                    before = "; ".join(f"{t:.2f} {what}" for t, what in result.last_actions(3))
                    arm_text = " with arms" if arms else ""
                    notes.append(
                        f"seed {seed}{arm_text} on {name} fell at {result.fell_at:.2f} s"
                        f" after: {before}"
                    )
                if result.unsafe is not None:
                    notes.append(f"seed {seed} on {name}: {result.unsafe}")
    total = runs * len(bodies)
    figures = {
        "stood_pct": 100.0 * stood[False] / total,
        "stood_with_arms_pct": 100.0 * stood[True] / total,
        "falls": float(2 * total - stood[False] - stood[True]),
        "unsafe_runs": float(unsafe),
        "errors": float(errors),
        "runs": float(2 * total),
        "bodies": float(len(bodies)),
        "wall_s": time.perf_counter() - started,
    }
    units = {"stood_pct": "%", "stood_with_arms_pct": "%", "wall_s": "s"}
    goals = {
        "stood_pct": Goal(100.0, at_least=True),
        "stood_with_arms_pct": Goal(100.0, at_least=True),
        "unsafe_runs": Goal(0.0),
        "errors": Goal(0.0),
    }
    return BenchResult("sequences", figures, units, goals, tuple(notes))
