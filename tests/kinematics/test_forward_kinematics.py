"""Forward kinematics and centre of mass against MuJoCo's kinematics of the same numbers."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from kinematics_helpers import joint_angles

from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from providers.model import load_nao_model, nao_kinematics
from providers.model.transforms import rotation_angle

# NAOqi's StandInit-like posture: knees bent, arms down beside the body.
STAND = {
    "LHipPitch": -0.45,
    "LKneePitch": 0.9,
    "LAnklePitch": -0.45,
    "RHipPitch": -0.45,
    "RKneePitch": 0.9,
    "RAnklePitch": -0.45,
    "LShoulderPitch": 1.4,
    "RShoulderPitch": 1.4,
    "LShoulderRoll": 0.2,
    "RShoulderRoll": -0.2,
    "LElbowYaw": -1.2,
    "RElbowYaw": 1.2,
    "LElbowRoll": -0.5,
    "RElbowRoll": 0.5,
}


def stand_posture() -> np.ndarray:
    q = np.zeros(NUM_JOINTS)
    for name, value in STAND.items():
        q[JOINT_INDEX[name]] = value
    return load_nao_model().clamp(q)


@given(joint_angles())
def test_every_link_pose_matches_mujoco(reference, q):
    kin = nao_kinematics()
    poses = kin.link_poses(q)
    reference.set(q)
    for name, i in kin.link_index.items():
        want = reference.pose(name)
        assert np.abs(poses[i, :3, 3] - want[:3, 3]).max() < 1e-6, name
        assert rotation_angle(poses[i, :3, :3].T @ want[:3, :3]) < 1e-6, name


def test_link_table_covers_every_urdf_link():
    kin = nao_kinematics()
    assert set(kin.link_names) == {j.child for j in kin.model.joints.values()} | {"torso"}
    assert kin.link_names[0] == "torso"


@given(joint_angles())
def test_centre_of_mass_matches_mujoco_subtree_com(reference, q):
    reference.set(q)
    assert np.abs(nao_kinematics().center_of_mass(q) - reference.center_of_mass()).max() < 1e-6


def test_standing_centre_of_mass_matches_mujoco(reference):
    q = stand_posture()
    reference.set(q)
    com = nao_kinematics().center_of_mass(q)
    assert np.abs(com - reference.center_of_mass()).max() < 1e-6
    # Sanity of the posture itself: the CoM of a standing NAO is centred between the feet,
    # a few centimetres in front of and below the torso origin.
    assert abs(com[1]) < 1e-3
    assert -0.08 < com[2] < 0.0


def test_total_mass_is_the_sum_of_the_links(reference):
    kin = nao_kinematics()
    assert kin.total_mass == pytest.approx(load_nao_model().total_mass, abs=1e-12)
    assert kin.total_mass == pytest.approx(reference.total_mass, abs=1e-12)


@given(joint_angles())
def test_right_hip_yaw_pitch_follows_the_left(q):
    kin = nao_kinematics()
    # Mirror symmetry: with the legs' angles mirrored the pelvis frames mirror too, which
    # only holds if RHipYawPitch took LHipYawPitch's value.
    mirrored = q.copy()
    for joint in ("HipRoll", "AnklePitch", "HipPitch", "KneePitch", "AnkleRoll"):
        sign = -1.0 if "Roll" in joint else 1.0
        mirrored[JOINT_INDEX["R" + joint]] = sign * q[JOINT_INDEX["L" + joint]]
    mirrored = load_nao_model().clamp(mirrored)
    left, right = kin.link_poses(mirrored)[[kin.link_index["LPelvis"], kin.link_index["RPelvis"]]]
    flip = np.diag([1.0, -1.0, 1.0])
    np.testing.assert_allclose(flip @ left[:3, :3] @ flip, right[:3, :3], atol=1e-12)


def test_batched_calls_equal_single_calls():
    kin = nao_kinematics()
    rng = np.random.default_rng(7)
    model = load_nao_model()
    qs = rng.uniform(model.lower, model.upper, size=(2, 3, NUM_JOINTS))
    poses = kin.link_poses(qs)
    com = kin.center_of_mass(qs)
    assert poses.shape == (2, 3, len(kin.link_names), 4, 4)
    for i in range(2):
        for j in range(3):
            np.testing.assert_allclose(poses[i, j], kin.link_poses(qs[i, j]), atol=1e-15)
            np.testing.assert_allclose(com[i, j], kin.center_of_mass(qs[i, j]), atol=1e-15)


def test_results_are_not_shared_buffers():
    kin = nao_kinematics()
    q = stand_posture()
    first = kin.link_poses(q)
    kept = first.copy()
    kin.link_poses(np.zeros(NUM_JOINTS))
    np.testing.assert_array_equal(first, kept)


def test_sole_poses_sit_below_the_ankles():
    kin = nao_kinematics()
    q = stand_posture()
    left, right = kin.sole_poses(q)
    ankle = kin.link_pose(q, "l_ankle")
    np.testing.assert_allclose(left[:3, 3], ankle[:3, 3] - 0.04519 * ankle[:3, 2], atol=1e-15)
    assert left[1, 3] == pytest.approx(-right[1, 3])


def test_bad_input_is_rejected_clearly():
    kin = nao_kinematics()
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 25\)"):
        kin.link_poses(np.zeros(24))
    broken = np.zeros(NUM_JOINTS)
    broken[JOINT_INDEX["RKneePitch"]] = np.nan
    with pytest.raises(ValueError, match=r"not finite: \['RKneePitch'\]"):
        kin.center_of_mass(broken)
    with pytest.raises(ValueError, match="must be finite"):
        kin.link_poses(np.full((2, NUM_JOINTS), np.inf))
    with pytest.raises(KeyError, match="no link 'LFoot'"):
        kin.link_pose(np.zeros(NUM_JOINTS), "LFoot")


def test_the_centre_of_mass_is_the_same_whatever_the_string_hash():
    # A sum over a set of link names followed the hash seed in its last bit, and an IK near
    # a straight knee followed that to either branch: runs of one kick differed by radians.
    program = (
        "import numpy as np; from providers.model import nao_kinematics;"
        "q = np.linspace(-0.5, 0.5, 25); print(nao_kinematics().center_of_mass(q).tobytes().hex())"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", program],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in (0, 1, 2)
    }
    assert len(outputs) == 1
