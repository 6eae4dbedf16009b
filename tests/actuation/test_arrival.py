"""Sequences with an Arrival: a frame waits for the measured joints before the next starts."""

from __future__ import annotations

import numpy as np
import pytest
from actuation_rig import PERIOD, Rig
from hypothesis import given
from hypothesis import strategies as st

from director import RunState
from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from providers.actuation import Arrival, HeadSequence, JointCommand
from providers.actuation.arrival import ArrivalWait

YAW, PITCH = JOINT_INDEX["HeadYaw"], JOINT_INDEX["HeadPitch"]
#: The first frame's duration ends at this time (emitted in the first cycle, t = 0.012).
FIRST_DONE = 0.132


def _frames() -> tuple[JointCommand, ...]:
    # The second frame is told apart by its stiffness on HeadPitch.
    return (
        JointCommand({"HeadYaw": 0.2}, 1.0, 0.12),
        JointCommand({"HeadPitch": -0.2}, 0.5, 0.12),
    )


def _second_frame_starts(rig: Rig, move=None, limit: float = 2.0) -> float:
    """Step until the second frame is commanded; ``move(rig)`` plays the body each cycle."""
    while rig.now < limit:
        rig.step()
        if rig.stiffness[PITCH] == 0.5:
            return rig.now
        if move is not None:
            move(rig)
    raise AssertionError("the second frame never started")


def test_a_frame_whose_joints_arrived_goes_on_at_its_duration() -> None:
    rig = Rig(follow=True)
    rig.emit(HeadSequence(_frames(), Arrival(("HeadYaw",), tolerance=0.05)))
    assert _second_frame_starts(rig) == pytest.approx(FIRST_DONE)


def test_a_frame_waits_while_its_joint_closes_in() -> None:
    rig = Rig(follow=False)
    rig.emit(HeadSequence(_frames(), Arrival(("HeadYaw",), tolerance=0.05, max_wait=1.0)))

    def creep(rig: Rig) -> None:  # a loaded joint: 0.01 rad a cycle behind its command
        rig.state.position[YAW] = min(0.2, rig.state.position[YAW] + 0.01)

    start = _second_frame_starts(rig, creep)
    # The joint reaches 0.15 (within 0.05 of 0.2) after 15 cycles of creeping.
    assert start > FIRST_DONE
    assert rig.state.position[YAW] >= 0.15 - 1e-9
    assert start == pytest.approx(16 * PERIOD, abs=2 * PERIOD)


def test_a_stuck_joint_is_not_waited_for() -> None:
    rig = Rig(follow=False)  # the head stays at 0: the frame's joint is held
    rig.emit(HeadSequence(_frames(), Arrival(("HeadYaw",), tolerance=0.05, max_wait=1.0)))
    start = _second_frame_starts(rig)
    # It waits one stall window (0.024 s) to see the error not shrink, not the 1 s.
    assert start == pytest.approx(FIRST_DONE + 0.024, abs=PERIOD + 1e-9)


def test_a_frame_waits_at_most_max_wait() -> None:
    rig = Rig(follow=False)
    arrival = Arrival(("HeadYaw",), tolerance=0.05, max_wait=0.3, stall=0.0)

    def creep(rig: Rig) -> None:  # always closing in, never arriving in time
        rig.state.position[YAW] += 1e-4

    rig.emit(HeadSequence(_frames(), arrival))
    start = _second_frame_starts(rig, creep)
    assert start == pytest.approx(FIRST_DONE + 0.3, abs=PERIOD + 1e-9)


def test_only_the_listed_frames_wait_and_the_sequence_ends_done() -> None:
    rig = Rig(follow=False)
    arrival = Arrival(("HeadYaw", "HeadPitch"), tolerance=0.05, stall=0.0, frames=(1,))
    rig.emit(HeadSequence(_frames(), arrival))
    assert _second_frame_starts(rig) == pytest.approx(FIRST_DONE)
    # Frame 1 waits its 0.3 s for HeadPitch (held at 0), then the sequence is Done.
    rig.run_for(0.12 + 0.3 - PERIOD)
    assert rig.director.run_state(rig.emitter(), HeadSequence) is RunState.RUNNING
    rig.run_for(2 * PERIOD)
    assert rig.director.run_state(rig.emitter(), HeadSequence) is RunState.NO_TASK


def test_an_unmeasurable_joint_is_not_waited_for() -> None:
    rig = Rig(follow=False)
    rig.state.position[YAW] = float("nan")
    rig.emit(HeadSequence(_frames(), Arrival(("HeadYaw",), tolerance=0.05, stall=0.0)))
    assert _second_frame_starts(rig) == pytest.approx(FIRST_DONE)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Arrival(()), "at least one joint"),
        (lambda: Arrival(("Elbow",)), "not LoLA joint names"),
        (lambda: Arrival(("HeadYaw",), tolerance=0.0), "tolerance"),
        (lambda: Arrival(("HeadYaw",), max_wait=-1.0), "max_wait"),
        (lambda: Arrival(("HeadYaw",), stall=float("nan")), "stall"),
        (lambda: Arrival(("HeadYaw",), window=0.0), "window"),
        (lambda: Arrival(("HeadYaw",), frames=(-1,)), "frame indices"),
        (lambda: HeadSequence(_frames(), arrival=0.1), "an Arrival or None"),
    ],
)
def test_bad_arrivals_are_refused_where_they_are_made(make, message) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        make()


@given(
    errors=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=80),
    tolerance=st.floats(0.01, 0.5),
    max_wait=st.floats(0.0, 0.5),
    stall=st.floats(0.0, 0.05),
)
def test_a_wait_never_outlasts_max_wait_nor_a_joint_that_arrived(
    errors, tolerance, max_wait, stall
):
    arrival = Arrival(("HeadYaw",), tolerance=tolerance, max_wait=max_wait, stall=stall)
    wait = ArrivalWait(arrival, {"HeadYaw": 0.0}, now=0.0)
    measured = np.zeros(NUM_JOINTS)
    for cycle, error in enumerate(errors):
        now = cycle * PERIOD
        measured[YAW] = error
        waiting = wait.waiting(measured, now)
        if error <= tolerance or now >= max_wait:
            assert not waiting
        if not waiting:
            break  # the sequence goes on: this wait is over
