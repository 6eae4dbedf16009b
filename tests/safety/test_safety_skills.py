"""The safety skills in the Director without physics: the get-up's phases and checks, its
retries and giving up, the brace of the fall protection, and the posture hold's ramp."""

from __future__ import annotations

import math

import numpy as np
import pytest

from director import Director
from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from providers.actuation import (
    GROUP_JOINTS,
    Arrival,
    BodySequence,
    Legs,
    ServoTable,
    build_actuation_tree,
)
from skills.safety import FallDirection, FallProtect, GetUp, HoldPosture
from skills.safety.getup import (
    RELAX_TIME,
    SETTLE,
    Check,
    GetUpPhase,
    GetUpRoutine,
    register_getup,
)
from skills.safety.hold import (
    TRIM_DONE,
    TRIM_LIMIT,
    TRIM_SETTLED,
    load_offsets,
    register_hold,
)
from skills.safety.protection import (
    BRACE_TIME,
    CROUCHED_KNEE,
    LEGS_STAY_STIFFNESS,
    LIE_DOWN_MOVE,
    LIE_DOWN_STIFFNESS,
    LIE_DOWN_TIME,
    SOFT_STIFFNESS,
    brace_for,
    register_fall_protection,
)
from skills.script_files import shipped_script

PERIOD = 0.012
UPRIGHT = Check(pitch=(-0.3, 0.3), max_roll=0.3, feet_loaded=True)
SITTING_UP = Check(pitch=(-1.0, 0.3))


class State:
    """The robot state the skills read, set by hand."""

    def __init__(self) -> None:
        self.position = shipped_script("Sit").final_pose().position.copy()
        self.stiffness = np.zeros(NUM_JOINTS)
        self.gyro = np.zeros(3)
        self.fsr = np.zeros(8)  # kg: the feet carry nothing
        self.roll, self.pitch, self.tilt = 0.0, -math.pi / 2, math.pi / 2
        self.left_contact = self.right_contact = False


class Rig:
    def __init__(
        self,
        back_mirror: str | None = None,
        roll_rest_wait: float = 0.0,
        front: GetUpRoutine | None = None,
    ) -> None:
        self.state = State()
        self.servos = ServoTable(self.state.position)
        self.director = Director()
        build_actuation_tree(self.director, self.servos, self.state)
        # Two phases of shipped scripts stand in for a real routine.
        back = GetUpRoutine(
            "Back",
            "Crouch",
            (
                GetUpPhase("sit up", (0, 1), SITTING_UP),
                GetUpPhase("rise", (0, 1), UPRIGHT),
            ),
            mirror=back_mirror,
        )
        roll = GetUpRoutine(
            "Roll",
            "Sit",
            (GetUpPhase("roll", (0, 1), Check(max_roll=0.5), rest_wait=roll_rest_wait),),
            rolls_over=True,
        )
        routines = {FallDirection.BACK: back, FallDirection.LEFT: roll, FallDirection.RIGHT: roll}
        if front is not None:
            routines[FallDirection.FRONT] = front
        self.getup = register_getup(self.director, self.state, lambda: routines)
        register_fall_protection(self.director, self.servos, self.state)
        register_hold(self.director, self.servos, self.state)
        self.behaviour = self.director.emitter("safety")
        self.now = 0.0

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / PERIOD)):
            self.director.update(self.now)
            self.now += PERIOD

    def targets(self) -> tuple[np.ndarray, np.ndarray]:
        return self.servos.targets(self.now)


def test_a_getup_plays_its_phases_checking_between_them_and_is_done_standing():
    rig = Rig()
    rig.behaviour.emit(GetUp(), priority=10.0)
    rig.run(0.1)
    status = rig.getup.status()
    assert status.active and status.routine == "Back" and status.phase == "sit up"
    rig.state.pitch = -0.5  # sat up
    rig.run(shipped_script("Crouch").duration + SETTLE + 0.1)
    assert rig.getup.status().phase == "rise"
    rig.state.pitch, rig.state.tilt = 0.05, 0.05
    rig.state.left_contact = rig.state.right_contact = True
    rig.run(shipped_script("Crouch").duration + SETTLE + 0.1)
    status = rig.getup.status()
    assert not status.active and status.result == "standing" and status.attempts == 1
    position, _ = rig.targets()
    crouch = shipped_script("Crouch").final_pose().position
    np.testing.assert_allclose(position, crouch, atol=1e-9)


