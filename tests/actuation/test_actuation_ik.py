"""IK tasks: the joint targets they give put the soles (and the gaze) where asked."""

from __future__ import annotations

import numpy as np
import pytest
from actuation_rig import Rig
from hypothesis import given
from hypothesis import strategies as st

from director import RunState
from lola_io.joints import JOINT_INDEX, LEFT_LEG_JOINTS, NUM_JOINTS, RIGHT_LEG_JOINTS
from providers.actuation import SERVO_TASKS, HeadIK, LeftLegIK, LegsIK, LookAt, RightLegIK
from providers.model import load_nao_model, look_at, nao_kinematics
from providers.model.leg_ik import POSITION_TOLERANCE, ROTATION_TOLERANCE
from providers.model.transforms import pose_error

MODEL = load_nao_model()
KIN = nao_kinematics()
LEGS = (*LEFT_LEG_JOINTS, *RIGHT_LEG_JOINTS)
HYP = JOINT_INDEX["LHipYawPitch"]


@st.composite
def leg_postures(draw) -> np.ndarray:
    """Joint angles with the legs somewhere inside a walk's range, the rest at zero."""
    q = MODEL.clamp(np.zeros(NUM_JOINTS))
    bends = {
        "HipYawPitch": (-0.3, 0.1),
        "HipRoll": (-0.2, 0.2),
        "HipPitch": (-0.9, 0.1),
        "KneePitch": (0.1, 1.6),
        "AnklePitch": (-0.9, 0.4),
        "AnkleRoll": (-0.2, 0.2),
    }
    for name in LEGS:
        low, high = bends[name[1:]]
        q[JOINT_INDEX[name]] = draw(st.floats(low, high))
    return MODEL.clamp(q)


def assert_reached(q: np.ndarray, left=None, right=None) -> None:
    got_left, got_right = KIN.sole_poses(q)
    for want, got in ((left, got_left), (right, got_right)):
        if want is None:
            continue
        distance, angle = pose_error(want, got)
        # The safety stage is not involved: these are the tree's own targets.
        assert distance <= POSITION_TOLERANCE and angle <= ROTATION_TOLERANCE


@given(leg_postures())
def test_legs_ik_targets_put_both_soles_where_asked(q) -> None:
    left, right = KIN.sole_poses(q)
    rig = Rig()
    rig.emit(LegsIK(left, right, stiffness=0.9))
    position, stiffness = rig.step()
    assert_reached(position, left, right)
    assert all(stiffness[JOINT_INDEX[n]] == 0.9 for n in LEGS)
    assert rig.director.run_state(rig.emitter(), LegsIK) is RunState.NO_TASK


@given(leg_postures())
def test_left_leg_ik_puts_the_left_sole_where_asked(q) -> None:
    left, _ = KIN.sole_poses(q)
    rig = Rig()
    position, _ = rig.step()
    rig.emit(LeftLegIK(left))
    position, stiffness = rig.step()
    assert_reached(position, left=left)
    moved = {n for n in JOINT_INDEX if stiffness[JOINT_INDEX[n]] > 0}
    assert moved == set(LEFT_LEG_JOINTS)


@given(leg_postures())
def test_right_leg_ik_keeps_the_commanded_hip_yaw_pitch(q) -> None:
    _, right = KIN.sole_poses(q)
    rig = Rig()
    rig.emit(SERVO_TASKS["LHipYawPitch"](float(q[HYP]), 1.0, 0.0))
    rig.step()
    rig.emit(RightLegIK(right, duration=0.06))
    position, stiffness = rig.step(6)
    assert position[HYP] == q[HYP]
    assert_reached(position, right=right)
    moved = {n for n in JOINT_INDEX if stiffness[JOINT_INDEX[n]] > 0}
    assert moved == {"LHipYawPitch", *RIGHT_LEG_JOINTS}
    assert rig.director.run_state(rig.emitter(), RightLegIK) is RunState.NO_TASK


def test_head_ik_commands_what_look_at_solves() -> None:
    point = (1.0, 0.5, -0.3)
    rig = Rig()
    rig.emit(LookAt(point, camera="bottom", duration=0.12))
    assert LookAt is HeadIK
    rig.step(11)
    angles = look_at(np.array(point), "bottom")
    assert rig.angle("HeadYaw") == angles.yaw and rig.angle("HeadPitch") == angles.pitch


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: LeftLegIK(np.eye(3)), "4x4"),
        (lambda: RightLegIK(np.full((4, 4), np.nan)), "finite"),
        (lambda: LegsIK(np.eye(4), 2 * np.eye(4)), "last row"),
        (lambda: LegsIK(np.eye(4), np.diag([1.0, 2.0, 1.0, 1.0])), "orthonormal"),
        (lambda: LeftLegIK(np.diag([1.0, -1.0, 1.0, 1.0])), "reflection"),
        (lambda: LegsIK(np.eye(4), np.eye(4), left_weight=2.0), "left_weight"),
        (lambda: HeadIK((1.0, 0.0)), "3 finite coordinates"),
        (lambda: HeadIK((1.0, 0.0, 0.0), camera="side"), "camera"),
        (lambda: LeftLegIK(np.eye(4), stiffness=-0.1), "stiffness"),
    ],
)
def test_bad_ik_tasks_fail_at_construction(make, message) -> None:
    with pytest.raises(ValueError, match=message):
        make()
