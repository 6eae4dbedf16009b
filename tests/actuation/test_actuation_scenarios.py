"""Scenarios of the actuation tree: servos, groups, sequences, scripts, priorities, Freeze."""

from __future__ import annotations

import numpy as np
import pytest
from actuation_rig import PERIOD, Rig

from director import RunState
from lola_io.joints import HEAD_JOINTS, JOINT_INDEX, JOINT_NAMES, NUM_JOINTS
from providers.actuation import (
    SERVO_TASKS,
    Body,
    BodySequence,
    Head,
    HeadSequence,
    JointCommand,
    LeftArm,
    Legs,
    LegsSequence,
    smallest_group,
)
from skills.freeze import FREEZE_PRIORITY, Freeze, Unfreeze
from skills.keyframes import JointTarget, Keyframe, KeyframeScript
from skills.script import Script
from skills.script_files import shipped_script

YAW, PITCH = JOINT_INDEX["HeadYaw"], JOINT_INDEX["HeadPitch"]


def script_of(*frames: tuple[float, dict[str, float]], stiffness: float = 1.0) -> KeyframeScript:
    """A script from (duration s, {joint: position}) frames."""
    return KeyframeScript(
        name="test",
        frames=[
            Keyframe(d, {n: JointTarget(p, stiffness) for n, p in targets.items()})
            for d, targets in frames
        ],
    )


def test_every_joint_starts_limp_at_the_initial_position() -> None:
    initial = np.linspace(-0.1, 0.1, NUM_JOINTS)
    rig = Rig(initial)
    position, stiffness = rig.step()
    np.testing.assert_array_equal(position, initial)
    np.testing.assert_array_equal(stiffness, np.zeros(NUM_JOINTS))


def test_a_servo_reaches_its_target_at_the_end_of_its_duration_and_is_done() -> None:
    rig = Rig()
    rig.emit(SERVO_TASKS["HeadYaw"](0.6, 0.8, 0.12))
    rig.step()  # applied at t = 0.012: the move runs from 0.012 to 0.132
    assert rig.director.run_state(rig.emitter(), SERVO_TASKS["HeadYaw"]) is RunState.RUNNING
    rig.step(9)  # t = 0.120: still moving
    assert 0.0 < rig.angle("HeadYaw") < 0.6
    assert rig.director.run_state(rig.emitter(), SERVO_TASKS["HeadYaw"]) is RunState.RUNNING
    rig.step()  # t = 0.132: the end of the duration
    assert rig.angle("HeadYaw") == 0.6
    assert rig.stiffness[YAW] == 0.8
    # Done: a root task is removed, and the joint keeps its last target and stiffness.
    assert rig.director.run_state(rig.emitter(), SERVO_TASKS["HeadYaw"]) is RunState.NO_TASK
    rig.step(5)
    assert rig.angle("HeadYaw") == 0.6 and rig.stiffness[YAW] == 0.8


def test_a_zero_duration_servo_jumps_and_is_done_at_once() -> None:
    rig = Rig()
    rig.emit(SERVO_TASKS["LKneePitch"](1.0, 1.0, 0.0))
    rig.step()
    assert rig.angle("LKneePitch") == 1.0
    assert rig.director.run_state(rig.emitter(), SERVO_TASKS["LKneePitch"]) is RunState.NO_TASK


def test_a_group_command_moves_only_its_joints() -> None:
    rig = Rig()
    command = JointCommand({n: 0.3 for n in ("LShoulderPitch", "LElbowYaw")}, 0.7, 0.24)
    rig.emit(LeftArm(command))
    rig.run_for(0.3)
    moved = {JOINT_NAMES[i] for i in np.flatnonzero(rig.position)}
    stiff = {JOINT_NAMES[i] for i in np.flatnonzero(rig.stiffness)}
    assert moved == stiff == {"LShoulderPitch", "LElbowYaw"}
    assert rig.angle("LElbowYaw") == 0.3
    assert rig.director.run_state(rig.emitter(), LeftArm) is RunState.NO_TASK


def test_a_group_cannot_carry_joints_outside_it() -> None:
    with pytest.raises(ValueError, match=r"Head cannot move \['LKneePitch'\]"):
        Head(JointCommand({"LKneePitch": 0.2}))


def test_a_group_task_is_done_only_when_all_its_servos_are() -> None:
    rig = Rig()
    # Linear and minimum jerk, same duration: both servos end in the same cycle.
    rig.emit(Head(JointCommand({"HeadYaw": 0.4, "HeadPitch": -0.3}, 1.0, 0.06, "linear")))
    rig.step(5)
    assert rig.director.run_state(rig.emitter(), Head) is RunState.RUNNING
    rig.step()
    assert rig.director.run_state(rig.emitter(), Head) is RunState.NO_TASK
    assert (rig.angle("HeadYaw"), rig.angle("HeadPitch")) == (0.4, -0.3)


