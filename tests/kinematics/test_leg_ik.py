"""Leg inverse kinematics: exact round trips, the shared hip motor, unreachable targets."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kinematics_helpers import joint_angles

from lola_io.joints import JOINT_INDEX, LEFT_LEG_JOINTS, NUM_JOINTS, RIGHT_LEG_JOINTS
from providers.model import leg_reach, load_nao_model, nao_kinematics, nao_leg_ik, solve_legs
from providers.model.leg_reach import ROTATION_WEIGHT
from providers.model.transforms import pose_error, pose_from_xyz_rpy

LEG_INDICES = [JOINT_INDEX[n] for n in (*LEFT_LEG_JOINTS, *RIGHT_LEG_JOINTS)]


def legs_at(solution, base: np.ndarray | None = None) -> np.ndarray:
    # Non-leg joints at zero, clamped: zero is outside the elbow-roll limits.
    q = load_nao_model().clamp(np.zeros(NUM_JOINTS)) if base is None else base.copy()
    return solution.apply(q)


def within_limits(q: np.ndarray) -> bool:
    model = load_nao_model()
    return bool(np.all(q >= model.lower) and np.all(q <= model.upper))


@given(joint_angles())
def test_ik_of_fk_reaches_both_feet(q):
    kin = nao_kinematics()
    left, right = kin.sole_poses(q)
    solution = solve_legs(left, right)
    assert solution.reachable
    assert solution.left[0] == solution.right[0]
    reached = legs_at(solution, q)
    assert within_limits(reached)
    for want, got in zip((left, right), kin.sole_poses(reached), strict=True):
        dp, da = pose_error(want, got)
        assert dp < 1e-4
        assert da < 1e-3
    # Round trips are in fact exact to rounding, which the reported errors confirm.
    assert max(solution.left_error[0], solution.right_error[0]) < 1e-9


@given(joint_angles())
def test_reported_errors_are_the_true_errors(q):
    kin = nao_kinematics()
    left, right = kin.sole_poses(q)
    # Push the left foot 5 cm down and yaw it: often out of reach or in conflict.
    target = left @ pose_from_xyz_rpy(0.01, 0.0, -0.05, yaw=0.2)
    solution = solve_legs(target, right)
    got_left, got_right = kin.sole_poses(legs_at(solution, q))
    assert pose_error(target, got_left) == pytest.approx(solution.left_error, abs=1e-9)
    assert pose_error(right, got_right) == pytest.approx(solution.right_error, abs=1e-9)
    tolerant = (
        max(solution.left_error[0], solution.right_error[0]) <= 1e-6
        and max(solution.left_error[1], solution.right_error[1]) <= 1e-6
    )
    assert solution.reachable == tolerant


def test_leg_forward_agrees_with_whole_body_fk():
    kin, ik = nao_kinematics(), nao_leg_ik()
    rng = np.random.default_rng(3)
    model = load_nao_model()
    for _ in range(20):
        q = rng.uniform(model.lower, model.upper)
        left, right = kin.sole_poses(q)
        left_angles = [q[JOINT_INDEX[n]] for n in LEFT_LEG_JOINTS]
        right_angles = [q[JOINT_INDEX["LHipYawPitch"]]] + [
            q[JOINT_INDEX[n]] for n in RIGHT_LEG_JOINTS
        ]
        np.testing.assert_allclose(ik.forward("left", left_angles), left, atol=1e-14)
        np.testing.assert_allclose(ik.forward("right", right_angles), right, atol=1e-14)


def standing_soles(hyp: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    q = np.zeros(NUM_JOINTS)
    for side in "LR":
        q[JOINT_INDEX[f"{side}HipPitch"]] = -0.4
        q[JOINT_INDEX[f"{side}KneePitch"]] = 0.8
        q[JOINT_INDEX[f"{side}AnklePitch"]] = -0.4
    q[JOINT_INDEX["LHipYawPitch"]] = hyp
    return nao_kinematics().sole_poses(q)


@pytest.mark.parametrize("left_weight", [0.0, 0.5, 1.0])
def test_conflicting_hip_requests_keep_positions_and_soles_flat(left_weight):
    # Each foot alone would need a different hip yaw-pitch: turn only the left foot.
    left, right = standing_soles()
    left = left @ pose_from_xyz_rpy(yaw=0.3)
    solution = solve_legs(left, right, left_weight=left_weight)
    assert solution.hip_yaw_pitch_conflict > 0.05
    assert solution.left[0] == solution.right[0]
    assert solution.reachable is False
    kin = nao_kinematics()
    got_left, got_right = kin.sole_poses(legs_at(solution))
    for want, got in ((left, got_left), (right, got_right)):
        # Position and sole normal exact; only the yaw about the normal gives way.
        np.testing.assert_allclose(got[:3, 3], want[:3, 3], atol=1e-9)
        np.testing.assert_allclose(got[:3, 2], want[:3, 2], atol=1e-9)
    if left_weight == 1.0:
        assert pose_error(left, got_left)[1] < 1e-9
    if left_weight == 0.0:
        assert pose_error(right, got_right)[1] < 1e-9
    if left_weight == 0.5:
        # Shared: each foot misses its yaw by a part of the disagreement, never all of it.
        assert 0.0 < solution.left_error[1] < 0.3
        assert 0.0 < solution.right_error[1] < 0.3


def test_the_shared_value_is_deterministic():
    left, right = standing_soles()
    left = left @ pose_from_xyz_rpy(yaw=0.3)
    assert solve_legs(left, right) == solve_legs(left, right)


far = st.tuples(
    st.floats(-2.0, 2.0), st.floats(-2.0, 2.0), st.floats(-2.0, 2.0),
    st.floats(-math.pi, math.pi), st.floats(-1.5, 1.5), st.floats(-math.pi, math.pi),
)  # fmt: skip


@given(far, far)
def test_any_target_gives_finite_angles_within_limits(left_xyz_rpy, right_xyz_rpy):
    left = pose_from_xyz_rpy(*left_xyz_rpy)
    right = pose_from_xyz_rpy(*right_xyz_rpy)
    for refine in (True, False):
        solution = solve_legs(left, right, refine=refine)
        q = legs_at(solution)
        assert np.all(np.isfinite(q))
        assert within_limits(q)
        assert np.isfinite(solution.left_error).all() and np.isfinite(solution.right_error).all()


def test_too_far_a_target_is_flagged_and_the_leg_reaches_towards_it():
    left, right = standing_soles()
    down = left.copy()
    down[2, 3] -= 0.3
    solution = solve_legs(down, right)
    assert not solution.reachable
    assert solution.right_error[0] < 1e-9
    got_left, _ = nao_kinematics().sole_poses(legs_at(solution))
    # Legs straight down: the sole is as low as it can be, 0.3 m short minus the bent knee.
    assert solution.left[3] == pytest.approx(0.0, abs=1e-6)
    assert got_left[2, 3] < left[2, 3] - 0.01
    assert solution.left_error[0] == pytest.approx(pose_error(down, got_left)[0], abs=1e-12)


def weighted_cost(error: tuple[float, float]) -> float:
    return error[0] ** 2 + (ROTATION_WEIGHT * error[1]) ** 2


def test_a_limit_bound_target_ends_closer_than_plain_clamping(monkeypatch):
    # A foot rolled beyond the ankle-roll limit, position unchanged.
    left, right = standing_soles()
    target = left @ pose_from_xyz_rpy(roll=1.2)
    target[:3, 3] = left[:3, 3]
    solution = solve_legs(target, right)
    assert not solution.reachable
    assert solution.left[5] == pytest.approx(load_nao_model().upper[JOINT_INDEX["LAnkleRoll"]])
    clamped = solve_legs(target, right, refine=False)
    assert not clamped.reachable
    assert clamped.left[5] == solution.left[5]
    assert weighted_cost(solution.left_error) < weighted_cost(clamped.left_error)
    monkeypatch.setattr(leg_reach, "REFINE_STEPS", 0)
    assert solve_legs(target, right) == clamped
    assert_locally_closest(target, solution)


def assert_locally_closest(target: np.ndarray, solution) -> None:
    """No small move of the left leg's five free joints, within limits, gets noticeably closer.

    The refinement is bounded (REFINE_STEPS) and converges linearly far from the target, so
    it is held to 1e-4 of the cost, not to rounding.
    """
    model, ik = load_nao_model(), nao_leg_ik()
    lower = model.lower[[JOINT_INDEX[n] for n in LEFT_LEG_JOINTS]]
    upper = model.upper[[JOINT_INDEX[n] for n in LEFT_LEG_JOINTS]]
    best = weighted_cost(solution.left_error)
    rng = np.random.default_rng(0)
    for _ in range(40):
        probe = np.array(solution.left)
        probe[1:] += rng.normal(scale=2e-3, size=5)
        probe = np.clip(probe, lower, upper)
        assert weighted_cost(pose_error(target, ik.forward("left", probe))) > best * (1 - 1e-4)


@settings(max_examples=25)
@given(joint_angles(), st.tuples(*[st.floats(-0.3, 0.3)] * 3), st.floats(0.3, 1.0))
def test_unreachable_solutions_are_locally_closest(q, shift, roll):
    # Targets made unreachable by a shift and a roll beyond the ankle's range: no small move
    # of the five free joints (within limits) brings the foot noticeably closer.
    left, right = nao_kinematics().sole_poses(q)
    target = left @ pose_from_xyz_rpy(*shift, roll=roll)
    solution = solve_legs(target, right, left_weight=1.0)
    if not solution.reachable:
        assert_locally_closest(target, solution)


def test_bad_targets_are_rejected_clearly():
    left, right = standing_soles()
    with pytest.raises(ValueError, match="left_sole must be a 4x4 pose"):
        solve_legs(np.eye(3), right)
    broken = right.copy()
    broken[0, 3] = np.nan
    with pytest.raises(ValueError, match="right_sole has non-finite"):
        solve_legs(left, broken)
    with pytest.raises(ValueError, match="left_weight"):
        solve_legs(left, right, left_weight=1.5)
    with pytest.raises(ValueError, match="side"):
        nao_leg_ik().forward("middle", [0.0] * 6)


@settings(max_examples=50)
@given(joint_angles(), st.sampled_from(["left", "right"]))
def test_one_leg_ik_of_fk_reaches_the_sole_with_its_own_hip_yaw_pitch(q, side):
    left, right = nao_kinematics().sole_poses(q)
    sole = left if side == "left" else right
    angles, reached = nao_leg_ik().solve_one(side, sole)
    assert reached
    error = pose_error(sole, nao_leg_ik().forward(side, angles))
    assert error[0] < 1e-4 and error[1] < 1e-3
    assert angles[0] == pytest.approx(q[JOINT_INDEX["LHipYawPitch"]], abs=1e-6)


@settings(max_examples=50)
@given(joint_angles(), st.floats(-0.5, 0.3))
def test_one_leg_ik_holds_a_given_hip_yaw_pitch_and_stays_in_limits(q, hyp):
    _, right = nao_kinematics().sole_poses(q)
    angles, _ = nao_leg_ik().solve_one("right", right, hip_yaw_pitch=hyp)
    assert angles[0] == hyp
    full = np.zeros(NUM_JOINTS)
    full[[JOINT_INDEX["LHipYawPitch"], *(JOINT_INDEX[n] for n in RIGHT_LEG_JOINTS)]] = angles
    model = load_nao_model()
    legs = [JOINT_INDEX[n] for n in RIGHT_LEG_JOINTS]
    assert np.all(full[legs] >= model.lower[legs]) and np.all(full[legs] <= model.upper[legs])
    with pytest.raises(ValueError, match="finite"):
        nao_leg_ik().solve_one("right", right, hip_yaw_pitch=math.nan)
