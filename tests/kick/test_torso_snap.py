"""The standing kick's torso snap (skills/kick/torso_snap.py), on the model: the support hip
leans the torso forwards over the wind-up and snaps it back through the swing, no faster
than the joint can move; the whip winds the kicking ankle toe-up by the lean (naosim:
tests/kick/test_kick_sim.py)."""

from __future__ import annotations

import math

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from motiond.simulated import start_pose
from providers.model import load_nao_model
from skills.kick import Kick, load_kick_parameters, plan_kick
from skills.kick.motion import LEG_JOINTS
from skills.kick.torso_snap import ACROSS, TorsoSnap
from skills.kick.whip import PITCH_JOINTS, Whip
from skills.walk.params import load_gait

MODEL = load_nao_model()
PARAMS = load_kick_parameters()
UPRIGHT = attrs.evolve(PARAMS, torso_lean=0.0, torso_snap=0.0)
GAIT = load_gait()
START = start_pose("StandInit")


def commands(kick: Kick, params) -> tuple[object, np.ndarray]:
    motion = plan_kick(kick, params, GAIT, START)
    return motion, np.array([motion.command(k) for k in range(motion.cycles)])


@pytest.mark.parametrize("kick", [Kick(0.19, -0.05), Kick(0.2, 0.05)], ids=["right", "left"])
def test_the_support_hip_leans_forwards_then_snaps_back_at_the_joint_s_speed(kick):
    motion, sent = commands(kick, PARAMS)
    upright, plain = commands(kick, UPRIGHT)
    assert motion.cycles == upright.cycles
    support = "L" if motion.foot == "right" else "R"
    hip = LEG_JOINTS.index(support + "HipPitch")
    ankle = LEG_JOINTS.index(("R" if motion.foot == "right" else "L") + "AnklePitch")
    # Only the support hip pitch and the kicking ankle (wound further toe-up) differ.
    others = [i for i in range(len(LEG_JOINTS)) if i not in (hip, ankle)]
    np.testing.assert_array_equal(sent[:, others], plain[:, others])
    offset = sent[:, hip] - plain[:, hip]
    # Forwards by the whole lean, then back past the plan by the whole snap.
    assert offset.min() == pytest.approx(-PARAMS.torso_lean, abs=1e-6)
    assert offset.max() == pytest.approx(PARAMS.torso_snap, abs=1e-6)
    assert np.argmin(offset) < np.argmax(offset)
    # The snap itself never asks the hip to move faster than it can (the plan's own commands
    # jump with the servo feed-forward, and the safety stage clips those: docs, "What the aim
    # does").
    speed = MODEL.joints[support + "HipPitch"].velocity
    assert np.abs(np.diff(offset)).max() <= speed * motion.period + 1e-9
    # Nothing before the wind-up; back on the plan when the hold is over (and the snap
    # starts snap_delay after the swing).
    delay = int(PARAMS.servo_delay)
    phases = [motion.phase(k + delay) for k in range(motion.cycles)]
    assert np.all(offset[[p in ("settling", "shifting") for p in phases]] == 0.0)
    late = round(PARAMS.snap_delay / motion.period) + 1
    after = [k for k, p in enumerate(phases) if p in ("retracting", "lowering", "returning")]
    assert np.all(offset[after[late:]] == 0.0)
    swing = phases.index("swinging")
    assert offset[swing + late - 2] == pytest.approx(-PARAMS.torso_lean, abs=1e-3)
    assert offset[swing + late] > -PARAMS.torso_lean


def test_power_and_aim_scale_the_snap():
    assert PARAMS.snap_at(1.0) == (PARAMS.torso_lean, PARAMS.torso_snap)
    lean, snap = PARAMS.snap_at(0.5)
    assert lean == pytest.approx(PARAMS.torso_lean / 4) and snap == pytest.approx(
        PARAMS.torso_snap / 4
    )
    straight = TorsoSnap.for_kick("left", 0.25, 0.2, 0.07, 0.0)
    assert (straight.lean, straight.snap) == (0.25, 0.2)
    assert straight.index == LEG_JOINTS.index("RHipPitch")
    aimed = TorsoSnap.for_kick("right", 0.25, 0.2, 0.07, -0.5 * ACROSS)
    assert (aimed.lean, aimed.snap) == pytest.approx((0.125, 0.1))
    assert aimed.index == LEG_JOINTS.index("LHipPitch")
    assert TorsoSnap.for_kick("left", 0.25, 0.2, 0.07, ACROSS) is None
    assert TorsoSnap.for_kick("left", 0.0, 0.0, 0.07, 0.0) is None
    # A kick without one plans as before.
    motion, _ = commands(Kick(0.19, -0.05, power=0.0), PARAMS)
    assert motion._snap is None