def test_sequences_advance_frame_by_frame_and_end_done() -> None:
    rig = Rig()
    frames = (
        JointCommand({"HeadYaw": 0.2}, 1.0, 0.12),
        JointCommand({"HeadPitch": -0.2}, 0.5, 0.12),
        JointCommand({"HeadYaw": -0.4, "HeadPitch": 0.1}, 1.0, 0.24),
    )
    rig.emit(HeadSequence(frames))
    rig.step(10)  # t = 0.120: the first frame (emitted at t = 0.012) is still moving
    assert 0.0 < rig.angle("HeadYaw") < 0.2
    rig.step()  # first frame done at t = 0.132
    assert rig.angle("HeadYaw") == 0.2 and rig.angle("HeadPitch") == 0.0
    assert rig.stiffness[PITCH] == 0.5  # the second frame started in the same cycle
    rig.step(10)  # second frame done at t = 0.252; HeadYaw keeps 0.2
    assert rig.angle("HeadYaw") == 0.2 and rig.angle("HeadPitch") == -0.2
    assert rig.director.run_state(rig.emitter(), HeadSequence) is RunState.RUNNING
    rig.step(20)  # third frame done at t = 0.492
    assert rig.angle("HeadYaw") == -0.4 and rig.angle("HeadPitch") == 0.1
    assert rig.director.run_state(rig.emitter(), HeadSequence) is RunState.NO_TASK


@pytest.mark.parametrize(
    ("joints", "sequence"),
    [
        (("HeadYaw",), HeadSequence),
        (("LKneePitch", "RAnkleRoll"), LegsSequence),
        (("HeadPitch", "RKneePitch"), BodySequence),
    ],
)
def test_script_plays_on_the_smallest_covering_group(joints, sequence) -> None:
    script = script_of((0.12, {j: 0.1 for j in joints}))
    assert type(Script(script).sequence) is sequence
    rig = Rig()
    rig.emit(Script(script))
    rig.step()
    assert rig.director.active(sequence) is not None
    others = [s for s in (HeadSequence, LegsSequence, BodySequence) if s is not sequence]
    assert all(rig.director.active(s) is None for s in others)


def test_smallest_group_of_each_limb() -> None:
    assert smallest_group({"LHipYawPitch", "RHipRoll"}) is Legs
    assert smallest_group(HEAD_JOINTS) is Head
    assert smallest_group({"LHand", "HeadYaw"}) is Body


def test_a_script_ends_on_its_final_pose_and_is_done() -> None:
    script = shipped_script("StandInit")
    rig = Rig()
    rig.emit(Script(script))
    rig.run_for(script.duration + PERIOD)
    final = script.final_pose()
    np.testing.assert_allclose(rig.position[final.mask], final.position[final.mask], atol=1e-12)
    np.testing.assert_array_equal(rig.stiffness[final.mask], final.stiffness[final.mask])
    assert rig.director.run_state(rig.emitter(), Script) is RunState.NO_TASK


def test_speed_factor_divides_every_duration() -> None:
    script = script_of((0.48, {"HeadYaw": 0.5}), (0.48, {"HeadYaw": -0.5}))
    rig = Rig()
    rig.emit(Script(script, speed=2.0))
    rig.step(21)  # first frame ends 0.24 s after it starts at t = 0.012
    assert rig.angle("HeadYaw") == 0.5
    rig.step(20)
    assert rig.angle("HeadYaw") == -0.5
    assert rig.director.run_state(rig.emitter(), Script) is RunState.NO_TASK


def test_a_script_waits_for_its_start_time() -> None:
    script = script_of((0.12, {"HeadYaw": 0.5}))
    rig = Rig()
    rig.emit(Script(script, start_time=0.6))
    rig.step(49)  # t = 0.588
    assert rig.angle("HeadYaw") == 0.0 and rig.stiffness[YAW] == 0.0
    rig.step()  # t = 0.6: the move starts
    assert rig.stiffness[YAW] == 1.0
    rig.step(10)  # t = 0.72
    assert rig.angle("HeadYaw") == 0.5


@pytest.mark.parametrize(
    ("bad", "message"),
    [({"speed": 0.0}, "speed must be a finite factor above 0"), ({"start_time": "x"}, "start")],
)
def test_bad_script_arguments_fail_at_construction(bad, message) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        Script(script_of((0.1, {"HeadYaw": 0.1})), **bad)


