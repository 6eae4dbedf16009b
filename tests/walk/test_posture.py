"""The walk's posture every cycle: the hips' sway and where it applies."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from walk_helpers import Sense

from skills.walk import GaitError, WalkGenerator, load_gait
from skills.walk.footsteps import PlannedStep
from skills.walk.odometry import Pose2D
from skills.walk.posture import BodySense, posture, walk_targets
from skills.walk.request import Velocity
from skills.walk.soles import SoleGeometry
from skills.walk.step import Foot

GAIT = load_gait()
GEOMETRY = SoleGeometry()


def _feet_y(gait, *, swing_left: bool, step_share: float | None, forward: float = 0.0):
    """The two soles' sideways places (torso frame) for feet at their stand places."""
    out = walk_targets(
        gait,
        GEOMETRY,
        (Foot(), Foot()),
        BodySense(),
        posture(gait, forward),
        swing_left=swing_left,
        step_share=step_share,
    )
    return out.left_sole[1, 3], out.right_sole[1, 3]


def _sway(gait, *, swing_left: bool, step_share: float) -> np.ndarray:
    """How far the sway moves the soles sideways (the same posture without it subtracted:
    the single-support balance offsets move them too)."""
    still = attrs.evolve(gait, hip_sway=0.0)
    with_sway = _feet_y(gait, swing_left=swing_left, step_share=step_share)
    return np.subtract(with_sway, _feet_y(still, swing_left=swing_left, step_share=step_share))


def test_the_shipped_sway_leans_the_hips_towards_the_swing_foot():
    assert GAIT.hip_sway < 0.0  # the shipped choice (docs: "The hips lean into the swing")
    mid = 0.5 * GAIT.sway_periods
    # Swinging the left foot the hips move left: both soles move right under them, by the sway.
    assert np.allclose(_sway(GAIT, swing_left=True, step_share=mid), GAIT.hip_sway, atol=1e-3)
    assert np.allclose(_sway(GAIT, swing_left=False, step_share=mid), -GAIT.hip_sway, atol=1e-3)


@given(amplitude=st.floats(-0.03, 0.04), periods=st.floats(0.5, 3.0), left=st.booleans())
def test_the_sway_starts_and_ends_at_zero_and_peaks_halfway(amplitude, periods, left):
    gait = attrs.evolve(GAIT, hip_sway=amplitude, sway_periods=periods)
    for share in (0.0, periods, periods + 1.0):
        assert np.allclose(_sway(gait, swing_left=left, step_share=share), 0.0, atol=1e-12)
    peak = _sway(gait, swing_left=left, step_share=0.5 * periods)
    side = 1.0 if left else -1.0
    assert np.allclose(peak, side * amplitude, atol=0.1 * abs(amplitude) + 1e-9)


def test_walking_backwards_has_no_sway():
    mid = 0.5 * GAIT.sway_periods
    back = _feet_y(GAIT, swing_left=True, step_share=mid, forward=-0.1)
    assert posture(GAIT, -0.1).sway == 0.0
    assert posture(GAIT, 0.0).sway == posture(GAIT, 0.3).sway == GAIT.hip_sway
    sway_free = _feet_y(attrs.evolve(GAIT, hip_sway=0.0), swing_left=True, step_share=mid)
    assert np.allclose(back, sway_free, atol=1e-12)


def test_the_sway_parameters_are_range_checked():
    with pytest.raises(GaitError, match="sway_periods"):
        attrs.evolve(GAIT, sway_periods=0.1)
    with pytest.raises(GaitError, match="hip_sway"):
        attrs.evolve(GAIT, hip_sway=-0.05)


def _soles_while_making_footsteps(gait) -> list[np.ndarray]:
    gen = WalkGenerator(gait)
    steps = [
        PlannedStep(i % 2 == 0, Pose2D(0.03, 0.1 if i % 2 == 0 else -0.1, 0.0), 0.25)
        for i in range(4)
    ]
    gen.steps.add(steps, clear=True)
    sense = Sense()
    soles = []
    for _ in range(300):
        out = gen.update(0.012, sense)
        if gen.steps.current is not None:
            soles.append(np.concatenate([out.left_sole.ravel(), out.right_sole.ravel()]))
    assert len(soles) > 50
    return soles


def test_footsteps_do_not_sway():
    # A footstep lands where it is asked; with the sway bench navigate's worst landed further
    # off (docs). The first step in place before them is a velocity step and sways.
    swaying = _soles_while_making_footsteps(GAIT)
    still = _soles_while_making_footsteps(attrs.evolve(GAIT, hip_sway=0.0))
    assert np.array_equal(np.array(swaying), np.array(still))


