"""The walk at full speed on legs damped as the motor table's weakest line says (docs: "A less
damped leg"): naosim's leg damping is the table's back-EMF slope at a gear efficiency of 0.89;
at 0.65, the efficiency naosim's 5 N m stall stands for, the pitch joints' slope is 0.78."""

from __future__ import annotations

import mujoco

from motiond.walk_trial import WalkTrial
from naosim.model_builder import build_spec

#: N m s/rad: 0.65 x 7.78 N m stall / 6.40 rad/s no-load (RE-Max 24 through 130.85:1).
PITCH_DAMPING = 0.78


def _less_damped_nao() -> mujoco.MjModel:
    spec = build_spec()
    pitches = ("HipPitch", "KneePitch", "AnklePitch")
    for joint in spec.joints:
        if joint.type == mujoco.mjtJoint.mjJNT_HINGE and joint.name[1:] in pitches:
            joint.damping = [PITCH_DAMPING, 0.0, 0.0]
    return spec.compile()


def test_the_walk_at_full_speed_stands_on_less_damped_legs():
    # With the forward lean and sag of before (0.10 and 0.26 rad) this walk fell 5.2 s in.
    trial = WalkTrial(model=_less_damped_nao(), seed=0)
    assert trial.run(1.0)
    start = trial.pose()[0]
    trial.walk(0.4)
    assert trial.run(10.0), f"fell at {trial.fell_at}"
    assert trial.pose()[0] - start > 2.5