def test_a_lower_priority_script_emitted_while_a_higher_one_plays_moves_no_joint() -> None:
    rig = Rig()
    high = script_of((0.6, {"HeadYaw": 0.5, "HeadPitch": 0.1}))
    low = script_of((0.12, {"HeadYaw": -0.5, "LKneePitch": 1.0}))
    rig.emit(Script(high), priority=5.0, emitter="high")
    rig.step(10)
    rig.emit(Script(low), priority=1.0, emitter="low")
    for _ in range(30):
        rig.step()
        assert rig.angle("HeadYaw") >= 0.0
        assert rig.angle("LKneePitch") == 0.0 and rig.stiffness[JOINT_INDEX["LKneePitch"]] == 0
    assert rig.director.run_state(rig.emitter("low"), Script) is RunState.QUEUED


def test_a_higher_priority_script_takes_over_in_the_next_cycle() -> None:
    rig = Rig()
    rig.emit(Script(script_of((1.2, {"HeadYaw": 0.5}))), priority=1.0, emitter="low")
    rig.step(20)
    before = rig.angle("HeadYaw")
    rig.emit(Script(script_of((0.6, {"HeadYaw": -0.5}))), priority=5.0, emitter="high")
    rig.step()
    # The move towards -0.5 starts in this very cycle, from where the joint is now (a
    # minimum-jerk move leaves with zero speed, so it is seen going down one cycle later).
    assert rig.servos.target(YAW) == -0.5
    at_takeover = rig.angle("HeadYaw")
    assert at_takeover >= before
    rig.step()
    assert rig.angle("HeadYaw") < at_takeover
    assert rig.director.run_state(rig.emitter("low"), Script) is RunState.QUEUED
    assert rig.director.run_state(rig.emitter("high"), Script) is RunState.RUNNING


def test_freeze_makes_every_joint_limp_on_the_next_update_and_unfreeze_releases() -> None:
    rig = Rig()
    rig.emit(Body(JointCommand(dict.fromkeys(JOINT_NAMES, 0.1), 1.0, 0.5)), priority=10.0)
    rig.step(10)
    assert np.all(rig.stiffness == 1.0)
    rig.emit(Freeze(), priority=FREEZE_PRIORITY, emitter="safety")
    rig.step()
    assert np.all(rig.stiffness == 0.0)
    frozen_at = rig.position.copy()
    # Whatever else is emitted, the joints stay limp where they are measured.
    rig.emit(Script(script_of((0.1, {"HeadYaw": 0.5}))), priority=1e6, emitter="other")
    rig.emit(SERVO_TASKS["LKneePitch"](1.0, 1.0, 0.0), priority=1e8, emitter="third")
    rig.state.position = frozen_at + 0.01  # a limp robot sags
    for _ in range(20):
        rig.step()
        assert np.all(rig.stiffness == 0.0)
    np.testing.assert_allclose(rig.position, frozen_at + 0.01)
    rig.emit(Unfreeze(), emitter="other")
    rig.step(2)
    assert rig.director.active(Freeze) is None
    rig.step()
    # Released: the servo task of the third emitter now holds LKneePitch stiff.
    assert rig.angle("LKneePitch") == 1.0
    assert rig.stiffness[JOINT_INDEX["LKneePitch"]] == 1.0


def test_unfreeze_before_freeze_in_the_same_update_leaves_the_freeze() -> None:
    rig = Rig()
    rig.emit(Unfreeze(), emitter="a")
    rig.emit(Freeze(), priority=FREEZE_PRIORITY, emitter="b")
    rig.step(5)
    assert rig.director.active(Freeze) is not None
    rig.emit(Unfreeze(), emitter="a")
    rig.step(2)
    assert rig.director.active(Freeze) is None


def test_a_joint_nobody_commands_after_freeze_stays_limp() -> None:
    rig = Rig()
    rig.emit(Head(JointCommand({"HeadYaw": 0.3}, 1.0, 0.0)))
    rig.step()
    rig.emit(Freeze(), priority=FREEZE_PRIORITY, emitter="safety")
    rig.step()
    rig.emit(Unfreeze(), emitter="safety2")
    rig.step(3)
    assert rig.director.active(Freeze) is None
    assert np.all(rig.stiffness == 0.0)


