"""The keyframe value types: what they accept, what they refuse, and what they derive."""

import math
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lola_io.joints import JOINT_INDEX, JOINT_NAMES
from skills.keyframes import JointTarget, Keyframe, KeyframeScript, ScriptError


def test_joint_target_defaults_to_full_stiffness():
    assert JointTarget(0.5) == JointTarget(0.5, 1.0)


@pytest.mark.parametrize(
    ("position", "stiffness", "match"),
    [
        (math.nan, 1.0, "position must be a finite"),
        (math.inf, 1.0, "position must be a finite"),
        (0.0, 1.5, r"stiffness must be within \[0, 1\]"),
        (0.0, -0.1, r"stiffness must be within \[0, 1\]"),
        (0.0, math.nan, "stiffness must be a finite"),
    ],
)
def test_joint_target_refuses_bad_numbers(position, stiffness, match):
    with pytest.raises(ValueError, match=match):
        JointTarget(position, stiffness)


def test_joint_target_refuses_booleans_and_text():
    with pytest.raises(TypeError, match="expected a number"):
        JointTarget(True)
    with pytest.raises(TypeError, match="expected a number"):
        JointTarget("0.5")


def test_keyframe_refuses_unknown_joint_negative_duration_and_no_targets():
    with pytest.raises(ValueError, match="unknown joint"):
        Keyframe(1.0, {"RHipYawPitch": JointTarget(0.0)})
    with pytest.raises(ValueError, match="must not be negative"):
        Keyframe(-0.1, {"HeadYaw": JointTarget(0.0)})
    with pytest.raises(ValueError, match="targets must not be empty"):
        Keyframe(1.0, {})


def test_keyframe_orders_targets_as_lola_does():
    frame = Keyframe(1.0, {"RHand": JointTarget(0.0), "HeadYaw": JointTarget(0.1)})
    assert frame.joints == ("HeadYaw", "RHand")
    assert frame == Keyframe(1.0, {"HeadYaw": JointTarget(0.1), "RHand": JointTarget(0.0)})


def test_script_joints_duration_and_poses_carry_earlier_targets():
    script = KeyframeScript(
        "two",
        [
            Keyframe(0.5, {"LKneePitch": JointTarget(1.0, 0.5)}),
            Keyframe(1.5, {"HeadYaw": JointTarget(-0.2)}),
        ],
    )
    assert script.joints == ("HeadYaw", "LKneePitch")
    assert script.duration == pytest.approx(2.0)
    first, second = script.poses()
    knee, head = JOINT_INDEX["LKneePitch"], JOINT_INDEX["HeadYaw"]
    assert first.mask.sum() == 1 and first.position[knee] == 1.0
    assert second.mask[[knee, head]].all() and second.mask.sum() == 2
    # The knee keeps the first keyframe's target in the second.
    assert second.position[knee] == 1.0 and second.stiffness[knee] == 0.5
    assert second.position[head] == -0.2
    assert script.final_pose() == second


def test_script_needs_frames():
    with pytest.raises(ValueError, match="frames must not be empty"):
        KeyframeScript("empty", [])


@given(st.floats(min_value=0.01, max_value=100.0))
def test_with_speed_divides_every_duration(factor):
    script = KeyframeScript(
        "s",
        [
            Keyframe(1.0, {"HeadYaw": JointTarget(0.0)}),
            Keyframe(0.3, {"HeadYaw": JointTarget(1.0)}),
        ],
    )
    fast = script.with_speed(factor)
    assert [f.duration for f in fast.frames] == [1.0 / factor, 0.3 / factor]
    assert [f.targets for f in fast.frames] == [f.targets for f in script.frames]


@pytest.mark.parametrize("factor", [0.0, -1.0, math.inf, math.nan])
def test_with_speed_refuses_non_positive_or_non_finite(factor):
    script = KeyframeScript("s", [Keyframe(1.0, {"HeadYaw": JointTarget(0.0)})])
    with pytest.raises(ValueError, match="speed factor"):
        script.with_speed(factor)


def test_script_error_names_file_frame_and_field():
    error = ScriptError("Stand.yaml", 2, "targets[0].position", "too far")
    assert str(error) == "Stand.yaml: frame 2: targets[0].position: too far"
    assert (error.source, error.frame, error.field) == ("Stand.yaml", 2, "targets[0].position")
    assert isinstance(error, ValueError)
    assert str(ScriptError("x.yaml", None, None, "malformed")) == "x.yaml: malformed"
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.frame, copy.field) == (str(error), 2, "targets[0].position")


def test_pose_arrays_are_lola_ordered():
    targets = {name: JointTarget(float(i) / 100.0) for i, name in enumerate(JOINT_NAMES)}
    pose = KeyframeScript("all", [Keyframe(1.0, targets)]).final_pose()
    np.testing.assert_array_equal(pose.position, np.arange(25) / 100.0)
    assert pose.mask.all()


def test_a_mirrored_script_swaps_sides_and_turns_rolls_and_yaws_round():
    script = KeyframeScript(
        "Reach",
        [
            Keyframe(
                0.5,
                {
                    "LShoulderPitch": JointTarget(0.3, 0.8),
                    "LShoulderRoll": JointTarget(0.9),
                    "LElbowYaw": JointTarget(-1.2),
                    "RHipRoll": JointTarget(-0.2),
                    "LHipYawPitch": JointTarget(-0.4),
                    "HeadYaw": JointTarget(0.5),
                    "HeadPitch": JointTarget(0.1),
                    "RHand": JointTarget(0.7),
                },
            )
        ],
    )
    mirrored = script.mirrored("ReachRight")
    assert mirrored.name == "ReachRight"
    (frame,) = mirrored.frames
    assert frame.duration == 0.5
    assert frame.targets["RShoulderPitch"] == JointTarget(0.3, 0.8)
    assert frame.targets["RShoulderRoll"].position == -0.9
    assert frame.targets["RElbowYaw"].position == 1.2
    assert frame.targets["LHipRoll"].position == 0.2
    assert frame.targets["LHipYawPitch"].position == -0.4  # one motor for both hips
    assert frame.targets["HeadYaw"].position == -0.5
    assert frame.targets["HeadPitch"].position == 0.1
    assert frame.targets["LHand"].position == 0.7
    assert mirrored.mirrored("Reach") == script
