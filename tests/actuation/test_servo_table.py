"""The ServoTable: moves from the current command, vectorised targets, limp joints follow."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lola_io.joints import NUM_JOINTS
from providers.actuation import ServoTable
from providers.interpolation import minimum_jerk


def test_targets_start_limp_at_the_initial_position() -> None:
    initial = np.arange(NUM_JOINTS) * 0.01
    position, stiffness = ServoTable(initial).targets(5.0)
    np.testing.assert_array_equal(position, initial)
    np.testing.assert_array_equal(stiffness, 0.0)


def test_a_move_follows_the_interpolation_and_ends_exactly_on_target() -> None:
    table = ServoTable(np.zeros(NUM_JOINTS))
    table.command(3, 0.8, 0.6, now=1.0, duration=0.5)
    table.command(4, -0.4, 1.0, now=1.0, duration=0.5, interpolation="linear")
    position, stiffness = table.targets(1.2)
    assert position[3] == pytest.approx(minimum_jerk(0.0, 0.8, 1.0, 0.5, 1.2))
    assert position[4] == pytest.approx(-0.4 * 0.2 / 0.5)
    assert stiffness[3] == 0.6 and stiffness[4] == 1.0
    position, _ = table.targets(1.5)
    assert position[3] == 0.8 and position[4] == -0.4


def test_a_new_command_starts_from_where_the_old_move_is_now() -> None:
    table = ServoTable(np.zeros(NUM_JOINTS))
    table.command(0, 1.0, 1.0, now=0.0, duration=1.0, interpolation="linear")
    table.command(0, 0.0, 1.0, now=0.5, duration=1.0, interpolation="linear")
    assert table.targets(0.5)[0][0] == pytest.approx(0.5)
    assert table.targets(1.0)[0][0] == pytest.approx(0.25)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((25, 0.0, 1.0, 0.0, 0.0), "joint index"),
        ((0, math.nan, 1.0, 0.0, 0.0), "position of joint 0 must be finite"),
        ((0, 0.0, 1.5, 0.0, 0.0), "stiffness of joint 0 must be in"),
        ((0, 0.0, 1.0, 0.0, -1.0), "duration of joint 0"),
    ],
)
def test_bad_commands_raise_and_change_nothing(args, message) -> None:
    table = ServoTable(np.zeros(NUM_JOINTS))
    with pytest.raises((IndexError, ValueError), match=message):
        table.command(*args)
    with pytest.raises(ValueError, match="interpolation"):
        table.command(0, 0.1, 1.0, 0.0, 0.0, interpolation="cubic")
    position, stiffness = table.targets(1.0)
    assert not position.any() and not stiffness.any()


def test_only_limp_joints_follow_the_measured_angles() -> None:
    table = ServoTable(np.zeros(NUM_JOINTS))
    table.command(1, 0.3, 1.0, now=0.0, duration=0.0)
    measured = np.full(NUM_JOINTS, 0.2)
    measured[5] = math.nan
    table.hold_measured(measured)
    position, _ = table.targets(0.1)
    assert position[1] == 0.3  # stiff: keeps its target
    assert position[0] == 0.2  # limp: rests where it is
    assert position[5] == 0.0  # a broken measurement is ignored
    mask = np.zeros(NUM_JOINTS, dtype=bool)
    mask[2] = True
    table.hold_measured(np.full(NUM_JOINTS, -0.1), mask)
    position, _ = table.targets(0.2)
    assert position[2] == -0.1 and position[0] == 0.2


def test_the_table_rejects_a_bad_initial_position() -> None:
    with pytest.raises(ValueError, match="25 angles"):
        ServoTable(np.zeros(3))
    with pytest.raises(ValueError, match="finite"):
        ServoTable(np.full(NUM_JOINTS, math.inf))


moves = st.lists(
    st.tuples(
        st.integers(0, NUM_JOINTS - 1),
        st.floats(-2.0, 2.0),
        st.floats(0.0, 1.0),
        st.floats(0.0, 1.0),
        st.sampled_from(["linear", "minimum_jerk"]),
        st.integers(0, 20),
    ),
    max_size=30,
)


@given(moves)
def test_the_vectorised_targets_match_one_joint_at_a_time(script) -> None:
    # Every cycle: a few commands, then targets(now) and positions_at(now) must equal
    # current(i, now) for each joint, and a joint whose move has ended must sit exactly on its
    # target. positions_at leaves what targets() returned alone.
    table = ServoTable(np.zeros(NUM_JOINTS))
    now = 0.0
    for index, position, stiffness, duration, kind, wait in script:
        table.command(index, position, stiffness, now, duration, kind)
        now += wait * 0.012
        targets, _ = table.targets(now)
        expected = [table.current(i, now) for i in range(NUM_JOINTS)]
        np.testing.assert_allclose(targets, expected, rtol=0, atol=1e-12)
        sent = targets.copy()
        np.testing.assert_allclose(table.positions_at(now), expected, rtol=0, atol=1e-12)
        table.positions_at(now + 0.5)
        np.testing.assert_array_equal(targets, sent)
    end = now + 1.0
    targets, _ = table.targets(end)
    np.testing.assert_array_equal(targets, [table.target(i) for i in range(NUM_JOINTS)])


@given(moves)
def test_the_target_array_is_each_joints_target_read_only_and_live(script) -> None:
    table = ServoTable(np.zeros(NUM_JOINTS))
    view = table.target_array()
    now = 0.0
    for index, position, stiffness, duration, kind, wait in script:
        table.command(index, position, stiffness, now, duration, kind)
        now += wait * 0.012
        np.testing.assert_array_equal(view, [table.target(i) for i in range(NUM_JOINTS)])
    assert not view.flags.writeable
