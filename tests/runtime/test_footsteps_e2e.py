"""Footsteps and the next position in physics (naosim and the daemon's cycle): ten mixed
steps land where they were planned (after clipping), and the next position is where the step
under way leaves the robot (walking to a pose and making footsteps), by the simulator's
ground truth and the odometry."""

from __future__ import annotations

import math
import statistics

import pytest

from motiond.bench.navigate import footstep_sequences
from motiond.navigate_trial import SETTLE, footsteps_trial, move_to_trial
from motiond.walk_trial import PRIORITY, WalkTrial
from skills.walk import Footsteps, Walk, WalkTo
from skills.walk.odometry import Pose2D, wrap_angle


def test_ten_mixed_footsteps_land_where_planned():
    steps = footstep_sequences()["mixed"]
    result = footsteps_trial(steps)
    errors = zip(result.errors_m, result.errors_deg, strict=True)
    story = [f"{100 * m:.1f} cm {d:.1f} deg" for m, d in errors]
    assert not result.fell and len(result.errors_m) == len(steps), story
    # Each foot judged at rest, as the navigation issue asks: within 2 cm and 3 degrees. Here
    # 1.4 cm and 1.1 degrees at worst since footsteps lift less than velocity steps (the third
    # forward step from a stand landed 2.4 cm long, carried on while its foot was up high).
    assert max(result.errors_m) <= 0.02 and max(result.errors_deg) <= 3.0, story
    assert statistics.median(result.errors_m) <= 0.01, story


@pytest.mark.parametrize(
    "target", [(2.0, 0.0, 0.0), (1.0, 0.5, math.pi / 2)], ids=["ahead", "aside-and-turned"]
)
def test_the_next_position_is_where_the_step_under_way_leaves_the_robot(target):
    result = move_to_trial(target)
    story = [f"{100 * e:.1f} cm" for e in result.next_errors]
    assert not result.fell and result.reached and len(result.next_errors) >= 5, story
    # Against the odometry's robot position once the step ended (the issue asks 2 cm):
    # within 0.7 and 0.4 cm here; 2.2 and 2.4 cm with the swing foot landing where its plan
    # says (no LandingModel). The body's pose, which sways over each support foot, was 1.5
    # and 2.6 cm off its prediction.
    assert max(result.next_errors) <= 0.02, story


def test_making_footsteps_the_next_position_is_where_the_step_under_way_leaves_the_robot():
    # NAOqi's unchangeable footstep: the swing foot lands where it was asked (it is aimed
    # against its error), so the middle of the feet is known once the step begins.
    steps = footstep_sequences()["mixed"]
    trial = WalkTrial(seed=0)
    trial.run(SETTLE)
    walk, behaviour = trial.runtime.walk, trial.runtime.emitter("trial")
    behaviour.emit_none(Walk)
    behaviour.emit(Footsteps(steps), priority=PRIORITY)
    gen, predicted, errors, t0 = walk.generator, None, [], trial.t
    while trial.t - t0 < 20.0 and not trial.fell and len(errors) < len(steps):
        trial.step()
        if predicted is not None and gen.step_count != predicted[0]:
            got, want = walk.odometry.robot, predicted[1]
            errors.append(math.hypot(got.x - want.x, got.y - want.y))
            predicted = None
        if predicted is None and gen.placing and gen.step_remaining > 0.05:
            predicted = (gen.step_count, walk.next_pose())
    story = [f"{100 * e:.1f} cm" for e in errors]
    assert not trial.fell and len(errors) == len(steps), story
    # Within 0.8 cm here.
    assert max(errors) <= 0.02, story


def test_turning_moves_end_on_their_heading_by_where_a_stop_would_stand():
    # Four moves of a quarter turn and 0.6 m ahead, each from where the last one ended (the
    # demo's square): the walk sidesteps at full speed on the way. Stopping once the robot
    # itself was within the aim ended each 2.3 degrees short, 9 degrees after four; stopping
    # once where a stop would stand is within it, each ends within the aim (2.6 degrees): the
    # last turning step moves the stop by about 5 degrees, so where in the aim it lands is up
    # to that step (with the hips' sway 1.0-1.4 degrees past the quarter, 4.1 after four;
    # without it 0.8 after four; over six seeds 0.7-4.3 and 0.2-1.7).
    trial = WalkTrial(seed=0)
    trial.run(SETTLE)
    behaviour = trial.runtime.emitter("trial")
    behaviour.emit_none(Walk)
    start = Pose2D(*trial.pose())
    for _ in range(4):
        before = trial.pose()[2]
        behaviour.emit(WalkTo(0.6, 0.0, math.pi / 2), priority=PRIORITY)
        t0 = trial.t
        while trial.t - t0 < 20.0 and not trial.fell:
            trial.step()
            if trial.runtime.walk.move_status().result is not None and trial.t - t0 > 0.2:
                break
        assert trial.runtime.walk.move_status().result == "reached"
        behaviour.emit_none(WalkTo)
        trial.run(0.5)
        turned = math.degrees(wrap_angle(trial.pose()[2] - before))
        assert abs(turned - 90.0) <= 2.6, turned  # by truth, within WalkTo's aim
    end = start.inverse().compose(Pose2D(*trial.pose()))
    assert not trial.fell
    assert abs(math.degrees(wrap_angle(end.theta))) <= 5.0, end
    assert math.hypot(end.x, end.y) <= 0.1, end
