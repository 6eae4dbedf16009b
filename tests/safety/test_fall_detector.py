"""The fall detector on synthetic IMU traces: falls in four directions are seen early and in
the right direction, small or slow leans never raise an alarm, lying still is FALLEN."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skills.safety.fall import (
    FallDetector,
    FallDirection,
    FallPhase,
    FallThresholds,
    lean_direction,
    torso_lean,
)

DT = 0.012
# A NAO tipping over is an inverted pendulum: the lean grows like cosh(w t), w ~ 5.7 rad/s.
OMEGA = 5.7

# (roll sign, pitch sign) of a lean in each direction: pitch + forward, roll + right.
LEANS = {
    FallDirection.FRONT: (0.0, 1.0),
    FallDirection.BACK: (0.0, -1.0),
    FallDirection.RIGHT: (1.0, 0.0),
    FallDirection.LEFT: (-1.0, 0.0),
}


def _fall(detector: FallDetector, direction: FallDirection, start: float = 0.05):
    """Feed a pendulum fall from ``start`` rad until the torso lies flat; (detected at tilt,
    time of detection, time of impact, the states seen)."""
    sr, sp = LEANS[direction]
    detected = None
    t = 0.0
    states = []
    while True:
        lean = min(start * math.cosh(OMEGA * t), math.pi / 2)
        rate = start * OMEGA * math.sinh(OMEGA * t) if lean < math.pi / 2 else 0.0
        state = detector.update(t, DT, sr * lean, sp * lean, sr * rate, sp * rate, lean < 0.3)
        states.append(state)
        if detected is None and state.phase is FallPhase.FALLING:
            detected = (lean, t, state)
        if lean >= math.pi / 2:
            return detected, t, states
        t += DT


@pytest.mark.parametrize("direction", list(FallDirection))
def test_a_fall_is_seen_in_its_direction_well_before_the_impact(direction):
    detected, impact, _ = _fall(FallDetector(), direction)
    assert detected is not None, "the fall was never detected"
    lean, t, state = detected
    assert state.direction is direction
    # From 0.05 rad the torso reaches the floor ~0.43 s in; the alarm must leave time to act.
    assert impact - t >= 0.2, f"detected at {lean:.2f} rad, only {impact - t:.3f} s before"


def test_lying_still_is_fallen_and_standing_up_again_is_upright():
    detector = FallDetector()
    _fall(detector, FallDirection.FRONT)
    t = 1.0
    for _ in range(30):
        state = detector.update(t, DT, 0.0, math.pi / 2, 0.0, 0.0, False)
        t += DT
    assert state.phase is FallPhase.FALLEN and state.direction is FallDirection.FRONT
    for _ in range(10):  # upright but not yet long enough
        state = detector.update(t, DT, 0.0, 0.05, 0.0, 0.0, True)
        t += DT
    assert state.phase is FallPhase.FALLEN
    for _ in range(30):
        state = detector.update(t, DT, 0.0, 0.05, 0.0, 0.0, True)
        t += DT
    assert state.phase is FallPhase.UPRIGHT


@given(
    roll=st.floats(-0.25, 0.25),
    pitch=st.floats(-0.25, 0.25),
    gyro_roll=st.floats(-8.0, 8.0),
    gyro_pitch=st.floats(-8.0, 8.0),
)
def test_no_alarm_below_the_minimum_tilt_whatever_the_gyro_says(roll, pitch, gyro_roll, gyro_pitch):
    detector = FallDetector()
    for i in range(5):
        state = detector.update(i * DT, DT, roll, pitch, gyro_roll, gyro_pitch, True)
    if math.acos(math.cos(roll) * math.cos(pitch)) < FallThresholds().min_tilt:
        assert state.phase is FallPhase.UPRIGHT


@given(tilt=st.floats(0.0, 0.6), side=st.sampled_from(list(FallDirection)))
def test_a_steady_lean_below_the_sure_tilt_is_no_fall(tilt, side):
    sr, sp = LEANS[side]
    detector = FallDetector()
    for i in range(50):
        state = detector.update(i * DT, DT, sr * tilt, sp * tilt, 0.0, 0.0, True)
    assert state.phase is FallPhase.UPRIGHT


def test_non_finite_readings_change_nothing():
    detector = FallDetector()
    before = detector.update(0.0, DT, 0.0, 0.0, 0.0, 0.0, True)
    after = detector.update(DT, DT, math.nan, math.inf, 0.0, -math.inf, True)
    assert after == before


def test_head_down_on_the_front_reads_as_the_front():
    # The IMU's pitch stops at pi/2: tipped past it, roll flips to pi and pitch falls back.
    forward, sideways = torso_lean(math.pi, 1.4)
    assert forward == pytest.approx(math.pi - 1.4)
    assert abs(sideways) < 1e-9
    assert lean_direction(math.pi, 1.4) is FallDirection.FRONT
    assert lean_direction(-math.pi, -1.4) is FallDirection.BACK
    assert lean_direction(-1.3, 0.1) is FallDirection.LEFT


def test_thresholds_are_checked():
    with pytest.raises(ValueError, match="horizon"):
        FallThresholds(horizon=0.0)
    with pytest.raises(ValueError, match="min_tilt"):
        FallThresholds(min_tilt=math.nan)
