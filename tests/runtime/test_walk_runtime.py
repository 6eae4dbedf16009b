"""The walk inside the runtime with synthetic sensor frames (no physics): it is advanced once
every cycle, whatever else the Director is doing."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from lola_io.frames import SensorFrame
from motiond.runtime import Runtime
from providers.actuation import Arms, JointCommand
from skills.script_files import shipped_script
from skills.walk import Phase, Walk


def _frame() -> SensorFrame:
    stand = shipped_script("StandInit").final_pose().position
    return attrs.evolve(SensorFrame.neutral(stand), fsr=np.full(8, 1.2))


def test_another_task_taking_the_arms_never_stalls_or_restarts_the_walk():
    # Regression: a run of the walk caused by its optional arm swing coming back (another
    # task's arm command was done) came first in the cycle and returned early, so the
    # every-cycle run was skipped: the legs held still for a cycle and the walk, seeing the
    # gap, started again from its stand every time the arms changed hands.
    runtime = Runtime()
    walker, arms = runtime.emitter("walker"), runtime.emitter("arms")
    walker.emit(Walk(0.15, 0.0, 0.0), priority=10.0)
    frame = _frame()
    swing = [
        Arms(JointCommand({"LShoulderPitch": 1.4 + a, "RShoulderPitch": 1.4 - a}, 0.6, 0.3))
        for a in (0.2, -0.2)
    ]
    generator = runtime.walk.generator
    update = generator.update
    updates = []

    def counted(dt, sense):
        updates.append(dt)
        return update(dt, sense)

    generator.update = counted
    phases = []
    for i in range(600):
        if i % 40 == 0:
            arms.emit(swing[(i // 40) % 2], priority=5.0)
        runtime.step(frame)
        phases.append(runtime.walk.status().phase)
    started = phases.index(Phase.WALKING)
    assert Phase.STARTING not in phases[started:]
    # Advanced exactly once per cycle, always by one cycle.
    assert len(updates) == 600
    assert max(updates) == pytest.approx(runtime.period)
    assert min(updates) == pytest.approx(runtime.period)
    assert runtime.counters.provider_errors == runtime.counters.cycle_errors == 0


def test_garbage_sensors_never_stop_the_walk_or_reach_the_servos_as_nan():
    runtime = Runtime()
    runtime.emit(Walk(0.15, 0.0, 0.3), priority=10.0, emitter="walker")
    good = _frame()
    bad = attrs.evolve(
        good,
        gyroscope=np.array([np.nan, np.inf, -np.inf]),
        angles=np.array([np.nan, np.nan]),
        fsr=np.full(8, np.nan),
    )
    for i in range(300):
        out = runtime.step(bad if i % 7 == 3 else good)
        assert np.all(np.isfinite(out.position)) and np.all(np.isfinite(out.stiffness))
    assert runtime.counters.cycle_errors == runtime.counters.provider_errors == 0
    assert np.isfinite(runtime.walk.status().odometry.x)
