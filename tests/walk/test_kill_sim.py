"""killMove in physics: the kill moments (phase of the step, speed, body) at which putting
the swing foot down at once made the robot fall sideways over it. Each walks straight ahead with a
move at 0.3, 0.6 or all of the gait's top speed, kills it at that moment (while it is still
speeding up), and must still stand 1.5 s later.
"""

from __future__ import annotations

import pytest

from motiond.walk_trial import PRIORITY, Perturbation, WalkTrial
from skills.walk import KillWalk, Walk
from skills.walk.walk_to import WalkTo


@pytest.mark.parametrize(
    ("speed", "offset", "body"),
    [
        (0.3, 0, None),
        (0.3, 23, None),
        (0.3, 22, 0),
        (0.3, 3, 1),
        (0.6, 25, None),
        (1.0, 1, None),
        (1.0, 27, 1),
    ],
)
def test_a_kill_mid_swing_lands_the_foot_and_stands(speed, offset, body):
    where = {} if body is None else {"perturbation": Perturbation(seed=body)}
    trial = WalkTrial(**where)
    behaviour = trial._behaviour
    behaviour.emit_none(Walk)
    assert trial.run(1.0)
    behaviour.emit(WalkTo(2.0, 0.0, 0.0, speed=speed), priority=PRIORITY)
    assert trial.run(1.5 + 0.012 * offset)
    behaviour.emit(KillWalk(), priority=PRIORITY)
    behaviour.emit_none(WalkTo)
    assert trial.run(1.5)
    assert trial.runtime.walk.status().killed