@pytest.mark.parametrize("swinging", [False, True])
def test_a_check_comes_as_soon_as_the_gyro_is_calm(swinging):
    rig = Rig()
    rig.behaviour.emit(GetUp(), priority=10.0)
    rig.run(0.05)
    rig.state.pitch = -0.5  # sat up
    if swinging:
        rig.state.gyro[:] = (1.0, 0.0, 0.0)
        rig.run(shipped_script("Crouch").duration + 0.3)
        assert rig.getup.status().phase == "sit up"
        rig.state.gyro[:] = 0.0
        rig.run(2 * PERIOD)
    else:
        # No fixed pause: the phase's check (no feet in it) comes with the script's end.
        rig.run(shipped_script("Crouch").duration + 4 * PERIOD)
    assert rig.getup.status().phase == "rise"


def test_a_failed_check_relaxes_and_starts_over_then_gives_up():
    rig = Rig()
    rig.behaviour.emit(GetUp(max_attempts=2), priority=10.0)
    phase = shipped_script("Crouch").duration + SETTLE
    # The robot never sits up: the first phase's check fails every time.
    rig.run(phase + 0.7)
    assert rig.getup.status().phase == "relax"
    _, stiffness = rig.targets()
    assert np.all(stiffness <= 0.3 + 1e-9), "relaxing is soft"
    rig.run(RELAX_TIME + 0.2)
    status = rig.getup.status()
    assert status.active and status.attempts == 2 and status.phase == "sit up"
    rig.run(phase + 0.7)
    status = rig.getup.status()
    assert not status.active and status.result == "gave_up" and status.attempts == 2


def test_a_routine_with_a_mirror_plays_it_on_every_other_try():
    rig = Rig(back_mirror="Sit")  # Sit stands in for Crouch's mirror image
    rig.behaviour.emit(GetUp(max_attempts=3), priority=10.0)
    played = []
    # The robot never sits up: every try's first phase fails its check and relaxes.
    for attempt in (1, 2, 3):
        while rig.getup.status().attempts < attempt:
            rig.run(PERIOD)
        rig.run(1.9)  # nearly through the try's script (both take 2 s)
        assert rig.getup.status().phase == "sit up"
        position, _ = rig.targets()
        distance = {
            name: np.abs(position - shipped_script(name).final_pose().position).max()
            for name in ("Crouch", "Sit")
        }
        played.append(min(distance, key=distance.get))
    assert played == ["Crouch", "Sit", "Crouch"]


def test_lying_on_a_side_rolls_over_first():
    rig = Rig()
    rig.state.roll, rig.state.pitch = -1.3, 0.0  # on the left side
    rig.behaviour.emit(GetUp(), priority=10.0)
    rig.run(0.05)
    assert rig.getup.status().routine == "Roll"
    rig.state.roll, rig.state.pitch = 0.0, -1.5  # rolled onto the back
    rig.run(shipped_script("Sit").duration + SETTLE + 0.1)
    assert rig.getup.status().routine == "Back"


def test_a_roll_s_check_waits_for_the_robot_to_lie_still_where_it_wants_it():
    rig = Rig(roll_rest_wait=1.5)
    rig.state.roll, rig.state.pitch = -1.3, 0.0  # on the left side
    rig.behaviour.emit(GetUp(), priority=10.0)
    rig.run(shipped_script("Sit").duration + SETTLE + 0.2)
    # Its keyframes are over, the robot still rolls about the torso's long axis (lying, its
    # z) at a rate the pitch and roll rates alone would call calm: not judged yet.
    rig.state.roll, rig.state.gyro[:] = -0.9, (0.0, 0.0, 0.7)
    rig.run(0.3)
    assert rig.getup.status().phase == "roll"
    rig.state.roll, rig.state.pitch = 0.0, -1.5  # over, onto the back, still turning
    rig.run(0.2)
    assert rig.getup.status().routine == "Roll"
    rig.state.gyro[:] = 0.0
    rig.run(0.05)
    status = rig.getup.status()
    assert status.routine == "Back" and status.attempts == 1


