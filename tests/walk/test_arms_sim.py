"""A behaviour's arms while the walk walks (physics): with the walk's arm swing off (NAOqi's
setMoveArmsEnabled, ``WalkEngine.arms_enabled``) a behaviour puts the arms where it wants;
the walk must keep its balance with them held back (as SPL teams hold them near obstacles),
folded in front, or out to the sides."""

from __future__ import annotations

import numpy as np
import pytest

from lola_io.joints import JOINT_INDEX
from motiond.walk_trial import PRIORITY, WalkTrial
from providers.actuation import JointCommand, LeftArm, RightArm
from skills.walk.arms import arm_com_shift, own_arm
from skills.walk.providers import ARM_RETURN_SPEED
from skills.walk.tasks import Walk

POSTURES = {
    "back": (2.05, 0.05, 0.0, -0.04),  # fell at 0.4 m/s before the walk took the arms' shift
    "out": (1.4, 0.7, 0.0, -0.04),
}


def _arm(side: str, pitch: float, roll: float, yaw: float, elbow: float) -> dict[str, float]:
    sign = 1.0 if side == "L" else -1.0  # the right arm mirrors the left's rolls and yaw
    return {
        f"{side}ShoulderPitch": pitch,
        f"{side}ShoulderRoll": sign * roll,
        f"{side}ElbowYaw": sign * yaw,
        f"{side}ElbowRoll": sign * elbow,
    }


@pytest.mark.parametrize("posture", sorted(POSTURES))
@pytest.mark.parametrize("velocity", [(0.4, 0.0, 0.0), (0.3, 0.1, 0.8)])
def test_the_walk_keeps_its_balance_with_the_arms_held_by_another_task(posture, velocity):
    trial = WalkTrial(seed=1)
    trial.runtime.walk.arms_enabled = (False, False)
    trial.run(0.5)
    left, right = _arm("L", *POSTURES[posture]), _arm("R", *POSTURES[posture])
    trial.emit(LeftArm(JointCommand(left, 1.0, 0.5)), priority=3.0)
    trial.emit(RightArm(JointCommand(right, 1.0, 0.5)), priority=3.0)
    trial.run(1.0)
    start = np.array(trial.pose()[:2])
    trial.emit(Walk(*velocity), priority=PRIORITY)
    assert trial.run(5.0)
    assert np.linalg.norm(np.array(trial.pose()[:2]) - start) > 0.8  # it walked on
    held = {**left, **right}
    commanded = trial.command.position
    # The arms stay where the behaviour put them: the walk leaves them alone.
    assert all(commanded[JOINT_INDEX[j]] == pytest.approx(q, abs=1e-6) for j, q in held.items())


def test_the_arms_shift_is_nothing_for_the_walks_own_arms_and_back_or_forwards_for_others():
    own = ((1.57, 0.12), (1.57, -0.12))
    q = np.zeros(25)
    for side, (pitch, roll) in zip("LR", own, strict=True):
        names = ("ShoulderPitch", "ShoulderRoll", "ElbowYaw", "ElbowRoll")
        for name, value in zip(names, own_arm(pitch, roll, side == "L"), strict=True):
            q[JOINT_INDEX[side + name]] = value
    assert arm_com_shift(q, own, 0.12) == 0.0
    assert arm_com_shift(q, None, 0.12) == 0.0
    back, forwards = q.copy(), q.copy()
    for side in "LR":
        back[JOINT_INDEX[f"{side}ShoulderPitch"]] = 2.05
        forwards[JOINT_INDEX[f"{side}ShoulderPitch"]] = 0.0
    # Arms about 1.1 kg of the NAO's 5.3: held back, the centre of mass moves about 1 cm
    # backwards; held straight forwards, 2 cm forwards.
    assert -0.012 < arm_com_shift(back, own, 0.12) < -0.007
    assert 0.015 < arm_com_shift(forwards, own, 0.12) < 0.025


def test_arms_a_behaviour_held_forwards_and_gave_back_as_the_walk_stops_keep_it_standing():
    # Both arms brought forwards over 0.9 s while the walk starts, given back to the walk as
    # it stops: at the arm's own speed they swung down 1.5 rad in a quarter second and the
    # robot fell (and the walk, weighing the arms where their moves would end, had taken
    # their shift before they got there). 13 of 108 such runs fell on four bodies, none now.
    left = {"LShoulderPitch": 0.08, "LShoulderRoll": 0.42, "LElbowYaw": -0.23, "LElbowRoll": -0.73}
    right = {"RShoulderPitch": 0.59, "RShoulderRoll": -0.32, "RElbowYaw": 1.1, "RElbowRoll": 1.23}
    trial = WalkTrial()
    trial.run(1.1)
    trial.walk(0.3)
    trial.run(0.26)
    trial.emit(LeftArm(JointCommand(left, 1.0, 0.9)), priority=3.0)
    trial.emit(RightArm(JointCommand(right, 1.0, 0.9)), priority=3.0)
    trial.run(0.66)
    trial.walk()
    trial.run(0.62)
    trial.stop()
    pitch = JOINT_INDEX["LShoulderPitch"]
    before = float(trial.command.position[pitch])
    fastest = 0.0
    for _ in range(int(2.0 / 0.012)):
        trial.step()
        now = float(trial.command.position[pitch])
        fastest, before = max(fastest, abs(now - before) / 0.012), now
    assert not trial.fell
    assert abs(before - own_arm(np.pi / 2, 0.0, True)[0]) < 0.05  # back with the walk
    assert fastest <= ARM_RETURN_SPEED + 1e-6
