"""Named gaits, NAOqi's move config mapped onto a gait, and the blend between two gaits."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from walk_helpers import Sense

from skills.walk import GaitError, WalkGenerator, load_gait
from skills.walk.gaits import (
    FOOT_SEPARATION,
    apply_foot_move_config,
    apply_move_config,
    blend,
    move_config,
    shipped_gaits,
)
from skills.walk.params import PARAMETER_RANGES

DEFAULT = load_gait()


def test_the_shipped_gaits_are_named_and_slower_than_the_default():
    gaits = shipped_gaits()
    assert set(gaits) >= {"default", "careful", "precise"}
    assert gaits["default"] == DEFAULT
    for name in ("careful", "precise"):
        assert gaits[name].max_forward < DEFAULT.max_forward
        assert gaits[name].max_turn < DEFAULT.max_turn


def test_the_sprint_gait_changes_only_what_acts_on_forward_walks():
    sprint = shipped_gaits()["sprint"]
    changed = {
        name
        for name in attrs.fields_dict(type(DEFAULT))
        if getattr(sprint, name) != getattr(DEFAULT, name)
    }
    # Terms scheduled by the forward speed, the lift per metre of step (forwards or
    # backwards), and the back-lean slow-down of forward walks: in place, sideways or turning
    # it is the default gait.
    assert changed == {
        "period_forward_increase",
        "lift_forward_gain",
        "com_offset_forward",
        "gyro_pitch_ankle_forward",
        "tilt_pitch_ankle_forward",
        "slow_lean",
    }
    assert sprint.max_forward == DEFAULT.max_forward


def test_each_naoqi_key_maps_onto_its_parameter():
    period = DEFAULT.step_period
    g = apply_move_config(
        DEFAULT,
        {"MaxStepX": 0.04, "MaxStepY": 0.14, "MaxStepTheta": 0.3, "StepHeight": 0.02,
         "TorsoWx": 0.0, "TorsoWy": 0.05},
    )  # fmt: skip
    assert g.max_forward == pytest.approx(0.04 / period)
    assert g.max_left == pytest.approx((0.14 - FOOT_SEPARATION) / (2 * period))
    assert g.max_turn == pytest.approx(0.3 / (2 * period))
    assert (g.foot_lift, g.torso_lean) == (0.02, 0.05)
    slow = apply_move_config(DEFAULT, {"MaxStepFrequency": 0.0, "MaxStepX": 0.04})
    assert slow.step_period == pytest.approx(period * 1.5)  # the slowest: 2/3 of the frequency
    assert slow.max_forward == pytest.approx(0.04 / slow.step_period)  # per the new period


def test_a_gait_seen_through_naoqi_keys_reads_back_the_same():
    careful = shipped_gaits()["careful"]
    back = apply_move_config(DEFAULT, move_config(careful))
    for name in ("max_forward", "max_left", "max_turn", "foot_lift", "torso_lean", "step_period"):
        assert getattr(back, name) == pytest.approx(getattr(careful, name)), name
    # The default gait turns 0.76 rad per step, beyond NAOqi's largest MaxStepTheta (0.524):
    # its NAOqi view says so rather than hiding it.
    assert move_config(DEFAULT)["MaxStepTheta"] > 0.524
    assert move_config(DEFAULT)["MaxStepY"] > 0.16  # and it steps wider than NAOqi's


@pytest.mark.parametrize(
    ("config", "text"),
    [
        ({"MaxStepX": 0.2}, "MaxStepX = 0.2: must be within [0.001, 0.08]"),
        ({"MaxStepY": 0.05}, "MaxStepY = 0.05: must be within [0.101, 0.16]"),
        ({"StepHeight": "high"}, "StepHeight = 'high': must be a number"),
        ({"TorsoWx": 0.05}, "TorsoWx = 0.05: this walk never leans sideways"),
        ({"MaxVelXY": 0.1}, "MaxVelXY = 0.1: not a move-config key"),
        # Inside NAOqi's range, but a gait slower than the walk's range allows: named too.
        ({"MaxStepX": 0.001}, "MaxStepX = 0.001: gives max_forward"),
    ],
)
def test_a_bad_move_config_is_refused_naming_its_key(config, text):
    with pytest.raises(GaitError) as info:
        apply_move_config(DEFAULT, config)
    assert text in str(info.value)


@given(st.floats(0.0, 1.0))
def test_a_blend_lies_between_its_gaits(share):
    other = shipped_gaits()["careful"]
    mixed = blend(DEFAULT, other, share)
    for name in PARAMETER_RANGES:
        a, b, m = getattr(DEFAULT, name), getattr(other, name), getattr(mixed, name)
        assert min(a, b) - 1e-12 <= m <= max(a, b) + 1e-12, name
    assert blend(DEFAULT, other, 0.0) == DEFAULT and blend(DEFAULT, other, 1.0) == other


def _largest_sole_jump(switch) -> float:
    """Walk at 0.2 m/s, switch to a lower, more leaning gait; the largest change of a sole
    target (m) from one cycle to the next around the switch."""
    gen = WalkGenerator(DEFAULT)
    from skills.walk import clamp_request

    gen.set_request(clamp_request(DEFAULT, 0.2, 0.0, 0.0))
    sense, last, jump = Sense(), None, 0.0
    lower = attrs.evolve(DEFAULT, hip_height=DEFAULT.hip_height - 0.02, torso_lean=0.1)
    for cycle in range(200):
        if cycle == 120:
            switch(gen, lower)
        t = gen.update(0.012, sense)
        soles = np.concatenate([t.left_sole[:3, 3], t.right_sole[:3, 3]])
        if last is not None and cycle >= 110:
            jump = max(jump, float(np.max(np.abs(soles - last))))
        last = soles
    return jump


def test_switching_gaits_while_walking_blends_without_a_jump():
    def immediate(gen, gait):
        gen.gait = gait

    walking = _largest_sole_jump(lambda gen, gait: None)  # no switch: the steps themselves
    blended = _largest_sole_jump(lambda gen, gait: gen.set_gait(gait))
    jumped = _largest_sole_jump(immediate)
    assert jumped > walking + 0.01  # switched at once, the soles move 2 cm more in a cycle
    assert blended <= walking + 0.0005  # blended over two steps: no more than walking does


def test_per_foot_keys_make_that_foots_steps_over_the_common_gait():
    feet = apply_foot_move_config(
        DEFAULT, {"TorsoWy": 0.05, "LeftStepHeight": 0.03, "RightMaxStepFrequency": 0.0}
    )
    assert feet.gait.torso_lean == 0.05 and feet.gait.foot_lift == DEFAULT.foot_lift
    assert feet.left.foot_lift == 0.03 and feet.left.torso_lean == 0.05  # over the common
    assert feet.right.step_period == pytest.approx(DEFAULT.step_period * 1.5)
    assert feet.right.foot_lift == DEFAULT.foot_lift
    assert apply_foot_move_config(DEFAULT, {"MaxStepX": 0.04}).left is None


@pytest.mark.parametrize(
    ("config", "text"),
    [
        ({"LeftStepHeight": 0.5}, "LeftStepHeight = 0.5: must be within [0.005, 0.04]"),
        ({"RightTorsoWy": 0.05}, "RightTorsoWy = 0.05: per foot only"),
        ({"LeftMaxStepX": 0.001}, "LeftMaxStepX = 0.001: gives max_forward"),
    ],
)
def test_a_bad_per_foot_key_is_refused_naming_it(config, text):
    with pytest.raises(GaitError) as info:
        apply_foot_move_config(DEFAULT, config)
    assert text in str(info.value)
    # moveTo's single config takes no per-foot key (NAOqi's rule).
    with pytest.raises(GaitError, match="per-foot key"):
        apply_move_config(DEFAULT, {"LeftStepHeight": 0.02})


def _steps(gen: WalkGenerator, cycles: int) -> dict[bool, set[tuple[float, float]]]:
    """(period, lift) of the steps each foot makes (True: left) over ``cycles``."""
    seen: dict[bool, set[tuple[float, float]]] = {True: set(), False: set()}
    sense = Sense()
    for _ in range(cycles):
        gen.update(0.012, sense)
        if gen.step_count > 10:  # at speed (the walk speeds up 0.05 m/s a step)
            seen[gen.swing_left].add((round(gen.stride.period, 4), round(gen.stride.lift, 4)))
    return seen


def test_a_foots_own_gait_times_lifts_and_limits_its_steps_only():
    from skills.walk import clamp_request

    feet = apply_foot_move_config(
        DEFAULT, {"LeftStepHeight": 0.035, "LeftMaxStepFrequency": 0.0, "RightMaxStepX": 0.02}
    )
    plain, own = WalkGenerator(DEFAULT), WalkGenerator(DEFAULT)
    own.foot_gaits = (feet.left, feet.right)
    for gen in (plain, own):
        gen.set_request(clamp_request(DEFAULT, 0.2, 0.0, 0.0))
    before, after = _steps(plain, 1500), _steps(own, 1500)
    ((period, lift),) = before[True]
    assert before[False] == before[True]  # both feet step alike without per-foot keys
    ((left_period, left_lift),) = after[True]
    assert left_period == pytest.approx(period * 1.5, abs=1e-3)
    assert left_lift > lift + 0.01  # 3.5 cm + the forward step's share, against 2.4 + share
    ((right_period, right_lift),) = after[False]
    assert right_period == period
    # The right foot's steps are at most 2 cm: less lift for the shorter step.
    assert right_lift == pytest.approx(
        DEFAULT.foot_lift + DEFAULT.lift_forward_gain * 0.02, abs=1e-4
    )