def test_a_roll_that_stops_half_way_fails_its_check_when_the_rest_wait_is_over():
    rig = Rig(roll_rest_wait=1.5)
    rig.state.roll, rig.state.pitch = -1.3, 0.0
    rig.behaviour.emit(GetUp(), priority=10.0)
    end = shipped_script("Sit").duration
    rig.state.roll = -0.7  # propped on a shoulder, still: it may yet tip over
    rig.run(end + 1.4)
    assert rig.getup.status().phase == "roll"
    rig.run(0.2)
    assert rig.getup.status().phase == "relax"


def test_a_lead_in_plays_from_lying_still_and_is_skipped_straight_after_a_roll():
    front = GetUpRoutine("Front", "GetUpFront", (GetUpPhase("push", (0, 2), Check(), lead_in=1),))
    from_lying, after_roll = (
        front.sequences("GetUpFront"),
        front.sequences("GetUpFront", after_roll=True),
    )
    script = shipped_script("GetUpFront")
    assert [f.duration for f in from_lying[0].frames] == [f.duration for f in script.frames[0:2]]
    assert [f.duration for f in after_roll[0].frames] == [script.frames[1].duration]
    # Played: from lying on the front, the lead-in; from the side, straight on after the roll.
    for start, want in (((0.0, 1.5), "lead-in"), ((-1.3, 0.0), "skipped")):
        rig = Rig(front=front)
        progress = rig.getup
        rig.state.roll, rig.state.pitch = start
        rig.behaviour.emit(GetUp(), priority=10.0)
        rig.run(0.05)
        if want == "skipped":
            rig.run(shipped_script("Sit").duration - 0.2)
            rig.state.roll, rig.state.pitch = 0.0, 1.5  # rolled onto the front
        for _ in range(100):
            if progress.status().routine == "Front":
                break
            rig.run(PERIOD)
        assert progress.status().routine == "Front", progress.status()
        rig.run(0.15)
        position, _ = rig.targets()
        shoulder = position[JOINT_INDEX["LShoulderRoll"]]
        # The lead-in takes the shoulder to 0.3 rad; the next keyframe on to 1.33.
        assert (shoulder <= 0.3 + 1e-9) == (want == "lead-in"), (want, shoulder)


def test_a_lead_in_s_skipped_keyframes_leave_the_arrival_s_frames_in_step():
    # Frame 2 of the phase (script frame 2) waits; skipping the 1-frame lead-in makes it the
    # part's frame 1.
    waits = Arrival(("LKneePitch",), frames=(0, 2))
    front = GetUpRoutine(
        "Front", "GetUpFront", (GetUpPhase("push", (0, 4), Check(), waits, lead_in=1),)
    )
    assert front.sequences("GetUpFront")[0].arrival.frames == (0, 2)
    assert front.sequences("GetUpFront", after_roll=True)[0].arrival.frames == (1,)


def test_a_get_up_phase_naming_some_joints_plays_on_the_whole_body():
    # GetUpRollOverRight's keyframe 0 names the legs only; the get-up waits for a whole-body
    # sequence, so a legs sequence would never have been seen done.
    legs_only = GetUpRoutine("Legs", "GetUpRollOverRight", (GetUpPhase("a", (0, 1), Check()),))
    (sequence,) = legs_only.sequences("GetUpRollOverRight")
    assert isinstance(sequence, BodySequence)
    assert set(sequence.frames[0].positions) == set(GROUP_JOINTS[Legs])


def test_withdrawing_a_getup_reports_it_interrupted():
    rig = Rig()
    rig.behaviour.emit(GetUp(), priority=10.0)
    rig.run(0.2)
    rig.behaviour.emit_none(GetUp)
    rig.run(0.05)
    assert rig.getup.status().result == "interrupted"


def _standing_rig() -> Rig:
    """A rig whose robot stands (the default one sits, knees folded)."""
    rig = Rig()
    rig.state.position[:] = shipped_script("StandInit").final_pose().position
    return rig


def _assert_soft_with_legs_back(rig: Rig, before: np.ndarray) -> None:
    """Every joint soft now, and the legs on their way back to ``before`` (where they were
    when the fall began: off the pike, or out of a lie-down)."""
    _, stiffness = rig.targets()
    assert np.all(stiffness == SOFT_STIFFNESS)
    rig.run(0.2)
    position, _ = rig.targets()
    legs = [JOINT_INDEX[name] for name in GROUP_JOINTS[Legs]]
    np.testing.assert_allclose(position[legs], before[legs], atol=1e-6)


