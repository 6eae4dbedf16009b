"""The generator's footstep list: queued, being made, made."""

from hypothesis import given
from hypothesis import strategies as st

from skills.walk.footstep_queue import DONE_KEPT, FootstepQueue
from skills.walk.footsteps import PlannedStep
from skills.walk.odometry import Pose2D


def _step(left: bool, x: float = 0.05) -> PlannedStep:
    return PlannedStep(left, Pose2D(x, 0.1 if left else -0.1, 0.0), 0.25)


def test_a_step_is_taken_only_by_its_own_foot():
    queue = FootstepQueue()
    queue.add([_step(True), _step(False)], clear=True)
    assert queue.take(False) is None and queue.current is None
    first = queue.take(True)
    assert first is queue.current and first.left
    assert queue.pending and len(queue.queued) == 1


def test_clear_replaces_the_queued_steps_but_not_the_one_being_made():
    queue = FootstepQueue()
    queue.add([_step(True), _step(False, 0.02)], clear=True)
    made = queue.take(True)
    queue.add([_step(False, 0.07)], clear=True)
    assert queue.current is made
    assert [s.move.x for s in queue.queued] == [0.07]
    queue.add([_step(True, 0.03)], clear=False)
    assert [s.move.x for s in queue.queued] == [0.07, 0.03]


def test_cancel_forgets_the_queued_steps_and_the_one_being_made_goes_on():
    queue = FootstepQueue()
    queue.add([_step(True), _step(False), _step(True)], clear=True)
    making = queue.take(True)
    queue.cancel()
    assert not queue.queued and queue.current is making and queue.pending
    assert not queue.done


def test_drop_counts_the_step_being_made_as_made():
    queue = FootstepQueue()
    queue.add([_step(True), _step(False)], clear=True)
    made = queue.take(True)
    queue.drop()
    assert not queue.pending and list(queue.done) == [made]
    assert not queue.finish()  # nothing is being made now


@given(st.lists(st.booleans(), max_size=3 * DONE_KEPT))
def test_every_step_taken_and_finished_is_remembered_in_order(feet):
    queue = FootstepQueue()
    steps = [_step(left, 0.001 * i) for i, left in enumerate(feet)]
    queue.add(steps, clear=True)
    made = []
    for step in steps:
        assert queue.take(step.left) is step
        assert queue.finish()
        made.append(step)
    assert not queue.pending
    assert list(queue.done) == made[-DONE_KEPT:]
