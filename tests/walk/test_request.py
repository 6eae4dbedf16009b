"""The ellipsoid clamp and the per-step ratchet (property-based)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skills.walk import Velocity, clamp_request, load_gait, ratchet
from skills.walk.request import turn_limit

GAIT = load_gait()
speeds = st.floats(-5.0, 5.0, allow_nan=False)
turns = st.floats(-20.0, 20.0, allow_nan=False)


def _norm(v: Velocity) -> float:
    fmax = GAIT.max_forward if v.forward >= 0 else GAIT.max_backward
    return math.sqrt(
        (v.forward / fmax) ** 2 + (v.left / GAIT.max_left) ** 2 + (v.turn / GAIT.max_turn) ** 2
    )


@given(speeds, speeds, turns)
def test_clamped_requests_lie_inside_the_ellipsoid_and_every_limit(forward, left, turn):
    # The turn limit shrinks at full forward or sideways speed; backwards the shape is a diamond.
    v = clamp_request(GAIT, forward, left, turn)
    assert _norm(v) <= 1.0 + 1e-9
    assert -GAIT.max_backward <= v.forward <= GAIT.max_forward
    assert abs(v.left) <= GAIT.max_left
    assert abs(v.turn) <= turn_limit(GAIT, v.forward, v.left) + 1e-12
    # Never reversed on any axis.
    assert v.forward * forward >= 0 and v.left * left >= 0 and v.turn * turn >= 0
    if v.forward < 0.0:  # backwards, the shares add up to at most 1 (a diamond)
        shares = -v.forward / GAIT.max_backward + abs(v.left) / GAIT.max_left
        assert shares + abs(v.turn) / GAIT.max_turn <= 1.0 + 1e-9


@given(st.floats(0.0, 1.0), st.floats(-1.0, 1.0), st.floats(-1.0, 1.0))
def test_requests_inside_keep_their_values(share, a, b):
    # A point inside the ellipsoid, slow enough that the turn limit does not bind.
    v = Velocity(0.0, share * a * GAIT.max_left * 0.5, share * b * GAIT.max_turn * 0.5)
    assert clamp_request(GAIT, v.forward, v.left, v.turn) == v


@given(speeds, speeds)
def test_scaling_keeps_the_direction(forward, left):
    v = clamp_request(GAIT, forward, left, 0.0)
    if forward and left and v.forward and v.left:
        assert math.isclose(v.forward / v.left, forward / left, rel_tol=1e-9)


@given(
    st.builds(Velocity, speeds, speeds, turns),
    st.builds(Velocity, speeds, speeds, turns),
)
def test_the_ratchet_changes_each_axis_by_one_step_at_most_and_arrives(start, target):
    start = clamp_request(GAIT, start.forward, start.left, start.turn)
    target = clamp_request(GAIT, target.forward, target.left, target.turn)
    v = start
    for _ in range(200):
        nxt = ratchet(GAIT, v, target)
        assert abs(nxt.forward - v.forward) <= max(GAIT.forward_accel, GAIT.forward_decel) + 1e-12
        assert abs(nxt.left - v.left) <= 2 * GAIT.left_accel + 1e-12
        assert abs(nxt.turn - v.turn) <= 2 * GAIT.turn_accel + 1e-12
        v = nxt
        if v == target:
            break
    assert v == target


@given(st.floats(0.01, 0.35), st.floats(-0.35, 0.35), st.floats(-0.25, 0.25), st.floats(-2.0, 2.0))
def test_a_stop_slows_by_forward_decel_and_walking_on_elsewhere_by_redirect_decel(
    forward, target_forward, left, turn
):
    current = Velocity(forward, 0.0, 0.0)
    stop = ratchet(GAIT, current, Velocity())
    assert forward - stop.forward == min(forward, GAIT.forward_decel)
    target = clamp_request(GAIT, target_forward, left, turn)
    if target.is_zero or target.forward >= forward:
        return
    slowed = ratchet(GAIT, current, target).forward
    # A reversal slows to zero first; either way by redirect_decel a step at most.
    floor = max(target.forward, 0.0)
    assert slowed == pytest.approx(max(floor, forward - GAIT.redirect_decel), abs=1e-12)