@pytest.mark.parametrize("direction", list(FallDirection))
def test_fall_protection_braces_then_goes_soft_at_its_impact_tilt(direction):
    rig = _standing_rig()
    rig.state.pitch, rig.state.tilt = 0.4, 0.4
    rig.behaviour.emit(FallProtect(direction), priority=10.0)
    rig.run(0.2)
    position, stiffness = rig.targets()
    for name, angle in brace_for(direction).positions().items():
        assert position[JOINT_INDEX[name]] == pytest.approx(angle, abs=1e-6)
    brace = brace_for(direction)
    legs = [JOINT_INDEX[name] for name in GROUP_JOINTS[Legs]]
    assert np.all(stiffness[legs] == brace.leg_stiffness)
    assert stiffness.max() > SOFT_STIFFNESS
    before = rig.state.position.copy()
    rig.state.tilt = brace.soft_tilt + 0.05
    rig.run(0.03)
    _assert_soft_with_legs_back(rig, before)


def test_the_legs_brace_front_and_back_and_stay_falling_sideways():
    sagittal = {"LHipPitch", "LKneePitch", "LAnklePitch", "RHipPitch", "RKneePitch"}
    assert sagittal <= set(brace_for(FallDirection.FRONT).positions())
    assert sagittal <= set(brace_for(FallDirection.BACK).positions())
    assert brace_for(FallDirection.BACK).positions()["LHipPitch"] < -1.0  # the pike
    assert not sagittal & set(brace_for(FallDirection.LEFT).positions())


def test_falling_from_a_crouch_the_legs_stay_where_they_are():
    # A relaxed squat tipping back: straightening the legs into the pike would lift it.
    rig = _standing_rig()
    rig.state.position[JOINT_INDEX["LKneePitch"]] = CROUCHED_KNEE + 0.3
    rig.state.position[JOINT_INDEX["RKneePitch"]] = CROUCHED_KNEE + 0.1
    rig.state.pitch, rig.state.tilt = -0.4, 0.4
    crouch = rig.state.position.copy()
    rig.behaviour.emit(FallProtect(FallDirection.BACK), priority=10.0)
    rig.run(0.2)
    position, stiffness = rig.targets()
    legs = [JOINT_INDEX[name] for name in GROUP_JOINTS[Legs]]
    np.testing.assert_allclose(position[legs], crouch[legs])
    assert np.all(stiffness[legs] == LEGS_STAY_STIFFNESS)
    assert position[JOINT_INDEX["HeadPitch"]] == pytest.approx(
        brace_for(FallDirection.BACK).head_pitch
    )
    rig.run(BRACE_TIME)  # no lie-down: soft
    _, stiffness = rig.targets()
    assert np.all(stiffness == SOFT_STIFFNESS)


def test_a_fall_caught_before_the_impact_is_laid_down_then_goes_soft():
    # The back brace's pike can catch a gentle fall sitting on the seat: no impact comes.
    rig = _standing_rig()
    before = rig.state.position.copy()
    rig.state.pitch, rig.state.tilt = -0.4, 0.4
    rig.behaviour.emit(FallProtect(FallDirection.BACK), priority=10.0)
    rig.run(BRACE_TIME - 0.05)
    legs = [JOINT_INDEX[name] for name in GROUP_JOINTS[Legs]]
    position, _ = rig.targets()
    assert position[JOINT_INDEX["LHipPitch"]] == pytest.approx(-1.5, abs=1e-6)
    rig.run(0.1 + LIE_DOWN_MOVE)
    position, stiffness = rig.targets()
    assert np.all(stiffness[legs] == LIE_DOWN_STIFFNESS)
    assert np.abs(position[legs]).max() < 1e-6  # legs straight: the torso lowered back
    assert stiffness.max() > SOFT_STIFFNESS
    rig.run(LIE_DOWN_TIME - LIE_DOWN_MOVE)
    _assert_soft_with_legs_back(rig, before)