RIGHT = [LEG_JOINTS.index("R" + name) for name in PITCH_JOINTS]
LOWER = np.array([MODEL.joints["R" + name].lower for name in PITCH_JOINTS])
UPPER = np.array([MODEL.joints["R" + name].upper for name in PITCH_JOINTS])


@settings(max_examples=60)
@given(
    st.tuples(*(st.floats(lo, hi) for lo, hi in zip(LOWER, UPPER, strict=True))),
    st.floats(0.0, 1.2),
    st.floats(0.0, 0.4),
)
def test_the_whip_winds_the_ankle_toe_up_by_the_lift_within_its_limit(at, wind, lift):
    legs = np.zeros(len(LEG_JOINTS))
    legs[RIGHT] = at
    plain = Whip.around("right", legs, wind, 0.5)
    lifted = Whip.around("right", legs, wind, 0.5, toe_lift=lift)
    np.testing.assert_array_equal(lifted.wound[:2], plain.wound[:2])
    np.testing.assert_array_equal(lifted.driven, plain.driven)
    assert lifted.wound[2] == pytest.approx(max(LOWER[2], plain.wound[2] - lift))


@pytest.mark.parametrize(
    "kick",
    [
        Kick(0.18, -0.05, power=0.6),
        Kick(0.19, -0.05, 0.2),
        Kick(0.17, 0.0, -0.4, power=0.8),
        Kick(0.17, -0.05, power=0.45),
    ],
)
def test_the_snap_never_moves_the_hip_faster_than_it_can(kick):
    motion, sent = commands(kick, PARAMS)
    _, plain = commands(kick, UPRIGHT)
    index = motion._snap.index
    speed = MODEL.joints[LEG_JOINTS[index]].velocity
    offset = sent[:, index] - plain[:, index]
    assert np.abs(np.diff(offset)).max() <= speed * motion.period + 1e-9
    assert offset[0] == 0.0 and offset[-1] == 0.0


def test_a_kick_aimed_across_leans_less():
    _, plain = commands(Kick(0.17, 0.0, math.radians(30.0)), UPRIGHT)
    _, sent = commands(Kick(0.17, 0.0, math.radians(30.0)), PARAMS)
    hip = LEG_JOINTS.index("LHipPitch")  # the right foot kicks
    share = 1.0 - math.radians(30.0) / ACROSS
    offset = sent[:, hip] - plain[:, hip]
    assert offset.min() == pytest.approx(-PARAMS.torso_lean * share, abs=1e-6)
    assert offset.max() == pytest.approx(PARAMS.torso_snap * share, abs=1e-6)


def test_the_snap_follows_the_whip_s_share_and_is_gone_without_a_whip():
    # A whip cut to keep an aimed sole off the floor cuts its toe lift too: the torso leans
    # only as far as the lift that keeps the leaned toe up.
    kick = Kick(0.169, -0.05, 0.4, 0.7)
    motion = plan_kick(kick, PARAMS, GAIT, START)
    motion.prepare(1000)
    motion._timed()
    share = motion._whip.share
    assert 0.0 < share < 1.0
    whole = TorsoSnap.for_kick(motion.foot, *PARAMS.snap_at(0.7), PARAMS.snap_delay, 0.4)
    assert motion._snap.lean == pytest.approx(whole.lean * share)
    assert motion._snap.snap == pytest.approx(whole.snap * share)
    unwhipped = attrs.evolve(PARAMS, whip=0.0, whip_follow=0.0)
    assert plan_kick(Kick(0.19, -0.05), unwhipped, GAIT, START)._snap is None
