"""Linear and minimum-jerk servo interpolation: end points, shape, and velocity."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from providers.interpolation import (
    INTERPOLATIONS,
    MINIMUM_JERK_PEAK_SPEED_RATIO,
    interpolate,
    linear,
    linear_velocity,
    minimum_jerk,
    minimum_jerk_profile,
    minimum_jerk_velocity,
    progress,
)

angles = st.floats(-3.0, 3.0)
durations = st.floats(0.01, 10.0)
times = st.floats(-100.0, 100.0)


@pytest.mark.parametrize("kind", INTERPOLATIONS)
@given(start=angles, target=angles, t0=times, duration=durations)
def test_starts_at_start_and_ends_exactly_at_target(kind, start, target, t0, duration):
    assert interpolate(kind, start, target, t0, duration, t0) == pytest.approx(start, abs=1e-12)
    assert interpolate(kind, start, target, t0, duration, t0 - 1.0) == start
    assert interpolate(kind, start, target, t0, duration, t0 + duration) == target
    assert interpolate(kind, start, target, t0, duration, t0 + duration + 5.0) == target


@pytest.mark.parametrize("kind", INTERPOLATIONS)
def test_zero_duration_jumps_at_the_start_time(kind):
    assert interpolate(kind, 0.0, 1.0, 2.0, 0.0, 1.999) == 0.0
    assert interpolate(kind, 0.0, 1.0, 2.0, 0.0, 2.0) == 1.0


@pytest.mark.parametrize("kind", INTERPOLATIONS)
@given(
    start=angles,
    target=angles,
    duration=durations,
    fractions=st.lists(st.floats(0.0, 1.0), min_size=2, max_size=20),
)
def test_moves_monotonically_and_never_overshoots(kind, start, target, duration, fractions):
    times = sorted(f * duration for f in fractions)
    path = np.array([interpolate(kind, start, target, 0.0, duration, t) for t in times])
    direction = np.sign(target - start)
    assert np.all(np.diff(path) * direction >= -1e-12)
    low, high = min(start, target), max(start, target)
    assert np.all((path >= low - 1e-12) & (path <= high + 1e-12))


@pytest.mark.parametrize("kind", INTERPOLATIONS)
@given(start=angles, target=angles, t0=times, duration=st.floats(0.0, 10.0), now=times)
def test_the_plain_float_path_equals_the_array_path(kind, start, target, t0, duration, now):
    scalar = interpolate(kind, start, target, t0, duration, now)
    assert type(scalar) is float
    vector = interpolate(
        kind,
        np.array([start, target]),
        np.array([target, start]),
        np.full(2, t0),
        np.full(2, duration),
        now,
    )
    assert vector.shape == (2,)
    assert vector[0] == scalar
    assert vector[1] == interpolate(kind, target, start, t0, duration, now)


@pytest.mark.parametrize("kind", INTERPOLATIONS)
def test_both_paths_agree_on_sub_nanosecond_moves(kind):
    for now in (-1e-10, 0.0, 2e-10, 5e-10, 1e-9):
        scalar = interpolate(kind, 0.0, 1.0, 0.0, 5e-10, now)
        assert (
            interpolate(kind, np.zeros(1), np.ones(1), np.zeros(1), np.full(1, 5e-10), now)[0]
            == scalar
        )


def test_linear_is_halfway_at_half_time_and_min_jerk_is_symmetric():
    assert linear(1.0, 3.0, 0.0, 2.0, 1.0) == pytest.approx(2.0)
    assert minimum_jerk(1.0, 3.0, 0.0, 2.0, 1.0) == pytest.approx(2.0)
    # Minimum jerk lags linear in the first half and leads in the second.
    assert minimum_jerk(0.0, 1.0, 0.0, 1.0, 0.25) < linear(0.0, 1.0, 0.0, 1.0, 0.25)
    assert minimum_jerk(0.0, 1.0, 0.0, 1.0, 0.75) > linear(0.0, 1.0, 0.0, 1.0, 0.75)


def test_minimum_jerk_has_zero_velocity_and_acceleration_at_both_ends():
    h = 1e-5
    s = minimum_jerk_profile
    for tau in (0.0, 1.0):
        # One-sided differences inside [0, 1].
        sign = 1.0 if tau == 0.0 else -1.0
        velocity = sign * (s(tau + sign * h) - s(tau)) / h
        acceleration = (s(tau + 2 * sign * h) - 2 * s(tau + sign * h) + s(tau)) / h**2
        assert abs(velocity) < 1e-8
        assert abs(acceleration) < 1e-3
    assert minimum_jerk_velocity(0.0, 2.0, 1.0, 0.5, 1.0) == 0.0
    assert minimum_jerk_velocity(0.0, 2.0, 1.0, 0.5, 1.5) == 0.0


@given(start=angles, target=angles, t0=times, duration=durations, fraction=st.floats(0.01, 0.99))
def test_velocities_match_the_positions(start, target, t0, duration, fraction):
    now = t0 + fraction * duration
    h = 1e-6 * duration
    for position, velocity in ((minimum_jerk, minimum_jerk_velocity), (linear, linear_velocity)):
        numeric = (
            position(start, target, t0, duration, now + h)
            - position(start, target, t0, duration, now - h)
        ) / (2 * h)
        assert velocity(start, target, t0, duration, now) == pytest.approx(
            numeric, rel=1e-4, abs=1e-6 * (1 + abs(target - start)) / duration
        )


def test_minimum_jerk_peaks_at_15_8_of_the_average_speed_at_mid_move():
    taus = np.linspace(0.0, 1.0, 2001)
    speeds = [float(minimum_jerk_velocity(0.0, 1.0, 0.0, 1.0, t)) for t in taus]
    assert max(speeds) == pytest.approx(MINIMUM_JERK_PEAK_SPEED_RATIO)
    assert taus[int(np.argmax(speeds))] == pytest.approx(0.5)


def test_vectorised_over_joints_with_their_own_start_and_duration():
    start = np.array([0.0, 1.0, -1.0])
    target = np.array([1.0, 1.0, 1.0])
    start_time = np.array([0.0, 0.0, 1.0])
    duration = np.array([2.0, 1.0, 0.0])
    np.testing.assert_allclose(linear(start, target, start_time, duration, 1.0), [0.5, 1.0, 1.0])
    np.testing.assert_allclose(progress(start_time, duration, 0.5), [0.25, 0.5, 0.0])
    np.testing.assert_allclose(
        minimum_jerk(start, target, start_time, duration, 0.5), [0.103515625, 1.0, -1.0]
    )


def test_unknown_interpolation_is_refused():
    with pytest.raises(ValueError, match="unknown interpolation 'cubic'"):
        interpolate("cubic", 0.0, 1.0, 0.0, 1.0, 0.5)  # type: ignore[arg-type]
