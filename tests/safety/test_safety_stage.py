"""The safety stage: nothing leaves it out of limits, non-finite or too fast, whatever it gets."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from motiond.safety import LOLA_PERIOD, SafetyStage
from providers.model import load_nao_model

MODEL = load_nao_model()
STEP = MODEL.velocity * LOLA_PERIOD

# Anything a float64 can hold: NaN, ±inf, ±1.8e308, subnormals, and plenty of plain angles.
any_float = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-3.0, 3.0),
    st.sampled_from([math.nan, math.inf, -math.inf, 1e300, -1e300]),
)
requests = arrays(np.float64, NUM_JOINTS, elements=any_float)
stiffness_requests = arrays(
    np.float64, NUM_JOINTS, elements=st.one_of(any_float, st.floats(0.0, 1.0))
)


def _assert_safe(stage: SafetyStage, position, stiffness, previous) -> None:
    assert np.all(np.isfinite(position)) and np.all(np.isfinite(stiffness))
    assert np.all(position >= MODEL.lower) and np.all(position <= MODEL.upper)
    assert np.all(np.abs(position - previous) <= STEP), "faster than a joint can move"
    assert np.all((stiffness >= 0.0) & (stiffness <= 1.0))


@given(measured=requests, frames=st.lists(st.tuples(requests, stiffness_requests), max_size=20))
def test_no_frame_leaves_out_of_limits_non_finite_or_too_fast(measured, frames):
    stage = SafetyStage()
    stage.reset(measured)
    previous = stage.position.copy()
    _assert_safe(stage, previous, stage.stiffness, previous)
    for position, stiffness in frames:
        safe_position, safe_stiffness = stage.apply(position, stiffness)
        _assert_safe(stage, safe_position, safe_stiffness, previous)
        previous = safe_position.copy()


@given(
    measured=requests,
    frames=st.lists(st.tuples(requests, stiffness_requests, requests), max_size=20),
)
def test_with_measured_angles_limp_joints_restart_from_where_they_are(measured, frames):
    stage = SafetyStage()
    stage.reset(measured)
    for position, stiffness, angles in frames:
        previous = stage.position.copy()
        limp = (stage.stiffness == 0.0) & np.isfinite(angles)
        # The reference a target may be one step from: the last one sent, or, for a limp
        # joint, its measured angle (clamped into the limits).
        reference = np.where(limp, np.clip(angles, MODEL.lower, MODEL.upper), previous)
        safe_position, safe_stiffness = stage.apply(position, stiffness, angles)
        _assert_safe(stage, safe_position, safe_stiffness, reference)


def test_a_joint_that_went_limp_stiffens_from_where_it_sagged():
    start = np.clip(np.zeros(NUM_JOINTS), MODEL.lower, MODEL.upper)
    sagged = np.clip(start + 0.5, MODEL.lower, MODEL.upper)
    hold = SafetyStage()
    hold.reset(start)
    follow = SafetyStage()
    follow.reset(start)
    limp, stiff = np.zeros(NUM_JOINTS), np.ones(NUM_JOINTS)
    # Limp for a while; the joints sag 0.5 rad (the servo provider asks for where they are).
    hold.apply(start, limp)
    follow.apply(start, limp, start)
    position, _ = follow.apply(sagged, stiff, sagged)
    np.testing.assert_array_equal(position, sagged)
    assert not follow.velocity_limited.any()
    # Without the measured angles the target is dragged from where the joint went limp.
    position, _ = hold.apply(sagged, stiff)
    moved = sagged != start
    assert np.all(np.abs(position - start)[moved] <= STEP[moved])
    assert hold.velocity_limited[moved].all()
    # Stiff joints do not follow the measurement: the target stays the reference.
    position, _ = follow.apply(sagged, stiff, start)
    np.testing.assert_array_equal(position, sagged)


@given(measured=requests, frames=st.lists(st.tuples(requests, stiffness_requests), max_size=10))
def test_non_finite_requests_hold_the_last_safe_value_and_are_counted_per_joint(measured, frames):
    stage = SafetyStage()
    stage.reset(measured)
    expected_position = (~np.isfinite(measured)).astype(np.int64)
    expected_stiffness = np.zeros(NUM_JOINTS, dtype=np.int64)
    for position, stiffness in frames:
        last_position, last_stiffness = stage.position.copy(), stage.stiffness.copy()
        stage.apply(position, stiffness)
        bad_p, bad_s = ~np.isfinite(position), ~np.isfinite(stiffness)
        np.testing.assert_array_equal(stage.position[bad_p], last_position[bad_p])
        np.testing.assert_array_equal(stage.stiffness[bad_s], last_stiffness[bad_s])
        expected_position += bad_p
        expected_stiffness += bad_s
    np.testing.assert_array_equal(stage.nonfinite_position, expected_position)
    np.testing.assert_array_equal(stage.nonfinite_stiffness, expected_stiffness)
    assert stage.fault_count == expected_position.sum() + expected_stiffness.sum()


@given(
    start=arrays(np.float64, NUM_JOINTS, elements=st.floats(0.0, 1.0)),
    move=arrays(np.float64, NUM_JOINTS, elements=st.floats(-0.999, 0.999)),
    stiffness=arrays(np.float64, NUM_JOINTS, elements=st.floats(0.0, 1.0)),
)
def test_a_request_the_robot_can_follow_passes_unchanged(start, move, stiffness):
    measured = MODEL.lower + start * (MODEL.upper - MODEL.lower)
    stage = SafetyStage()
    stage.reset(measured)
    request = np.clip(stage.position + move * STEP, MODEL.lower, MODEL.upper)
    position, safe_stiffness = stage.apply(request, stiffness)
    np.testing.assert_array_equal(position, request)
    np.testing.assert_array_equal(safe_stiffness, stiffness)
    assert not stage.velocity_limited.any() and not stage.limit_clamped.any()


def test_a_far_target_is_reached_at_full_joint_speed():
    stage = SafetyStage()
    stage.reset(MODEL.lower)
    cycles_needed = np.ceil((MODEL.upper - MODEL.lower) / STEP).astype(int)
    for cycle in range(1, cycles_needed.max() + 1):
        position, _ = stage.apply(MODEL.upper, np.ones(NUM_JOINTS))
        arrived = cycle >= cycles_needed
        np.testing.assert_array_equal(position[arrived], MODEL.upper[arrived])
        assert np.all(position[~arrived] < MODEL.upper[~arrived])
    # Each joint was slowed on every cycle but its last.
    np.testing.assert_array_equal(stage.velocity_limited, cycles_needed - 1)


def test_out_of_limit_and_out_of_range_requests_are_clamped_and_counted():
    knee = JOINT_INDEX["LKneePitch"]
    measured = np.clip(np.zeros(NUM_JOINTS), MODEL.lower, MODEL.upper)
    measured[knee] = -0.05  # the limit (-0.092) is within one cycle's reach (0.077)
    stage = SafetyStage()
    stage.reset(measured)
    request = stage.position.copy()
    request[knee] = -1.0
    stiffness = np.full(NUM_JOINTS, 0.5)
    stiffness[[0, 1]] = [-0.2, 7.0]
    position, safe_stiffness = stage.apply(request, stiffness)
    assert position[knee] == MODEL.lower[knee]
    assert stage.limit_clamped[knee] == 1 and stage.limit_clamped.sum() == 1
    assert list(safe_stiffness[:3]) == [0.0, 1.0, 0.5]
    assert list(stage.stiffness_clamped[:3]) == [1, 1, 0]


def test_reset_starts_limp_at_the_measured_position_clamped_into_the_limits():
    stage = SafetyStage()
    measured = np.clip(np.full(NUM_JOINTS, 0.3), MODEL.lower, MODEL.upper)
    measured[JOINT_INDEX["HeadYaw"]] = 99.0
    measured[JOINT_INDEX["HeadPitch"]] = math.nan
    stage.reset(measured)
    assert not stage.stiffness.any()
    assert stage.position[JOINT_INDEX["HeadYaw"]] == MODEL.upper[JOINT_INDEX["HeadYaw"]]
    assert stage.position[JOINT_INDEX["HeadPitch"]] == 0.0
    assert stage.nonfinite_position[JOINT_INDEX["HeadPitch"]] == 1
    rest = np.ones(NUM_JOINTS, dtype=bool)
    rest[[JOINT_INDEX["HeadYaw"], JOINT_INDEX["HeadPitch"]]] = False
    np.testing.assert_array_equal(stage.position[rest], measured[rest])


def test_apply_before_reset_is_refused():
    with pytest.raises(RuntimeError, match="before reset"):
        SafetyStage().apply(np.zeros(NUM_JOINTS), np.zeros(NUM_JOINTS))


@pytest.mark.parametrize(
    ("position", "stiffness", "error", "match"),
    [
        (np.zeros(24), np.zeros(25), ValueError, "position: expected 25 values"),
        (np.zeros(25), np.zeros((5, 5)), ValueError, "stiffness: expected 25 values"),
        (np.array(["a"] * 25), np.zeros(25), TypeError, "position: expected numbers"),
    ],
)
@pytest.mark.parametrize("measured", [None, np.zeros(25), np.zeros(3)])
def test_a_malformed_call_is_refused_and_changes_nothing(
    position, stiffness, error, match, measured
):
    stage = SafetyStage()
    stage.reset(np.clip(np.zeros(NUM_JOINTS), MODEL.lower, MODEL.upper))
    stage.apply(stage.position + 0.01 * STEP, np.full(NUM_JOINTS, 0.7))
    before = (stage.position.copy(), stage.stiffness.copy(), stage.fault_count)
    with pytest.raises(error, match=match):
        stage.apply(position, stiffness, measured)
    np.testing.assert_array_equal(stage.position, before[0])
    np.testing.assert_array_equal(stage.stiffness, before[1])
    assert stage.fault_count == before[2]


def test_a_malformed_measurement_is_refused_and_changes_nothing():
    stage = SafetyStage()
    stage.reset(np.clip(np.zeros(NUM_JOINTS), MODEL.lower, MODEL.upper))
    before = stage.position.copy()
    with pytest.raises(ValueError, match="measured: expected 25 values"):
        stage.apply(before + 1.0, np.ones(NUM_JOINTS), np.ones(24))
    np.testing.assert_array_equal(stage.position, before)


def test_results_are_read_only_views_of_the_stage_s_own_arrays():
    stage = SafetyStage()
    stage.reset(np.clip(np.zeros(NUM_JOINTS), MODEL.lower, MODEL.upper))
    position, stiffness = stage.apply(np.zeros(NUM_JOINTS), np.ones(NUM_JOINTS))
    with pytest.raises(ValueError, match="read-only"):
        position[0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        stiffness[0] = 0.0
    again, _ = stage.apply(np.zeros(NUM_JOINTS), np.ones(NUM_JOINTS))
    assert again is position  # no new arrays per cycle


def test_the_period_scales_the_step():
    slow = SafetyStage(period=0.024)
    slow.reset(MODEL.lower)
    position, _ = slow.apply(MODEL.upper, np.ones(NUM_JOINTS))
    np.testing.assert_allclose(position - MODEL.lower, 2 * STEP, rtol=1e-8)
    for period in (0.0, -0.012, math.nan, math.inf):
        with pytest.raises(ValueError, match="period"):
            SafetyStage(period=period)


def test_integer_and_float32_requests_are_accepted():
    stage = SafetyStage()
    stage.reset(np.clip(np.zeros(NUM_JOINTS), MODEL.lower, MODEL.upper).astype(np.float32))
    position, stiffness = stage.apply(np.zeros(NUM_JOINTS, dtype=np.int64), np.ones(25, np.int32))
    assert position.dtype == np.float64 and stiffness.dtype == np.float64
    assert np.all(stiffness == 1.0)