def test_freeze_survives_a_broken_measurement() -> None:
    rig = Rig()
    rig.emit(Head(JointCommand({"HeadYaw": 0.3}, 1.0, 0.0)))
    rig.step()
    rig.state.position[YAW] = float("nan")
    rig.emit(Freeze(), priority=FREEZE_PRIORITY, emitter="safety")
    position, stiffness = rig.step()
    assert np.all(stiffness == 0.0)
    assert position[YAW] == 0.3  # the commanded angle stands in for the broken one


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: JointCommand({}), "at least one joint"),
        (lambda: JointCommand({"LKnee": 0.1}), r"unknown joint\(s\) \['LKnee'\]"),
        (lambda: JointCommand({"HeadYaw": float("inf")}), r"positions\[HeadYaw\] must be finite"),
        (lambda: JointCommand({"HeadYaw": 0.1}, 1.2), "stiffness must be within"),
        (
            lambda: JointCommand({"HeadYaw": 0.1, "HeadPitch": 0.1}, {"HeadYaw": 1.0}),
            r"missing \['HeadPitch'\]",
        ),
        (lambda: JointCommand({"HeadYaw": 0.1}, 1.0, -0.5), "duration must be"),
        (lambda: JointCommand({"HeadYaw": 0.1}, 1.0, 0.5, "cubic"), "interpolation"),
        (lambda: JointCommand({"HeadYaw": "0.1"}), "must be a number"),
        (lambda: Body("HeadYaw"), "carries a JointCommand"),
        (lambda: HeadSequence(()), "at least one frame"),
        (lambda: HeadSequence((JointCommand({"LHand": 0.5}),)), r"moves \['LHand'\]"),
        (lambda: SERVO_TASKS["LHand"](0.5, 1.0, -0.1), "LHand.duration"),
    ],
)
def test_bad_actuation_tasks_fail_at_construction_with_what_is_wrong(make, message) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        make()


def test_joint_commands_are_kept_in_lola_order() -> None:
    a = JointCommand({"HeadPitch": 0.1, "HeadYaw": 0.2}, {"HeadYaw": 1.0, "HeadPitch": 0.5})
    b = JointCommand({"HeadYaw": 0.2, "HeadPitch": 0.1}, {"HeadPitch": 0.5, "HeadYaw": 1.0})
    assert a == b and a.joints == ("HeadYaw", "HeadPitch")
    assert [type(t).__name__ for t in a.servo_tasks()] == ["HeadYaw", "HeadPitch"]
    assert a.stiffness_of("HeadPitch") == 0.5


def test_a_left_arm_script_plays_on_the_left_arm_only() -> None:
    script = script_of((0.12, {"LShoulderPitch": 1.0, "LHand": 0.5}))
    assert type(Script(script).sequence).__name__ == "LeftArmSequence"
    rig = Rig()
    # A head command from another behaviour runs beside it: they share no servo.
    rig.emit(Script(script), emitter="arm")
    rig.emit(Head(JointCommand({"HeadYaw": 0.4}, 1.0, 0.12)), emitter="head")
    rig.step(11)
    assert rig.angle("LShoulderPitch") == 1.0 and rig.angle("HeadYaw") == 0.4


@pytest.mark.parametrize("name", ["Crouch", "Relax", "Sit", "Stand", "StandInit", "Zero"])
def test_every_shipped_script_plays_to_its_final_pose(name) -> None:
    script = shipped_script(name)
    rig = Rig(shipped_script("Sit").final_pose().position)
    rig.emit(Script(script, speed=4.0))
    rig.run_for(script.duration / 4.0 + PERIOD)
    final = script.final_pose()
    np.testing.assert_array_equal(rig.stiffness[final.mask], final.stiffness[final.mask])
    stiff = final.mask & (final.stiffness > 0.0)
    np.testing.assert_allclose(rig.position[stiff], final.position[stiff], atol=1e-12)
    assert rig.director.run_state(rig.emitter(), Script) is RunState.NO_TASK


def test_a_script_that_lost_its_joints_starts_that_sequence_afresh() -> None:
    rig = Rig()
    low = script_of((0.24, {"HeadYaw": 0.5}), (0.24, {"HeadYaw": -0.5}))
    rig.emit(Script(low), priority=1.0, emitter="low")
    rig.step(30)  # t = 0.36: into the second frame
    assert rig.servos.target(YAW) == -0.5
    rig.emit(Head(JointCommand({"HeadYaw": 0.0}, 1.0, 0.12)), priority=5.0, emitter="high")
    rig.step()  # t = 0.372
    assert rig.servos.target(YAW) == 0.0
    rig.step(10)  # t = 0.492: the Head command is Done and removed
    assert rig.angle("HeadYaw") == 0.0
    # The head sequence lost its Head group, a Need: it stopped and waited (NUbots), and now
    # starts afresh from its first frame (written to start from anywhere), from where the
    # joint is.
    assert rig.servos.target(YAW) == 0.5
    rig.step(19)
    assert 0.0 < rig.angle("HeadYaw") < 0.5
    rig.step(20)  # t = 0.96: the first frame is over, the second is under way
    assert rig.servos.target(YAW) == -0.5
    rig.step(20)
    assert rig.angle("HeadYaw") == -0.5
    assert rig.director.run_state(rig.emitter("low"), Script) is RunState.NO_TASK
