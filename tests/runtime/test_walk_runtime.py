"""The walk inside the runtime with synthetic sensor frames (no physics): it is advanced once
every cycle, whatever else the Director is doing."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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

    def counted(dt, *sensed):
        updates.append(dt)
        return update(dt, *sensed)

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


def test_walk_toward_scales_its_shares_by_the_gait_and_frequency():
    from skills.walk import WalkToward
    from skills.walk.engine import MIN_FREQUENCY_SHARE

    runtime = Runtime()
    gait = runtime.walk.gait
    runtime.emit(WalkToward(1.0, 0.0, 0.0), priority=10.0, emitter="walker")
    frame = _frame()
    runtime.step(frame)
    assert runtime.walk.status().request.forward == pytest.approx(gait.max_forward)
    runtime.emit(WalkToward(-0.5, 0.0, 0.0, frequency=0.0), priority=10.0, emitter="walker")
    runtime.step(frame)
    request = runtime.walk.status().request
    assert request.forward == pytest.approx(-0.5 * gait.max_backward * MIN_FREQUENCY_SHARE)
    # Beyond the ellipsoid the request is clamped, and the clamped request is what is shown.
    runtime.emit(WalkToward(1.0, 1.0, 1.0), priority=10.0, emitter="walker")
    runtime.step(frame)
    r = runtime.walk.status().request
    norm = (r.forward / gait.max_forward) ** 2 + (r.left / gait.max_left) ** 2
    assert norm + (r.turn / gait.max_turn) ** 2 <= 1.0 + 1e-9


def test_a_script_takes_the_legs_and_the_walk_comes_back_from_where_they_are():
    from skills.script import Script

    runtime = Runtime()
    runtime.emit(Walk(0.15, 0.0, 0.0), priority=5.0, emitter="walker")
    frame = _frame()
    for _ in range(200):
        runtime.step(frame)
    assert runtime.walk.status().phase is Phase.WALKING
    # The script takes the legs for its 1.5 s, is Done and gives them back.
    runtime.emit(Script(shipped_script("StandInit")), priority=8.0, emitter="kicker")
    limits = runtime.model.velocity * runtime.period + 1e-9
    last = runtime.last_frame.position.copy()
    phases = []
    for _ in range(400):
        out = runtime.step(frame)
        # Never a jump: every joint within its speed limit from one frame to the next.
        assert np.all(np.abs(out.position - last) <= limits)
        last = out.position.copy()
        phases.append(runtime.walk.status().phase)
    # The walk started again from the script's stand, through its own stand, and walks.
    assert Phase.STARTING in phases
    assert phases[-1] is Phase.WALKING
    assert runtime.counters.safety_faults == 0


@settings(max_examples=15)
@given(
    st.lists(
        st.tuples(
            st.floats(-5.0, 5.0, allow_nan=False),
            st.floats(-5.0, 5.0, allow_nan=False),
            st.floats(-20.0, 20.0, allow_nan=False),
            st.integers(1, 60),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_random_walk_requests_only_ever_send_finite_frames_within_the_limits(requests):
    runtime = Runtime()
    model = runtime.model
    frame = _frame()
    for forward, left, turn, cycles in requests:
        runtime.emit(Walk(forward, left, turn), priority=10.0, emitter="walker")
        for _ in range(cycles):
            out = runtime.step(frame)
            assert np.all(np.isfinite(out.position)) and np.all(np.isfinite(out.stiffness))
            assert np.all(out.position >= model.lower - 1e-9)
            assert np.all(out.position <= model.upper + 1e-9)
    assert runtime.counters.provider_errors == runtime.counters.cycle_errors == 0
