"""The energy-saving stand: after standing still a while the legs carry the load with less
torque, without sinking or drifting; a walk request restores the stand before the first step."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from lola_io.joints import JOINT_INDEX
from motiond.safety_trial import stand_current_trial
from motiond.walk_trial import Perturbation, WalkTrial
from skills.walk.energy import (
    IDLE_AFTER,
    MAX_LEAN,
    MAX_RAISE,
    SAVING_STIFFNESS,
    TRIM_MIN,
    EnergySaver,
)

DT = 0.012


def _idle(
    saver: EnergySaver,
    seconds: float,
    error: float = 0.02,
    tilt: float = 0.05,
    hip_error: float = 0.0,
) -> None:
    for _ in range(round(seconds / DT)):
        saver.update(
            DT, standing=True, asked=False, ankle_error=error, tilt=tilt, hip_error=hip_error
        )


def test_saving_starts_only_after_standing_idle_and_moves_slowly():
    saver = EnergySaver()
    _idle(saver, IDLE_AFTER - 0.1)
    assert not saver.saving and saver.raise_ == 0.0 and saver.leg_stiffness(1.0) == 1.0
    assert saver.arm_stiffness(0.3) == 0.3
    _idle(saver, 0.5)
    assert saver.saving and saver.leg_stiffness(1.0) == SAVING_STIFFNESS
    assert saver.arm_stiffness(0.3) == 0.0  # the arms hang limp: nothing to hold
    assert 0.0 < saver.raise_ < MAX_RAISE
    # The ankles are loaded forwards (positive error): the centre of mass moves back.
    assert saver.trim < 0.0


def test_loaded_hips_lean_the_torso_within_a_bound():
    saver = EnergySaver()
    # The hips bend further than commanded (the torso's weight pulls it forwards): lean back.
    _idle(saver, 3.0, error=0.0, hip_error=0.01)
    assert saver.lean < 0.0
    _idle(saver, 60.0, error=0.0, hip_error=0.3)  # a load that never goes away
    assert saver.lean == -MAX_LEAN
    saver = EnergySaver()
    _idle(saver, 3.0, error=0.0, hip_error=-0.01)
    assert saver.lean > 0.0


@given(error=st.floats(-0.3, 0.3), hip_error=st.floats(-0.3, 0.3), seconds=st.floats(1.5, 20.0))
def test_a_request_restores_stiffness_at_once_and_holds_the_step_until_the_stand_is_back(
    error, hip_error, seconds
):
    saver = EnergySaver()
    _idle(saver, seconds, error=error, hip_error=hip_error)
    held = saver.update(DT, standing=True, asked=True, ankle_error=error, tilt=0.05)
    assert saver.leg_stiffness(1.0) == 1.0 and saver.arm_stiffness(0.3) == 0.3
    cycles = 1
    while held:
        held = saver.update(DT, standing=True, asked=True, ankle_error=error, tilt=0.05)
        cycles += 1
        assert cycles < 30, "the stand took longer than 0.36 s to come back"
    assert saver.raise_ == 0.0 and saver.trim == 0.0 and saver.lean == 0.0


def test_drifting_gives_up_and_restores_the_stand():
    saver = EnergySaver()
    _idle(saver, 60.0, error=0.3)  # a load that never goes away: the trim runs to its bound
    assert saver.trim > TRIM_MIN - 0.001
    assert not saver.saving or saver.trim > TRIM_MIN
    saver = EnergySaver()
    _idle(saver, 3.0)
    _idle(saver, 0.1, tilt=0.3)  # the torso tips: back to the walk's stand
    assert not saver.saving


def test_nan_readings_are_ignored():
    saver = EnergySaver()
    _idle(saver, 2.0)
    trim = saver.trim
    saver.update(DT, standing=True, asked=False, ankle_error=math.nan, tilt=0.0)
    saver.update(DT, standing=True, asked=False, ankle_error=0.0, tilt=0.0, hip_error=math.nan)
    assert saver.trim == trim


def test_in_physics_the_saving_stand_draws_less_current_at_the_same_height():
    plain, low, high = stand_current_trial(False, 25.0)
    saving, s_low, s_high = stand_current_trial(True, 25.0)
    # Measured 0.570 (1.49 A against 2.61 A over 25 s); the goal is 0.5 (see docs).
    # The saving stand drew 1.54 A before the walk's stand moved its centre of mass 1.2 cm
    # back (com_offset 0.025): that stand itself draws less now (2.61 A, was 2.90).
    assert saving < 1.6, f"the saving stand draws {saving:.2f} A"
    assert saving / plain < 0.6, f"{saving:.2f} A against {plain:.2f} A"
    assert s_high - s_low < 0.003, "the saving stand sinks or bobs"
    assert abs(s_low - low) <= 0.01 and abs(s_high - high) <= 0.01


def test_on_a_perturbed_body_the_saving_stand_finds_its_load_too():
    # Masses and centres of mass off load the hips where naosim's NAO's are free: the torso's
    # lean follows the hip pitch's load (0.77 without it, 0.62 with it).
    body = Perturbation(seed=3)
    plain, _, _ = stand_current_trial(False, 25.0, perturbation=body)
    saving, s_low, s_high = stand_current_trial(True, 25.0, perturbation=body)
    assert saving / plain < 0.66, f"{saving:.2f} A against {plain:.2f} A"
    assert s_high - s_low < 0.003, "the saving stand sinks or bobs"


def test_walking_off_from_the_saving_stand_does_not_fall():
    trial = WalkTrial(seed=3)
    assert trial.run(4.0)
    assert trial.runtime.walk.energy.saving
    arms = [JOINT_INDEX[n] for n in ("LShoulderPitch", "RShoulderPitch")]
    assert (trial.command.stiffness[arms] == 0.0).all()
    trial.walk(0.3, 0.0, 0.0)
    x0 = trial.pose()[0]
    assert trial.run(4.0), f"fell at {trial.fell_at}"
    assert trial.pose()[0] - x0 > 0.6
    # The arms hung limp while saving; walking, they are stiff and swing again.
    assert (trial.command.stiffness[arms] > 0.0).all()
