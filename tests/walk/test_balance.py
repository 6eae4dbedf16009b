"""The walk's balance feedback: the support ankle's pitch gains scheduled by forward speed (the
pitch-rate gain by sideways speed too)."""

from __future__ import annotations

import attrs
import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from walk_helpers import Sense

from skills.walk import Phase, WalkGenerator, clamp_request, load_gait
from skills.walk.balance import balance_offsets

GAIT = load_gait()
DT = 0.012
unit = st.floats(0.0, 1.0)
gain = st.floats(-0.3, 0.3)
rate = st.floats(-3.0, 3.0)


def _ankle_pitch(
    gait, share: float, gyro_y: float, pitch_error: float, side_share: float = 0.0
) -> float:
    _, (ankle_pitch, _) = balance_offsets(
        gait,
        support=True,
        left=True,
        single_support=0.5,
        gyro_x=0.0,
        gyro_y=gyro_y,
        roll=0.0,
        pitch_error=pitch_error,
        forward_share=share,
        sag=gait.sag_hip_roll,
        side_share=side_share,
    )
    return ankle_pitch


@given(share=unit, fast_gyro=gain, fast_tilt=st.floats(-1.0, 1.0), gyro_y=rate, error=rate)
def test_the_ankle_pitch_gains_move_from_in_place_to_full_speed_with_the_forward_share(
    share, fast_gyro, fast_tilt, gyro_y, error
):
    gait = attrs.evolve(
        GAIT, gyro_pitch_ankle_forward=fast_gyro, tilt_pitch_ankle_forward=fast_tilt
    )
    in_place = GAIT.gyro_pitch_ankle * gyro_y + GAIT.tilt_pitch_ankle * error
    full = fast_gyro * gyro_y + fast_tilt * error
    got = _ankle_pitch(gait, share, gyro_y, error)
    assert np.isclose(got, in_place + (full - in_place) * share, atol=1e-12)
    # The ends are each one set of gains alone.
    assert np.isclose(_ankle_pitch(gait, 0.0, gyro_y, error), in_place, atol=1e-12)
    assert np.isclose(_ankle_pitch(gait, 1.0, gyro_y, error), full, atol=1e-12)


def _support_sole(gait, forward: float, left: float = 0.0, cycles: int = 150) -> np.ndarray:
    """The support sole's pose after ``cycles`` cycles of walking at (``forward``, ``left``)
    with the torso pitching forwards (gyro and pitch error), every step landed at 0.8 of its
    period."""
    gen = WalkGenerator(gait)
    sense = Sense()
    out = gen.update(DT, sense)
    gen.begin(out.left_sole, out.right_sole)
    gen.set_request(clamp_request(gait, forward, left, 0.0))
    for _ in range(cycles):
        sense.fsr[:] = 0.6
        if gen.phase in (Phase.WALKING, Phase.STOPPING):
            swing = slice(0, 4) if gen.swing_left else slice(4, 8)
            sense.fsr[swing] = 0.9 if gen.stride.t >= 0.8 * gen.stride.period else 0.0
        sense.gyro = np.array([0.0, 0.4, 0.0])
        sense.pitch = 0.2
        out = gen.update(DT, sense)
    assert gen.phase is Phase.WALKING
    return out.right_sole if gen.swing_left else out.left_sole


@given(side=unit, fast_gyro=gain, fast_tilt=st.floats(-1.0, 1.0), gyro_y=rate, error=rate)
def test_walking_sideways_the_pitch_rate_gain_moves_to_full_speed_and_the_tilt_gain_stays(
    side, fast_gyro, fast_tilt, gyro_y, error
):
    gait = attrs.evolve(
        GAIT, gyro_pitch_ankle_forward=fast_gyro, tilt_pitch_ankle_forward=fast_tilt
    )
    gyro = GAIT.gyro_pitch_ankle + (fast_gyro - GAIT.gyro_pitch_ankle) * side
    got = _ankle_pitch(gait, 0.0, gyro_y, error, side_share=side)
    assert np.isclose(got, gyro * gyro_y + GAIT.tilt_pitch_ankle * error, atol=1e-12)
    # Forwards and sideways at once, the larger share schedules the pitch-rate gain.
    both = _ankle_pitch(gait, side / 2.0, gyro_y, 0.0, side_share=side)
    assert np.isclose(both, gyro * gyro_y, atol=1e-12)


def test_the_generator_uses_the_full_speed_gains_only_walking_forwards_or_sideways():
    other = attrs.evolve(GAIT, gyro_pitch_ankle_forward=0.2, tilt_pitch_ankle_forward=-0.3)
    # Backwards the full-speed gains change nothing ...
    assert np.array_equal(_support_sole(GAIT, -0.2), _support_sole(other, -0.2))
    # ... nor does the tilt's walking sideways ...
    tilt_only = attrs.evolve(GAIT, tilt_pitch_ankle_forward=-0.3)
    side = GAIT.max_left
    assert np.array_equal(_support_sole(GAIT, 0.0, side), _support_sole(tilt_only, 0.0, side))
    # ... while at full forward or sideways speed the support ankle follows them.
    fast = GAIT.max_forward
    assert not np.allclose(_support_sole(GAIT, fast), _support_sole(other, fast), atol=1e-4)
    assert not np.allclose(
        _support_sole(GAIT, 0.0, side), _support_sole(other, 0.0, side), atol=1e-4
    )
