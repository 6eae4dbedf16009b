"""A script that moves the legs, emitted above a stepping walk, in physics: it lets the walk
close its feet first (StopWalk), unless asked to interrupt it; scripts that leave the legs
alone do not stop the walk.

The moments are the ones at which StandInit taken from the middle of a step tipped naosim's NAO
over (6 of 30 tries over five walks and six moments; none since).
"""

from __future__ import annotations

import numpy as np
import pytest

from lola_io.joints import LEG_INDICES
from motiond.walk_trial import WalkTrial
from skills.keyframes import JointTarget, Keyframe, KeyframeScript
from skills.script import Script
from skills.script_files import shipped_script
from skills.walk.tasks import Walk

_WALK, _ABOVE = 1.0, 2.0


def _walking(forward: float, turn: float, seed: int) -> WalkTrial:
    trial = WalkTrial(seed=seed)
    trial.emit(Walk(forward, 0.0, turn), priority=_WALK)
    assert trial.run(2.0 + 0.04 * seed)
    assert trial.runtime.walk.stepping(trial.runtime.now)
    return trial


@pytest.mark.parametrize(
    ("forward", "turn", "seed"), [(0.2, 0.0, 3), (0.4, 0.0, 4), (0.3, 0.8, 4), (0.1, -0.5, 3)]
)
def test_a_posture_over_a_stepping_walk_waits_for_the_feet_and_stands(forward, turn, seed):
    trial = _walking(forward, turn, seed)
    script = shipped_script("StandInit")
    trial.emit(Script(script, hold=True), priority=_ABOVE)
    walk, legs_taken_while_stepping = trial.runtime.walk, False
    for _ in range(round(3.0 / 0.012)):
        stepping = walk.stepping(trial.runtime.now)
        trial.step()
        # While the walk steps it drives the legs itself (StopWalk); the script's legs come after.
        legs_taken_while_stepping |= stepping and not walk.driving(trial.runtime.now)
    assert not trial.fell
    assert not legs_taken_while_stepping
    assert walk.status().phase.value == "standing"
    final = script.final_pose().position
    sent = np.asarray(trial.command.position)
    assert np.allclose(sent[list(LEG_INDICES)], final[list(LEG_INDICES)], atol=1e-6)


def test_interrupt_takes_the_legs_mid_step():
    trial = _walking(0.2, 0.0, 0)
    trial.emit(Script(shipped_script("StandInit"), interrupt=True), priority=_ABOVE)
    for _ in range(5):  # the walk counts as driving 3.5 cycles after its last
        trial.step()
    walk = trial.runtime.walk
    assert not walk.driving(trial.runtime.now)
    assert walk.generator.phase.value != "standing"  # taken mid-step, not stopped


def test_a_script_that_leaves_the_legs_alone_does_not_stop_the_walk():
    trial = _walking(0.2, 0.0, 0)
    steps = trial.runtime.walk.status().step_count
    turn = {"HeadYaw": JointTarget(0.4, 1.0)}
    back = {"HeadYaw": JointTarget(0.0, 1.0)}
    task = Script(KeyframeScript("look", (Keyframe(0.5, turn), Keyframe(0.5, back))))
    assert not task.moves_legs
    trial.emit(task, priority=_ABOVE)
    assert trial.run(1.5)
    status = trial.runtime.walk.status()
    assert status.phase.value == "walking" and status.step_count >= steps + 4


@pytest.mark.parametrize(("forward", "turn", "seed"), [(0.2, 0.0, 3), (0.4, 0.0, 4), (0.2, 0.6, 4)])
def test_after_an_outage_mid_walk_the_walk_carries_on_closes_its_feet_and_sits(forward, turn, seed):
    trial = _walking(forward, turn, seed)
    # 180 ms without LoLA: the robot holds the last command (mid-step), then frames come back.
    held = trial.command
    for _ in range(15):
        trial.sim.step(held)
    trial.runtime.note_missed(15)
    walk = trial.runtime.walk
    assert walk.stepping(trial.runtime.now + trial.runtime.period)  # carries on
    steps = walk.status().step_count
    assert trial.run(4.0)
    assert walk.status().step_count > steps  # it finished the step it was in, and closed
    assert trial.runtime.counters.safe_sits == 1
    final = shipped_script("Sit").final_pose().position
    sent = np.asarray(trial.command.position)
    assert np.allclose(sent[list(LEG_INDICES)], final[list(LEG_INDICES)], atol=1e-6)


