"""Falls and get-ups in physics: pushed over in four directions, standing and walking, the
robot is braced before it lands and gets up again; from the front and the back over several
seeds (and a perturbed body) the get-up stands in the walk-ready posture, retrying when a
phase ends somewhere unexpected. One fall goes through the daemon over a real LoLA socket."""

from __future__ import annotations

import numpy as np
import pytest

from motiond.runtime import Runtime
from motiond.safety_trial import getup_trial, push_fall_trial
from motiond.simulated import simulated_daemon
from motiond.walk_trial import Perturbation
from skills.safety import FallPhase
from skills.walk import Walk


@pytest.mark.parametrize("walking", [False, True], ids=["standing", "walking"])
@pytest.mark.parametrize("direction", ["front", "back", "left", "right"])
def test_a_pushed_robot_is_braced_before_it_lands_and_gets_up(direction, walking):
    fall = push_fall_trial(direction, walking=walking, impulse=5.0)
    assert fall.impact_at is not None, "the push did not topple the robot"
    assert fall.detected_at is not None and fall.lead is not None
    assert fall.lead >= 0.15, f"detected only {fall.lead * 1000:.0f} ms before the impact"
    assert fall.protected
    assert fall.stood, "did not get up"


@pytest.mark.parametrize("side", ["front", "back"])
def test_getting_up_over_several_seeds(side):
    results = [getup_trial(side, seed) for seed in range(4)]
    story = [
        f"seed {r.seed}: stood {r.stood} in {r.seconds:.2f} s, {r.attempts} tries" for r in results
    ]
    assert all(r.stood for r in results), "\n".join(story)


@pytest.mark.parametrize("side", ["front", "back"])
def test_getting_up_on_a_perturbed_body(side):
    result = getup_trial(side, 7, Perturbation(seed=2))
    assert result.stood, result


async def test_through_the_daemon_a_pushed_robot_falls_is_protected_and_stands_again():
    runtime = Runtime()
    runtime.emit(Walk(), priority=5.0, emitter="test")
    phases = []
    runtime.observers.append(
        lambda now, frame, out: phases.append(runtime.supervisor.status().fall.phase)
    )
    async with simulated_daemon(start="StandInit", runtime=runtime) as sim:
        await runtime.wait(1.5)
        sim.body.push((50.0, 0.0, 0.0), 0.1)
        await runtime.wait(1.5)
        assert FallPhase.FALLING in phases and sim.body.truth().fallen
        for _ in range(20):
            await runtime.wait(1.0)
            if runtime.supervisor.status().getup.result == "standing":
                break
        assert runtime.supervisor.status().getup.result == "standing"
        await runtime.wait(1.0)
        truth = sim.body.truth()
        assert not truth.fallen and truth.tilt < 0.3
        assert np.isfinite(runtime.last_frame.position).all()