def test_hold_posture_holds_the_measured_angles_stiffening_in_steps_then_is_done():
    rig = Rig()
    rig.state.stiffness[:] = 0.0
    rig.behaviour.emit(HoldPosture(leg_stiffness=1.0, stiffness=0.5, ramp=0.3), priority=1.0)
    knee = JOINT_INDEX["LKneePitch"]
    head = JOINT_INDEX["HeadYaw"]
    seen = []
    for _ in range(40):
        rig.run(PERIOD)
        position, stiffness = rig.targets()
        np.testing.assert_allclose(position, rig.state.position, atol=1e-9)
        seen.append(float(stiffness[knee]))
    assert seen[0] <= 0.2 + 1e-9 and seen == sorted(seen) and seen[-1] == 1.0
    assert rig.targets()[1][head] == 0.5
    # The legs stand where they measure (no sag to trim): done once that has lasted.
    rig.run(TRIM_SETTLED + 2 * PERIOD)
    np.testing.assert_allclose(rig.targets()[0], rig.state.position, atol=1e-9)
    assert not any(t.type == "HoldPosture" for t in rig.director.view().tasks)


def test_hold_posture_trims_a_sagging_leg_back_to_where_it_stood():
    rig = Rig()
    rig.state.stiffness[:] = 1.0  # held stiff by the controller before the daemon
    stood = rig.state.position.copy()
    rig.behaviour.emit(HoldPosture(), priority=1.0)
    knee = JOINT_INDEX["LKneePitch"]
    trims = []
    for _ in range(340):  # 4.1 s: settled before the trim's 4 s after the ramp are up
        rig.run(PERIOD)
        # A servo that sags under load: the knee sits 0.07 rad past its target.
        rig.state.position[knee] = rig.targets()[0][knee] + 0.07
        trims.append(stood[knee] - rig.targets()[0][knee])
    # The knee's target is moved against the sag until the knee stands where it stood.
    assert trims == sorted(trims) and 0.06 < trims[-1] <= TRIM_LIMIT
    assert abs(rig.state.position[knee] - stood[knee]) < TRIM_DONE
    assert not any(t.type == "HoldPosture" for t in rig.director.view().tasks)


def test_hold_posture_commands_a_loaded_leg_past_its_angle_from_the_first_frame():
    rig = Rig()
    rig.state.position = shipped_script("StandInit").final_pose().position.copy()
    rig.state.stiffness[:] = 1.0
    rig.state.fsr[:] = 5.3 / 8  # standing, the weight shared evenly
    task = HoldPosture()
    offsets = load_offsets(task, rig.state.position, rig.state.fsr)
    rig.behaviour.emit(task, priority=1.0)
    rig.run(PERIOD)
    legs = list(GROUP_JOINTS[Legs])
    knee, head = JOINT_INDEX["LKneePitch"], JOINT_INDEX["HeadYaw"]
    # A bent knee under load is held by a target short of its angle, at once: eased in over
    # the ramp, it would first be commanded to its angle and give way.
    assert offsets[knee] < -0.02
    np.testing.assert_allclose(rig.targets()[0], rig.state.position + offsets, atol=1e-9)
    assert all(offsets[JOINT_INDEX[name]] == 0.0 for name in JOINT_INDEX if name not in legs)
    assert offsets[head] == 0.0


def test_load_offsets_are_zero_without_a_load_or_a_stiff_goal():
    stand = shipped_script("StandInit").final_pose().position
    loaded = np.full(8, 5.3 / 8)
    assert np.any(load_offsets(HoldPosture(), stand, loaded))
    assert not np.any(load_offsets(HoldPosture(), stand, np.zeros(8)))  # lifted
    assert not np.any(load_offsets(HoldPosture(), stand, np.full(8, np.nan)))
    assert not np.any(load_offsets(HoldPosture(leg_stiffness=0.3), stand, loaded))
    bad = stand.copy()
    bad[JOINT_INDEX["LKneePitch"]] = np.nan
    assert not np.any(load_offsets(HoldPosture(), bad, loaded))


def test_safety_tasks_refuse_bad_values():
    with pytest.raises(TypeError):
        FallProtect("front")
    with pytest.raises(ValueError):
        GetUp(max_attempts=0)
    with pytest.raises(ValueError):
        HoldPosture(stiffness=1.5)
    with pytest.raises(ValueError):
        HoldPosture(ramp=math.inf)