def _kicking(seed: int, seconds: float) -> WalkTrial:
    """A standing kick at a ball in front of the right foot, ``seconds`` after the request."""
    from motiond.kick_trial import KICK_PRIORITY
    from skills.kick.tasks import Kick

    trial = WalkTrial(seed=seed, ball=True)
    assert trial.run(1.5)
    truth = trial.truth
    middle = (truth.left_sole_position + truth.right_sole_position) / 2.0
    trial.sim.place_ball(float(middle[0] + 0.17), float(middle[1] - 0.05))
    trial.emit(Kick(0.17, -0.05), priority=KICK_PRIORITY)
    assert trial.run(seconds)
    assert trial.runtime.kick.moving()
    return trial


@pytest.mark.parametrize(("seed", "seconds"), [(9, 1.2), (10, 1.3)])
def test_a_script_over_a_kick_moving_waits_for_the_foot_to_come_down(seed, seconds):
    # The moments at which a safe sit after a 180 ms outage tipped the kick over.
    trial = _kicking(seed, seconds)
    held = trial.command
    for _ in range(15):
        trial.sim.step(held)
    trial.runtime.note_missed(15)
    assert trial.run(4.0)
    assert trial.runtime.kick.status().outcome == "kicked"  # not interrupted
    final = shipped_script("Sit").final_pose().position
    sent = np.asarray(trial.command.position)
    assert np.allclose(sent[list(LEG_INDICES)], final[list(LEG_INDICES)], atol=1e-6)


@pytest.mark.parametrize("after", [0.06, 0.2, 0.4])
def test_a_safe_sit_released_early_hands_the_legs_back_from_where_they_are_commanded(after):
    # Released mid-keyframe, the walk (still emitted) starts from the legs' commanded angles
    # now, not from where the sit's keyframe was taking them: from that squat, which the robot
    # was not yet in, the walk's start fell on its face (a random-sequence run).
    trial = _walking(0.25, 0.15, 1)
    trial.runtime.safe_sit()
    walk = trial.runtime.walk
    assert trial.run(3.0, until=lambda t: not walk.driving(t.runtime.now))  # the sit began
    assert trial.run(after)
    trial.runtime.release_safe_sit()
    start = np.array(trial.pose()[:2])
    assert trial.run(4.0)
    assert np.linalg.norm(np.array(trial.pose()[:2]) - start) > 0.3  # it walked on


@pytest.mark.parametrize(("name", "seed"), [("StandInit", 3), ("Crouch", 4)])
def test_a_script_that_lost_a_group_lets_a_walk_below_close_its_feet_before_it_plays_on(name, seed):
    # A look (above) takes the head of a whole-body script: the script's sequence waits for
    # it and frees the legs, and the walk below steps on them. When the look ends the
    # sequence would take the legs back mid-step (a random-sequence run fell so); the script
    # lets the walk close its feet first, as a new script does.
    from providers.actuation import Head, JointCommand

    trial = _walking(0.2, 0.3, seed)
    trial.emit(Script(shipped_script(name), hold=True), priority=_ABOVE)
    assert trial.run(0.8)  # the walk has stopped and the script plays
    look = {"HeadYaw": 0.5, "HeadPitch": 0.1}
    trial.emit(Head(JointCommand(look, 1.0, 2.5)), priority=_ABOVE + 1.0)
    walk, taken_mid_step = trial.runtime.walk, False
    stepped = False
    for _ in range(round(6.0 / 0.012)):
        stepping = walk.stepping(trial.runtime.now)
        stepped |= stepping
        trial.step()
        taken_mid_step |= stepping and not walk.driving(trial.runtime.now)
    assert not trial.fell
    assert stepped  # the walk below did take the legs while the script waited
    assert not taken_mid_step
    final = shipped_script(name).final_pose().position
    sent = np.asarray(trial.command.position)
    assert np.allclose(sent[list(LEG_INDICES)], final[list(LEG_INDICES)], atol=1e-6)