def _sag_effect(
    gait, *, left: float, step_share: float, forward: float = 0.0, turn: float = 0.0
) -> float:
    """How far the support hip's sag compensation moves the support sole (m, both axes)."""

    def soles(g):
        out = walk_targets(
            g,
            GEOMETRY,
            (Foot(), Foot()),
            BodySense(),
            posture(g, forward, 0.0, left, turn),
            swing_left=True,
            step_share=step_share,
        )
        return out.right_sole[:3, 3]

    none = attrs.evolve(gait, sag_hip_roll=0.0, sag_hip_roll_forward=0.0)
    return float(np.linalg.norm(soles(gait) - soles(none)))


@given(share=st.floats(0.05, 0.95))
def test_the_sag_compensation_lasts_longer_walking_sideways(share):
    gait = attrs.evolve(GAIT, hip_sway=0.0, sag_periods_side=3.0)
    # In place it is a sine over the planned period: gone by the period's end.
    assert _sag_effect(gait, left=0.0, step_share=1.0) < 1e-12
    assert _sag_effect(gait, left=0.0, step_share=share) > 0.0
    # At full sideways speed it spans three periods: still there when the period ends (the
    # real step lasts 1.5-1.8 periods), gone after three.
    full = gait.max_left
    assert _sag_effect(gait, left=full, step_share=1.0) > 0.5 * _sag_effect(
        gait, left=0.0, step_share=0.5
    )
    assert _sag_effect(gait, left=full, step_share=3.0) < 1e-12


def test_walking_sideways_while_turning_or_going_forwards_keeps_the_planned_sag_span():
    # Those steps turned less than the stop's plan predicts (the demo square's moves ended
    # short of their heading): only a straight sideways walk gets the longer span.
    gait = attrs.evolve(GAIT, hip_sway=0.0, sag_periods_side=3.0)
    full = gait.max_left
    assert _sag_effect(gait, left=full, step_share=1.0, turn=gait.max_turn) < 1e-12
    assert _sag_effect(gait, left=full, step_share=1.0, forward=gait.max_forward) < 1e-12
    assert _sag_effect(gait, left=full, step_share=1.0, forward=-gait.max_backward) < 1e-12
    # Turning at half speed: a span of two periods, between the planned one and three.
    half = _sag_effect(gait, left=full, step_share=1.9, turn=0.5 * gait.max_turn)
    assert 0.0 < half < _sag_effect(gait, left=full, step_share=1.9)
    assert _sag_effect(gait, left=full, step_share=2.0, turn=0.5 * gait.max_turn) < 1e-12


@given(share=st.floats(0.0, 1.0), in_place=st.floats(0.0, 0.3), fast=st.floats(0.0, 0.4))
def test_the_sag_compensation_moves_to_its_full_speed_value_walking_forwards(share, in_place, fast):
    gait = attrs.evolve(GAIT, sag_hip_roll=in_place, sag_hip_roll_forward=fast)
    sag = posture(gait, share * gait.max_forward).sag
    assert sag == pytest.approx(in_place + share * (fast - in_place), abs=1e-12)
    # Backwards, sideways and turning on the spot it is the in-place value.
    assert posture(gait, -share * gait.max_backward).sag == pytest.approx(in_place, abs=1e-12)
    assert posture(gait, 0.0, 0.0, gait.max_left, gait.max_turn).sag == in_place


def test_the_shipped_walk_compensates_more_sag_at_full_forward_speed():
    # The steps go further (our NAO 0.374 -> 0.386 m/s at 0.40 asked, docs).
    assert GAIT.sag_hip_roll_forward > GAIT.sag_hip_roll
    assert _sag_effect(GAIT, left=0.0, step_share=0.5, forward=GAIT.max_forward) > _sag_effect(
        GAIT, left=0.0, step_share=0.5
    )


def test_lining_up_an_in_walk_kick_keeps_the_in_place_sag_compensation():
    from skills.walk.kick_step import KickStep

    gen = WalkGenerator(GAIT)
    gen.set_request(Velocity(GAIT.max_forward, 0.0, 0.0))
    gen.executed = Velocity(GAIT.max_forward, 0.0, 0.0)
    assert gen._posture().sag == pytest.approx(GAIT.sag_hip_roll_forward)
    gen.kick = KickStep(None, 1.0, 0.1, 0.12, 0.05, 0.03, 0.03, 0.05)
    assert gen._posture().sag == GAIT.sag_hip_roll


