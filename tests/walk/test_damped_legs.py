"""The walk at full speed and the get-ups on legs damped as the motor table's weakest line says
(docs: "A less damped leg"): naosim's leg damping is the table's back-EMF slope at a gear
efficiency of 0.89; at 0.65, the efficiency naosim's 5 N m stall stands for, the pitch joints'
slope is 0.78."""

from __future__ import annotations

import mujoco
import pytest

from motiond import walk_trial
from motiond.safety_trial import getup_trial, push_fall_trial
from motiond.walk_trial import WalkTrial
from naosim.model_builder import build_spec

#: N m s/rad: 0.65 x 7.78 N m stall / 6.40 rad/s no-load (RE-Max 24 through 130.85:1).
PITCH_DAMPING = 0.78


def _less_damped_spec(**kwargs) -> mujoco.MjSpec:
    spec = build_spec(**kwargs)
    pitches = ("HipPitch", "KneePitch", "AnklePitch")
    for joint in spec.joints:
        if joint.type == mujoco.mjtJoint.mjJNT_HINGE and joint.name[1:] in pitches:
            joint.damping = [PITCH_DAMPING, 0.0, 0.0]
    return spec


def _less_damped_nao() -> mujoco.MjModel:
    return _less_damped_spec().compile()


def test_the_walk_at_full_speed_stands_on_less_damped_legs():
    # With the forward lean and sag of before (0.10 and 0.26 rad) this walk fell 5.2 s in.
    trial = WalkTrial(model=_less_damped_nao(), seed=0)
    assert trial.run(1.0)
    start = trial.pose()[0]
    trial.walk(0.4)
    assert trial.run(10.0), f"fell at {trial.fell_at}"
    assert trial.pose()[0] - start > 2.5


@pytest.mark.parametrize("side", ["front", "back"])
def test_a_get_up_on_less_damped_legs_stays_standing(side):
    # The front get-up's last rise keyframe at 170 ms swung the torso up so fast that the
    # whole robot rocked back onto its heels after it (0.21 rad back on naosim's NAO, 0.6 here)
    # and these legs fell backwards a second after standing, from 15 of 16 starts.
    result = getup_trial(side, 0, model=_less_damped_nao())
    assert result.stood and not result.fell_after, result


def test_a_forward_fall_on_less_damped_legs_gets_up():
    # Pushed over forwards from standing, this body's pike ended with its legs still closing
    # (the feet-under keyframes waited for the legs within 0.15 rad): its rise tipped it onto
    # its face at every attempt, and it gave up.
    fall = push_fall_trial("front", walking=False, impulse=4.0, model=_less_damped_nao())
    assert fall.impact_at is not None and fall.stood


def test_a_fall_at_full_speed_on_a_perturbed_nao_with_these_legs_gets_up(monkeypatch):
    # Perturbed NAO #1 on these legs, pushed to its left walking at 0.4 m/s: its pike ended on
    # its toes (soles pitched 0.08 rad, heels unloaded) with the pike's ankles at 0.07 rad, the
    # rise's ankle push lifted the heels instead of moving the hips back, and it tipped onto
    # its face at every attempt until it gave up. The pike's ankles are 0.11 rad now.
    monkeypatch.setattr(walk_trial, "build_spec", _less_damped_spec)
    body = walk_trial.Perturbation(seed=1, damping=0.0)  # the leg damping stays as set here
    fall = push_fall_trial("left", walking=True, walk_speed=0.4, perturbation=body)
    assert fall.impact_at is not None and fall.stood
