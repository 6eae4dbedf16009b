"""Random sequences of what behaviours emit, through the runtime, on the simulated NAO
(``motiond.behaviour_sequences``): walks in every direction, stops, the high stand, in-walk and
standing kicks at balls put in front of the robot, scripts (over a walk or not) and
withdrawals, looks above everything, the runtime's safe sit and its release, a new emission
every 0.2-2 s. Whatever the order, the runtime never errs, every frame it sends is finite,
inside the joints' limits and no faster than they move, and nothing makes the robot fall.

The bugs these sequences found are pinned by deterministic tests of their own (see the module
docstring); these seeds keep the whole mix honest. ``motiond bench sequences`` runs many more.
"""

from __future__ import annotations

import pytest

from motiond.behaviour_sequences import RandomBehaviour, sequence_run
from motiond.walk_trial import Perturbation

_SECONDS = 25.0


@pytest.mark.parametrize(("seed", "body"), [(0, None), (1, None), (2, None), (3, 2)])
def test_random_emissions_never_err_send_an_unsafe_frame_or_fell_the_robot(seed, body):
    where = {} if body is None else {"perturbation": Perturbation(seed=body)}
    run = sequence_run(seed, where, _SECONDS)
    assert run.unsafe is None, (run.unsafe, run.last_actions())
    assert run.fell_at is None, f"fell at {run.fell_at:.2f} s after {run.last_actions()}"
    assert run.errors == 0
    assert len(run.actions) >= 15


def test_a_sequence_run_reports_a_fall_and_what_came_before_it(monkeypatch):
    # Pushes are no behaviour's emission (they topple the robot by design): a run whose
    # behaviour shoves must say the robot fell, and after what.
    def shove(self):
        self._trial.push((0.0, 80.0, 0.0), 0.2)
        return "shoved sideways"

    monkeypatch.setattr(RandomBehaviour, "act", shove)
    run = sequence_run(0, {}, 10.0)
    assert run.fell_at is not None and not run.clean
    assert run.last_actions()[-1] == (0.5, "shoved sideways")
    assert run.fell_at < 2.5  # stopped at the fall, not run on to the end