def _stand_position(right_forward: bool = False) -> np.ndarray:
    from lola_io.joints import JOINT_INDEX

    q = np.zeros(25)
    for side in "LR":
        q[JOINT_INDEX[side + "HipPitch"]] = -0.4
        q[JOINT_INDEX[side + "KneePitch"]] = 0.9
        q[JOINT_INDEX[side + "AnklePitch"]] = -0.5
        q[JOINT_INDEX[side + "ShoulderPitch"]] = 1.5
    if right_forward:  # the right leg swinging through, ahead of the hips
        q[JOINT_INDEX["RHipPitch"]], q[JOINT_INDEX["RKneePitch"]] = -0.8, 1.2
    return q


def _loaded_body(left_kg: float, right_kg: float, right_forward: bool = False) -> BodySense:
    body = BodySense()
    sense = Sense()
    sense.fsr = np.array([left_kg / 4] * 4 + [right_kg / 4] * 4)
    sense.position = _stand_position(right_forward)
    for _ in range(20):
        body.update(sense, GAIT, 0.0)
    return body


def test_no_hip_pitch_load_before_the_joints_are_measured_or_with_the_gain_off():
    assert BodySense().hip_pitch_loads(GAIT, 1.0) == (0.0, 0.0)
    body = _loaded_body(5.3, 0.0)
    assert body.hip_pitch_loads(GAIT, 0.0) == (0.0, 0.0)


def test_the_support_hip_pitch_is_commanded_further_by_its_load():
    from providers.model import solve_legs
    from providers.model.statics import SERVO_STIFFNESS, nao_leg_statics

    gait = attrs.evolve(GAIT, hip_sway=0.0, load_hip_pitch=1.0, load_hip_pitch_forward=1.0)
    # All the weight on the left foot, the right leg swinging through ahead of the hips.
    body = _loaded_body(5.3, 0.0, right_forward=True)
    assert body.left_share == pytest.approx(1.0, abs=1e-4) and body.loaded
    torques = nao_leg_statics().torques(_stand_position(True), body.left_share)
    scale = 1.0 / (SERVO_STIFFNESS * gait.leg_stiffness)
    left, right = body.hip_pitch_loads(gait, 1.0)
    assert (left, right) == pytest.approx((scale * torques[2], scale * torques[8]))
    # The support hip holds the body and the leg ahead of it up (pitching the torso forward:
    # the hip is commanded further back); the swing hip holds its own leg up.
    assert left > 0.015 and right < -0.015

    def hip_pitch(g) -> float:
        out = walk_targets(
            g,
            GEOMETRY,
            (Foot(), Foot()),
            body,
            posture(g, 0.0),
            swing_left=False,
            step_share=0.5,
        )
        return solve_legs(out.left_sole, out.right_sole, refine=False).left[2]  # hip pitch

    # Through the sole pose and the leg IK the offset lands on the hip pitch joint.
    offset = hip_pitch(gait) - hip_pitch(attrs.evolve(gait, load_hip_pitch=0.0))
    assert posture(gait, 0.0).load == 1.0
    assert offset == pytest.approx(left, abs=2e-3)


def test_a_lifted_robot_or_a_broken_reading_keeps_the_last_load_share():
    body = _loaded_body(4.0, 1.0)
    share = body.left_share
    sense = Sense()
    sense.fsr = np.zeros(8)  # lifted
    body.update(sense, GAIT, 0.0)
    assert not body.loaded and body.left_share == share
    sense.fsr = np.full(8, np.nan)
    body.update(sense, GAIT, 0.0)
    assert body.left_share == share
    assert np.all(np.isfinite(body.hip_pitch_loads(GAIT, 1.0)))


@given(forward=st.floats(0.0, 1.0))
def test_the_load_compensation_moves_to_its_full_speed_share(forward):
    gait = attrs.evolve(GAIT, load_hip_pitch=0.2, load_hip_pitch_forward=1.2)
    share = min(1.0, forward / gait.max_forward)
    assert posture(gait, forward).load == pytest.approx(0.2 + share)
    assert posture(gait, -0.2).load == pytest.approx(0.2)  # backwards: the in-place share


@given(forward=st.floats(0.0, 1.0))
def test_the_lean_grows_with_the_square_of_the_forward_speed(forward):
    share = min(1.0, forward / GAIT.max_forward)
    expected = GAIT.torso_lean + GAIT.torso_lean_forward * share * share
    assert posture(GAIT, forward).lean == pytest.approx(expected)
    assert posture(GAIT, -0.2).lean == GAIT.torso_lean  # backwards: no forward lean
