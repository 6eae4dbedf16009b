"""The legs' static torques: checked against naosim's servos, mirror-symmetric, and shared
between the feet as the load is."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lola_io.joints import JOINT_INDEX, JOINT_NAMES
from motiond.walk_trial import WalkTrial
from naosim.model_builder import SERVO_KP
from providers.model import nao_kinematics
from providers.model.statics import LEG_CHAINS, nao_leg_statics

LEG_NAMES = (*LEG_CHAINS[0], *LEG_CHAINS[1])
PITCH = [i for i, name in enumerate(LEG_NAMES) if "Pitch" in name and "Yaw" not in name]


def _mirror(position: np.ndarray) -> np.ndarray:
    """The posture mirrored left to right: pitches swap sides, rolls and yaws swap and flip."""
    out = np.empty_like(position)
    for name, i in JOINT_INDEX.items():
        other = {"L": "R", "R": "L"}.get(name[0], "") + name[1:] if name[0] in "LR" else name
        j = JOINT_INDEX.get(other, JOINT_INDEX["LHipYawPitch"])
        flip = -1.0 if ("Roll" in name or "Yaw" in name) and "YawPitch" not in name else 1.0
        out[i] = flip * position[j]
    return out


def _stand() -> np.ndarray:
    q = np.zeros(len(JOINT_NAMES))
    for side in "LR":
        q[JOINT_INDEX[side + "HipPitch"]] = -0.4
        q[JOINT_INDEX[side + "KneePitch"]] = 0.9
        q[JOINT_INDEX[side + "AnklePitch"]] = -0.5
        q[JOINT_INDEX[side + "ShoulderPitch"]] = 1.5
    return q


def test_the_stands_pitch_torques_are_naosims():
    # The walk-ready stand in physics: each servo's torque is kp * (its command, three cycles
    # old, minus the measured angle). The rolls are left out: on two feet they also hold
    # however hard the feet happen to squeeze the floor between them, which statics cannot
    # know.
    trial = WalkTrial(seed=0)
    trial.runtime.walk.energy.enabled = False  # the plain stand: full stiffness
    trial.run(2.0)
    commands, measured, shares = [], [], []
    for _ in range(12):
        trial.step()
        commands.append(np.array(trial.command.position))
        measured.append(np.array(trial.runtime.state.position))
        fsr = trial.runtime.state.fsr
        shares.append(fsr[:4].sum() / fsr.sum())
    legs = [JOINT_INDEX.get(name, JOINT_INDEX["LHipYawPitch"]) for name in LEG_NAMES]
    servo = np.mean([SERVO_KP * (commands[k - 3] - measured[k]) for k in range(3, 12)], axis=0)[
        legs
    ]
    model = nao_leg_statics().torques(np.mean(measured[3:], axis=0), float(np.mean(shares)))
    assert np.abs(servo[PITCH] - model[PITCH]).max() < 0.06
    # And the loads are real ones: the knees and ankles carry most of a newton metre.
    assert np.abs(model[PITCH]).max() > 0.5


postures = st.lists(st.floats(-0.3, 0.3), min_size=25, max_size=25).map(
    lambda d: _stand() + np.array(d)
)


@settings(max_examples=40, deadline=None)
@given(postures, st.floats(0.0, 1.0))
def test_a_mirrored_posture_has_mirrored_torques(position, share):
    statics = nao_leg_statics()
    torques = statics.torques(position, share)
    mirrored = statics.torques(_mirror(position), 1.0 - share)
    sign = np.array([-1.0 if "Roll" in name else 1.0 for name in LEG_NAMES])
    # (The hip yaw-pitch axes are each other's mirror images, so its angle and torque keep
    # their sign.)
    np.testing.assert_allclose(mirrored[6:] * sign[6:], torques[:6], atol=1e-9)
    np.testing.assert_allclose(mirrored[:6] * sign[:6], torques[6:], atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(postures)
def test_on_one_foot_the_other_leg_holds_only_itself(position):
    statics = nao_leg_statics()
    for share, free in ((1.0, slice(6, 12)), (0.0, slice(0, 6))):
        lifted = statics.torques(position, share, loaded=False)
        np.testing.assert_allclose(statics.torques(position, share)[free], lifted[free], atol=1e-9)


def test_one_foot_carries_the_robot_its_knee_and_hip_roll_hold_the_most():
    statics = nao_leg_statics()
    q = _stand()
    on_left = statics.torques(q, 1.0)
    on_right = statics.torques(q, 0.0)
    knee, hip_roll = LEG_NAMES.index("LKneePitch"), LEG_NAMES.index("LHipRoll")
    # The hip roll holds the whole upper body out over the support foot: a couple of N m.
    assert abs(on_left[hip_roll]) > 1.5 > abs(on_right[hip_roll])
    assert abs(on_left[knee]) > abs(on_right[knee])
    # The weight is the robot's: the torso's centre of mass is where the kinematics put it.
    assert nao_kinematics().total_mass > 5.0
