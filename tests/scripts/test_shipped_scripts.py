"""The scripts shipped in scripts_yaml/: they load, stay in limits, move gently, stand stably."""

import itertools

import numpy as np
import pytest

from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from providers.model import load_nao_model
from providers.model.kinematics import nao_kinematics
from providers.model.support import support_polygon
from skills.keyframes import ScriptError
from skills.script_files import shipped_script, shipped_script_names

MODEL = load_nao_model()
POSTURES = ("Stand", "StandInit", "Crouch", "Sit", "Zero")
#: The brief's bound: no shipped move needs more than half of any joint's velocity limit.
SPEED_FRACTION = 0.5
#: Closest the centre of mass may come to the edge of the support polygon, m.
COM_MARGIN = 0.02


def test_the_issue_s_scripts_are_shipped():
    assert set(shipped_script_names()) >= {*POSTURES, "Relax"}


@pytest.mark.parametrize("name", shipped_script_names())
def test_every_shipped_script_loads_within_limits_for_the_whole_body(name):
    script = shipped_script(name)
    assert script.name == name
    for pose in script.poses():
        # The joints named so far (a first keyframe may name only some: a lead-in).
        named, lower, upper = (
            pose.position[pose.mask],
            MODEL.lower[pose.mask],
            MODEL.upper[pose.mask],
        )
        assert np.all(named >= lower) and np.all(named <= upper)
        assert np.all((pose.stiffness >= 0.0) & (pose.stiffness <= 1.0))
    assert script.final_pose().mask.all(), "a posture script sets every joint"


def test_unknown_shipped_script_is_a_script_error():
    with pytest.raises(ScriptError, match=r"no script 'Dance'.*shipped: .*StandInit"):
        shipped_script("Dance")


#: Get-ups are fast by necessity (a robot lies on the pitch until it stands) and are played only
#: by the get-up skill, from lying: their moves are held to the joints' full velocity limit, and
#: their first keyframe, which starts from however the robot lies, relies on the safety stage's
#: velocity clipping like every command does.
GET_UP_SCRIPTS = (
    "GetUpFront",
    "GetUpBack",
    "GetUpBackLeft",
    "GetUpRollOverLeft",
    "GetUpRollOverRight",
)


@pytest.mark.parametrize("name", shipped_script_names())
def test_shipped_moves_need_at_most_half_of_any_joint_s_velocity_limit(name):
    script = shipped_script(name)
    limit = (1.0 if name in GET_UP_SCRIPTS else SPEED_FRACTION) * MODEL.velocity
    # The first keyframe starts wherever the robot is: it must be slow enough from any
    # posture within the limits, i.e. for a sweep across each joint's whole range.
    first = script.frames[0]
    for joint in first.targets if name not in GET_UP_SCRIPTS else ():
        i = JOINT_INDEX[joint]
        sweep = max(
            first.targets[joint].position - MODEL.lower[i],
            MODEL.upper[i] - first.targets[joint].position,
        )
        assert sweep <= limit[i] * first.duration, f"{name} frame 0 {joint}"
    poses = list(script.poses())
    for k in range(1, len(poses)):
        step = np.abs(poses[k].position - poses[k - 1].position)
        needed = step[poses[k - 1].mask]
        allowed = (limit * script.frames[k].duration)[poses[k - 1].mask]
        assert np.all(needed <= allowed), f"{name} frame {k}"


def test_relax_sits_down_then_goes_limp():
    relax = list(shipped_script("Relax").poses())
    sit = shipped_script("Sit").final_pose()
    assert relax[0] == sit
    np.testing.assert_array_equal(relax[-1].position, sit.position)
    assert not relax[-1].stiffness.any()


def test_zero_is_zero_except_where_the_limits_forbid_it():
    pose = shipped_script("Zero").final_pose()
    forbidden = (MODEL.lower > 0.0) | (MODEL.upper < 0.0)
    assert [n for n in np.flatnonzero(forbidden)] == [
        JOINT_INDEX["LElbowRoll"],
        JOINT_INDEX["RElbowRoll"],
    ]
    assert not pose.position[~forbidden].any()
    # The elbow rolls sit just inside their stop nearest to 0.
    nearest = np.where(MODEL.lower > 0.0, MODEL.lower, MODEL.upper)[forbidden]
    np.testing.assert_allclose(pose.position[forbidden], nearest, atol=0.001)


def _support_margin(position: np.ndarray) -> float:
    """Signed distance (m) of the CoM's ground projection inside the support polygon.

    Checks first that both soles are flat on one plane (parallel and at the same height), so
    the left sole's xy-plane is the ground.
    """
    kin = nao_kinematics()
    left, right = kin.sole_poses(position)
    to_left = np.linalg.inv(left)
    right_in_left = to_left @ right
    assert right_in_left[2, 2] == pytest.approx(1.0, abs=1e-9), "soles not parallel"
    assert right_in_left[2, 3] == pytest.approx(0.0, abs=1e-6), "soles not at one height"
    com = (to_left[:3, :3] @ kin.center_of_mass(position) + to_left[:3, 3])[:2]
    polygon = support_polygon(left, right, left_contact=True, right_contact=True, frame=left)
    # Counter-clockwise polygon: the inside is left of every edge.
    edges = np.roll(polygon, -1, axis=0) - polygon
    normals = np.stack([-edges[:, 1], edges[:, 0]], axis=1)
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    return float(np.min(np.sum((com - polygon) * normals, axis=1)))


@pytest.mark.parametrize("name", POSTURES)
def test_each_posture_stands_on_flat_feet_with_the_com_inside_the_support_polygon(name):
    assert _support_margin(shipped_script(name).final_pose().position) >= COM_MARGIN


def test_moving_between_any_two_postures_keeps_the_com_over_the_feet():
    # Scripts interpolate joint by joint, so every blend of two postures is a pose the robot
    # passes through on its way from one to the other.
    finals = {name: shipped_script(name).final_pose().position for name in POSTURES}
    for a, b in itertools.combinations(POSTURES, 2):
        for s in np.linspace(0.0, 1.0, 11):
            blend = finals[a] + s * (finals[b] - finals[a])
            assert _support_margin(blend) >= COM_MARGIN, f"{a} -> {b} at {s:.1f}"


def test_support_margin_sees_a_com_outside_the_feet():
    # The check above can fail: leaning the torso far forward over straight legs puts the CoM
    # past the toes.
    lean = np.zeros(NUM_JOINTS)
    lean[[JOINT_INDEX["LHipPitch"], JOINT_INDEX["RHipPitch"]]] = -1.5
    lean[[JOINT_INDEX["LShoulderPitch"], JOINT_INDEX["RShoulderPitch"]]] = -1.5
    assert _support_margin(lean) < 0.0


@pytest.mark.parametrize(
    ("name", "mirror_of"),
    [("GetUpRollOverLeft", "GetUpRollOverRight"), ("GetUpBackLeft", "GetUpBack")],
)
def test_the_left_handed_get_ups_are_the_right_handed_ones_mirrored(name, mirror_of):
    right = shipped_script(mirror_of).mirrored(name)
    left = shipped_script(name)
    assert len(left.frames) == len(right.frames)
    for ours, mirrored in zip(left.poses(), right.poses(), strict=True):
        # Where a joint's limits are not symmetric the mirrored target is clipped to them.
        want = np.clip(mirrored.position, MODEL.lower, MODEL.upper)
        np.testing.assert_allclose(ours.position[ours.mask], want[ours.mask], atol=1e-4)
        np.testing.assert_array_equal(ours.mask, mirrored.mask)
