"""Kicks in naosim with the ball, through the daemon's cycle (truth decides)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from motiond.kick_trial import KICK_PRIORITY, kick_trial
from motiond.runtime import Runtime
from motiond.simulated import start_pose
from naosim.sim import NaoSim
from skills.kick import Kick
from skills.walk import Walk


def test_a_full_power_kick_sends_the_ball_straight_and_the_robot_stays_up():
    result = kick_trial(Kick(0.19, -0.05))
    assert not result.fell
    assert result.status.outcome == "kicked" and result.status.kicks == 1
    # What the kick reaches today (the goal of 3 m is not met: see docs/architecture.md).
    assert result.travel > 0.5
    assert abs(math.degrees(result.direction)) < 10.0
    assert result.contact_after is not None and result.contact_after < 1.5


def test_half_power_sends_the_ball_less_far():
    full = kick_trial(Kick(0.19, 0.05, power=1.0))
    half = kick_trial(Kick(0.19, 0.05, power=0.5))
    assert not full.fell and not half.fell
    assert 0.0 < half.travel < full.travel


@pytest.mark.parametrize("degrees", [30.0, -30.0], ids=["left30", "right30"])
def test_aimed_kicks_go_where_they_are_aimed(degrees):
    # From between the feet: the foot on the far side swings in, turned that way.
    result = kick_trial(Kick(0.17, 0.0, math.radians(degrees)))
    assert result.status.foot == ("right" if degrees > 0 else "left")
    assert not result.fell
    assert result.travel > 0.1
    assert abs(math.degrees(result.direction) - degrees) < 10.0


def test_a_ball_out_of_reach_is_refused_and_nothing_moves():
    result = kick_trial(Kick(0.45, -0.05), max_seconds=2.0)
    assert result.status.outcome == "refused"
    assert "out of reach" in result.status.reason
    assert result.travel < 0.005 and result.contact_after is None and not result.fell


class Rig:
    """naosim with a ball and a runtime in lockstep, standing in the walk stand."""

    def __init__(self) -> None:
        self.sim = NaoSim(ball=True)
        self.sim.reset_pose(start_pose("StandInit"))
        self.runtime = Runtime()
        self.behaviour = self.runtime.emitter("test")
        self.behaviour.emit(Walk(), priority=1.0)
        self.frame = self.sim.first_frame()
        self.fell = False
        self.run(1.5)
        truth = self.sim.truth()
        self.middle = (truth.left_sole_position + truth.right_sole_position) / 2.0

    def run(self, seconds: float, until=None) -> None:
        end = self.sim.time + seconds
        while self.sim.time < end - 1e-9:
            self.frame = self.sim.step(self.runtime.step(self.frame))
            self.fell = self.fell or bool(self.sim.truth().fallen)
            if until is not None and until():
                return


def test_freeze_interrupts_a_kick_mid_swing_and_the_kick_never_resumes():
    rig = Rig()
    rig.sim.place_ball(rig.middle[0] + 0.19, rig.middle[1] - 0.05)
    rig.behaviour.emit(Kick(0.19, -0.05), priority=KICK_PRIORITY)
    rig.run(3.0, until=lambda: rig.runtime.kick.status().phase == "swinging")
    assert rig.runtime.kick.status().phase == "swinging"
    rig.runtime.freeze()
    rig.run(0.1)
    status = rig.runtime.kick.status()
    assert status.outcome == "interrupted" and not status.active
    stiffness = np.asarray(rig.runtime.servos.targets(rig.runtime.now)[1])
    assert np.all(stiffness == 0.0)
    rig.runtime.unfreeze()
    rig.run(1.0)
    # Ended for good: the kick is not replayed once the legs are free again.
    assert rig.runtime.kick.status().outcome == "interrupted"
    assert rig.runtime.kick.status().kicks == 0


def test_a_kick_asked_for_while_walking_stops_the_walk_first():
    rig = Rig()
    rig.behaviour.emit(Walk(0.15, 0.0, 0.0), priority=1.0)
    rig.run(2.0)
    assert not rig.runtime.walk.standing()
    phases = []
    rig.behaviour.emit(Kick(0.19, -0.05), priority=KICK_PRIORITY)

    def record():
        phase = rig.runtime.kick.status().phase
        if not phases or phases[-1] != phase:
            phases.append(phase)
        return False

    rig.run(5.0, until=record)
    assert phases[0] == "stopping walk"
    assert "swinging" in phases
    assert rig.runtime.kick.status().outcome == "kicked"
    assert not rig.fell


def test_fall_protection_takes_the_body_from_a_kick_pushed_over():
    rig = Rig()
    rig.sim.place_ball(rig.middle[0] + 0.19, rig.middle[1] - 0.05)
    rig.behaviour.emit(Kick(0.19, -0.05), priority=KICK_PRIORITY)
    rig.run(3.0, until=lambda: rig.runtime.kick.status().phase == "winding")
    # On one foot, shoved hard towards the lifted one.
    rig.sim.push((0.0, -70.0, 0.0), 0.1)
    seen = set()

    def watch():
        seen.add(rig.runtime.state.fall.phase.value)
        return False

    rig.run(1.5, until=watch)
    assert rig.fell, "the push was meant to topple the robot"
    assert "falling" in seen
    status = rig.runtime.kick.status()
    assert status.outcome == "interrupted" and not status.active
