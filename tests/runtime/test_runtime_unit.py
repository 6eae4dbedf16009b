"""The runtime's cycle without a socket: `Runtime.step` fed frames directly."""

from __future__ import annotations

import math

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lola_io.frames import SensorFrame
from lola_io.joints import JOINT_INDEX, JOINT_NAMES, NUM_JOINTS
from motiond.runtime import SAFETY_PRIORITY, PriorityError, Runtime
from motiond.simulated import start_pose
from providers.actuation import Head, JointCommand
from providers.model import load_nao_model
from skills.freeze import FREEZE_PRIORITY
from skills.safety import HoldPosture
from skills.safety.hold import load_offsets
from skills.script import Script
from skills.script_files import shipped_script

MODEL = load_nao_model()


def standing(position=None) -> SensorFrame:
    frame = SensorFrame.neutral(start_pose("StandInit") if position is None else position)
    return attrs.evolve(frame, fsr=np.full(8, 1.2))


def test_starts_limp_at_the_measured_angles_when_the_feet_carry_nothing():
    runtime = Runtime()
    frame = attrs.evolve(standing(), fsr=np.zeros(8))  # sitting, lying or held in the air
    out = runtime.step(frame)
    assert np.all(out.stiffness == 0.0)
    np.testing.assert_allclose(out.position, MODEL.clamp(frame.position))


def test_holds_a_standing_robot_at_the_measured_angles_stiffening_smoothly():
    runtime = Runtime()
    frame = standing()  # upright, feet loaded, reported stiffness 0
    legs = [i for i in range(NUM_JOINTS) if "Knee" in JOINT_NAMES[i] or "Hip" in JOINT_NAMES[i]]
    sent = [runtime.step(frame) for _ in range(40)]
    # The legs past their angles by what their servos give under the load, the rest at theirs.
    held = MODEL.clamp(frame.position + load_offsets(HoldPosture(), frame.position, frame.fsr))
    for out in sent:
        np.testing.assert_allclose(out.position, held)
    leg_stiffness = [float(out.stiffness[legs].min()) for out in sent]
    assert 0.0 < leg_stiffness[0] <= 0.25  # no jump from limp to full stiffness
    assert leg_stiffness == sorted(leg_stiffness) and leg_stiffness[-1] == 1.0


@pytest.mark.parametrize("after", range(1, 8))
def test_a_behaviours_command_during_the_start_up_hold_is_not_undone(after):
    runtime = Runtime()
    frame = standing()
    for _ in range(after):  # the hold's stiffness ramp under way
        runtime.step(frame)
    runtime.emit(Head(JointCommand({"HeadYaw": 0.5})), priority=1.0)
    sent = [runtime.step(frame) for _ in range(12)]
    # Withdrawn after the task took the head, the hold's sequence took it back within the
    # same update and the head went back to 0.
    assert sent[-1].position[JOINT_INDEX["HeadYaw"]] == pytest.approx(0.5)


def test_the_clock_is_frames_times_12_ms_counting_missed_ones():
    runtime = Runtime()
    for _ in range(5):
        runtime.step(standing())
    assert runtime.now == pytest.approx(4 * 0.012)
    runtime.note_missed(3)
    runtime.step(standing())
    assert runtime.now == pytest.approx(8 * 0.012)
    assert runtime.counters.missed_cycles == 3 and runtime.counters.safe_sits == 0


@pytest.mark.parametrize("priority", [SAFETY_PRIORITY, FREEZE_PRIORITY, math.inf, math.nan])
def test_behaviours_cannot_use_the_runtimes_priorities(priority):
    runtime = Runtime()
    with pytest.raises(PriorityError, match="reserved"):
        runtime.emit(Script(shipped_script("Stand")), priority=priority)
    runtime.emit(Script(shipped_script("Stand")), priority=SAFETY_PRIORITY - 2.0)


def test_an_outage_of_safe_sit_after_cycles_commands_the_safe_sit():
    runtime = Runtime(safe_sit_after=10)
    runtime.emit(Script(shipped_script("StandInit")), priority=5.0)
    runtime.step(standing())
    runtime.note_missed(9, reconnected=True)
    runtime.step(standing())
    assert runtime.director.active(Script).script.name == "StandInit"
    runtime.note_missed(10, reconnected=True)
    runtime.step(standing())
    assert runtime.counters.safe_sits == 1
    assert runtime.director.active(Script).script.name == "Sit"
    runtime.release_safe_sit()
    runtime.emit(Script(shipped_script("Stand")), priority=5.0)
    runtime.step(standing())
    assert runtime.director.active(Script).script.name == "Stand"


def test_an_error_outside_the_director_sends_the_last_safe_frame(caplog):
    runtime = Runtime()
    runtime.emit(Head(JointCommand({"HeadYaw": 0.5}, 1.0, 0.1)), priority=1.0)
    for _ in range(20):
        good = runtime.step(standing())

    def broken(now):
        raise RuntimeError("servo table exploded")

    runtime.servos.targets = broken
    out = runtime.step(standing())
    assert out is good
    assert runtime.counters.cycle_errors == 1
    assert "servo table exploded" in caplog.text


def test_freeze_limps_every_joint_in_one_cycle_and_unfreeze_gives_them_back():
    runtime = Runtime()
    runtime.emit(Script(shipped_script("StandInit")), priority=5.0)
    for _ in range(30):
        runtime.step(standing())
    runtime.freeze()
    assert np.all(runtime.step(standing()).stiffness == 0.0)
    for _ in range(5):
        assert np.all(runtime.step(standing()).stiffness == 0.0)
    runtime.unfreeze()
    runtime.emit(Script(shipped_script("Stand")), priority=6.0)
    runtime.step(standing())
    out = runtime.step(standing())
    assert out.stiffness[JOINT_INDEX["LKneePitch"]] > 0.0


def test_the_tree_view_is_given_only_when_it_changed():
    runtime = Runtime()
    runtime.step(standing())
    assert runtime.tree_view() is not None
    assert runtime.tree_view() is None
    runtime.emit(Script(shipped_script("Stand")), priority=1.0)
    runtime.step(standing())
    assert "Script" in str(runtime.tree_view())


positions = st.lists(
    st.one_of(st.floats(-4.0, 4.0), st.sampled_from([math.nan, math.inf, -math.inf])),
    min_size=NUM_JOINTS,
    max_size=NUM_JOINTS,
)


@settings(max_examples=30)
@given(st.lists(positions, min_size=1, max_size=8))
def test_whatever_the_sensors_say_every_frame_is_safe(measured):
    runtime = Runtime()
    runtime.emit(Script(shipped_script("Crouch")), priority=3.0)
    last = None
    for position in measured:
        out = runtime.step(standing(np.array(position)))
        assert np.all(np.isfinite(out.position)) and np.all(np.isfinite(out.stiffness))
        assert np.all(out.position >= MODEL.lower) and np.all(out.position <= MODEL.upper)
        assert np.all((out.stiffness >= 0.0) & (out.stiffness <= 1.0))
        if last is not None:
            step = np.abs(out.position - last)
            assert np.all(step <= MODEL.velocity * 0.012 + 1e-12)
        last = out.position
    assert runtime.counters.cycle_errors == 0
