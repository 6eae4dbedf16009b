"""The Kick task and the kick's parameters refuse bad values where they are made."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skills.kick import Kick, KickParameterError, KickParameters, load_kick_parameters
from skills.kick.params import PARAMETER_RANGES


@given(
    st.floats(-10.0, 10.0),
    st.floats(-10.0, 10.0),
    st.floats(-math.pi, math.pi),
    st.floats(0.0, 1.0),
    st.sampled_from(["auto", "left", "right"]),
)
def test_any_sane_request_is_a_kick(x, y, direction, power, foot):
    kick = Kick(x, y, direction, power, foot)
    assert (kick.ball_x, kick.ball_y, kick.direction, kick.power) == (x, y, direction, power)


@pytest.mark.parametrize(
    ("fields", "error", "words"),
    [
        ({"ball_x": math.nan}, ValueError, "ball_x must be finite"),
        ({"ball_y": math.inf}, ValueError, "ball_y must be finite"),
        ({"ball_x": 11.0}, ValueError, "within ±10 m"),
        ({"ball_x": True}, TypeError, "ball_x must be a number"),
        ({"ball_y": "0.1"}, TypeError, "ball_y must be a number"),
        ({"direction": 4.0}, ValueError, "direction must be within"),
        ({"power": 1.5}, ValueError, "power must be within [0, 1]"),
        ({"power": -0.1}, ValueError, "power must be within [0, 1]"),
        ({"power": math.nan}, ValueError, "power must be within [0, 1]"),
        ({"foot": "both"}, ValueError, "foot must be one of auto, left, right"),
    ],
)
def test_bad_requests_are_refused_by_name(fields, error, words):
    values = {"ball_x": 0.19, "ball_y": -0.05, **fields}
    with pytest.raises(error, match=words.replace("[", r"\[").replace("]", r"\]")):
        Kick(**values)


def test_shipped_parameters_load_and_sit_inside_their_ranges():
    params = load_kick_parameters()
    for name, (low, high, _, _) in PARAMETER_RANGES.items():
        assert low <= getattr(params, name) <= high, name


def test_an_out_of_range_parameter_names_key_value_and_range():
    with pytest.raises(KickParameterError, match=r"swing_speed = 40.*within \[1, 10\] rad/s"):
        load_kick_parameters(swing_speed=40)


def test_unknown_keys_and_user_files(tmp_path):
    with pytest.raises(KickParameterError, match=r"kick_harder.*unknown parameter"):
        load_kick_parameters(kick_harder=1.0)
    user = tmp_path / "kick.yaml"
    user.write_text("penetration: 0.03\n")
    assert load_kick_parameters(user).penetration == 0.03
    user.write_text("penetration: [1]\n")
    with pytest.raises(KickParameterError, match=f"{user}: penetration"):
        load_kick_parameters(user)
    user.write_text("penetration: 0.03: 1\n")
    with pytest.raises(KickParameterError, match="not valid YAML"):
        load_kick_parameters(user)


def test_parameters_that_contradict_each_other_are_refused():
    values = load_kick_parameters()
    with pytest.raises(KickParameterError, match=r"min_contact_x.*below max_contact_x"):
        load_kick_parameters(min_contact_x=0.1, max_contact_x=0.05)
    with pytest.raises(KickParameterError, match=r"swing_speed_min.*must not exceed"):
        load_kick_parameters(swing_speed_min=8.0, swing_speed=7.0)
    with pytest.raises(KickParameterError, match=r"servo_delay.*whole number"):
        load_kick_parameters(servo_delay=2.5)
    assert isinstance(values, KickParameters)


@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_more_power_never_swings_slower(a, b):
    params = load_kick_parameters()
    low, high = sorted((a, b))
    assert params.swing_speed_at(low) <= params.swing_speed_at(high)
    assert params.swing_speed_at(0.0) == params.swing_speed_min
    assert params.swing_speed_at(1.0) == params.swing_speed


@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_more_power_never_whips_less(a, b):
    params = load_kick_parameters()
    low, high = sorted((a, b))
    assert all(x <= y for x, y in zip(params.whip_at(low), params.whip_at(high), strict=True))
    assert params.whip_at(0.0) == (0.0, 0.0)
    assert params.whip_at(1.0) == (params.whip, params.whip_follow)
    assert params.snap_at(low)[0] <= params.snap_at(high)[0]
    below = params.whip_min_power * 0.99
    assert params.whip_at(below) == params.snap_at(below) == (0.0, 0.0)
    assert params.whip_at(params.whip_min_power)[0] > 0.0
