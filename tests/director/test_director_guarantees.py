"""Director scenarios for pushes, the "do better than the reference" points, bad input, view."""

import logging
import math

import attrs
import pytest
from director_harness import Harness, assert_log, task

from director import (
    Causing,
    Director,
    DirectorError,
    EmissionError,
    RunState,
    When,
)

Stand = task("Stand", "n")
Walk = task("Walk", "v")
Servo = task("Servo", "p")
Leg = task("Leg", "x")
Parent = task("Parent", "n")
A = task("A", "n")
B = task("B", "n")
Other = task("Other", "n")


def _push_setup(walk_priority: float) -> tuple[Harness, object, object]:
    h = Harness()
    h.provider(Stand, "StandStill")
    h.provider(Stand, "StandUp", causing=Causing("standing", True))
    h.provider(Walk, when=When("standing", "==", True))
    posture, walker = h.d.emitter("posture"), h.d.emitter("walker")
    posture.emit(Stand(), priority=1)
    assert_log(h.update(), [("StandStill", "NEW_TASK", Stand())])
    walker.emit(Walk(1), priority=walk_priority)
    return h, posture, walker


def test_when_unmet_pushes_a_causing_provider_and_releases_it_with_the_pusher():
    h, _, walker = _push_setup(walk_priority=5)
    assert_log(h.update(), [("StandUp", "PUSHED", Stand())])
    assert h.d.run_state(walker, Walk) is RunState.QUEUED
    assert "push: Stand runs StandUp for Walk" in str(h.d.view())
    h.d.set_state("standing", True)
    assert_log(h.update(), [("Walk", "NEW_TASK", Walk(1))])
    walker.emit_none(Walk)
    # The pusher is gone: the group returns to its first provider.
    assert_log(h.update(), [("StandStill", "NEW_TASK", Stand())])
    assert "push:" not in str(h.d.view())


def test_a_weaker_task_cannot_push():
    h, _, walker = _push_setup(walk_priority=0.5)
    assert_log(h.update(), [])
    assert h.d.run_state(walker, Walk) is RunState.QUEUED


def test_a_task_with_no_provider_blocks_nothing():
    """NUbots 1141: a providerless task must not hold up its pack or anyone else."""
    h = Harness()
    h.provider(Parent, body=lambda ctx: (ctx.emit(A(1), priority=9), ctx.emit(B(1))))
    h.provider(B)
    h.d.register(A)
    behaviour = h.d.emitter("b")
    behaviour.emit(Parent(), priority=1)
    assert_log(h.update(), [("Parent", "NEW_TASK", Parent()), ("B", "NEW_TASK", B(1))])
    # A provider appears later: the waiting task runs at the next update.
    h.provider(A)
    assert_log(h.update(), [("A", "NEW_TASK", A(1))])


def test_handlers_emitting_and_removing_are_applied_after_the_step():
    h = Harness()
    side = h.d.emitter("side")
    other = h.d.emitter("other")

    def stop_servo(ctx):
        side.emit(Other(1), priority=1)
        other.emit_none(A)
        h.log.append(("stop-done", len(h.d.view().tasks)))

    def start_servo(ctx):
        side.emit(Other(2), priority=1)

    h.provider(Servo, kind="start", body=start_servo)
    h.provider(Servo)
    h.provider(Servo, kind="stop", body=stop_servo)
    h.provider(Other)
    h.provider(A)
    h.provider(A, kind="stop")
    behaviour = h.d.emitter("b")
    other.emit(A(1), priority=1)
    behaviour.emit(Servo(1), priority=1)
    assert_log(
        h.update(),
        [
            ("A", "NEW_TASK", A(1)),
            ("Servo:start", "STARTED", Servo(1)),
            ("Servo", "NEW_TASK", Servo(1)),
            ("Other", "NEW_TASK", Other(2)),
        ],
    )
    behaviour.emit_none(Servo)
    assert_log(
        h.update(),
        [
            ("Servo:stop", "STOPPED", Servo(1)),
            ("stop-done", 2),  # the handler's own calls have not been applied yet
            ("Other", "NEW_TASK", Other(1)),
            ("A:stop", "STOPPED", A(1)),
        ],
    )


def test_start_and_stop_handlers_cannot_emit_subtasks_nor_call_update():
    h = Harness()
    h.provider(Servo, kind="start", body=lambda ctx: ctx.emit(A(1)))
    h.provider(Servo, body=lambda ctx: h.d.update(99.0))
    h.provider(A)
    h.d.emitter("b").emit(Servo(1), priority=1)
    h.update()
    messages = [e.message for e in h.d.errors]
    assert len(messages) == 2
    assert "start provider cannot emit" in messages[0]
    assert "cannot be called from inside a provider" in messages[1]
    assert h.holder(A) is None


def test_a_failing_provider_is_contained_to_its_subtree(caplog):
    h = Harness()

    def fragile(ctx):
        if ctx.task.n == 2:
            raise RuntimeError("kinematics exploded")
        ctx.emit(A(ctx.task.n))

    h.provider(Parent, "Fragile", body=fragile)
    h.provider(A)
    h.provider(A, kind="stop")
    h.provider(Servo)
    fragile_b, steady = h.d.emitter("fragile"), h.d.emitter("steady")
    fragile_b.emit(Parent(1), priority=1, name="fragile-parent")
    steady.emit(Servo(1), priority=1)
    h.update()
    fragile_b.emit(Parent(2), priority=1, name="fragile-parent")
    steady.emit(Servo(2), priority=1)
    with caplog.at_level(logging.ERROR, logger="director"):
        log = h.update()
    assert_log(
        log,
        [
            ("Fragile", "NEW_TASK", Parent(2)),
            ("A:stop", "STOPPED", A(1)),
            ("Servo", "NEW_TASK", Servo(2)),
        ],
    )
    assert "fragile-parent" in caplog.text and "kinematics exploded" in caplog.text
    (error,) = h.d.errors
    assert error.task_name == "fragile-parent" and error.provider_name == "Fragile"
    assert "kinematics exploded" in str(h.d.view())
    steady.emit(Servo(3), priority=1)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(3))])


def test_fast_path_updates_data_without_changing_the_tree():
    h = Harness()
    h.provider(Walk, body=lambda ctx: ctx.emit(Leg(ctx.now)), needs=Leg, every_cycle=True)
    h.provider(Leg)
    h.d.emitter("b").emit(Walk(1), priority=1)
    h.update()
    revision = h.d.revision
    assert h.d.view_if_changed(revision) is None
    for _ in range(3):
        log = h.update()
        assert [entry[:2] for entry in log] == [("Walk", "OTHER_TRIGGER"), ("Leg", "NEW_TASK")]
        assert log[1][2] == Leg(h.t)
    assert h.d.revision == revision
    assert h.d.view_if_changed(revision) is None


@pytest.mark.parametrize(
    ("task_value", "priority", "message"),
    [
        ((1, 2), 1, "must be an attrs class instance"),
        (attrs.make_class("Unknown", [], frozen=True)(), 1, "is not registered"),
        (Servo(1), math.nan, "must be finite"),
        (Servo(1), math.inf, "must be finite"),
        (Servo(1), True, "must be a number"),
        (Servo(1), "high", "must be a number"),
    ],
)
def test_bad_emissions_are_refused_at_the_call(task_value, priority, message):
    h = Harness()
    h.provider(Servo)
    behaviour = h.d.emitter("b")
    behaviour.emit(Servo(0), priority=1)
    h.update()
    before = (h.d.revision, h.d.view())
    with pytest.raises(EmissionError, match=message):
        behaviour.emit(task_value, priority=priority)
    assert len(h.d.inbox) == 0
    h.update()
    assert (h.d.revision, h.d.view().tasks) == (before[0], before[1].tasks)


def test_bad_subtask_emission_is_contained_and_reported():
    h = Harness()
    h.provider(Parent, body=lambda ctx: ctx.emit(A(1), priority=math.nan))
    h.provider(A)
    h.d.emitter("b").emit(Parent(), priority=1)
    h.update()
    assert h.holder(A) is None
    assert "must be finite" in h.d.errors[0].message


def test_misuse_of_the_api_is_refused():
    d = Director()
    with pytest.raises(DirectorError, match="attrs class"):
        d.register(int)
    with pytest.raises(DirectorError, match="kind"):
        d.provide(Servo, lambda ctx: None, kind="maybe")
    with pytest.raises(DirectorError, match="its own group"):
        d.provide(Servo, lambda ctx: None, needs=Servo)
    with pytest.raises(DirectorError, match="When comparison"):
        When("standing", "~", True)
    d.emitter("b")
    with pytest.raises(DirectorError, match="already exists"):
        d.emitter("b")
    with pytest.raises(EmissionError, match="task_type"):
        d.emitter("c").emit(None)


def test_disabling_a_provider_moves_the_task_to_the_next_one():
    h = Harness()
    first = h.provider(Servo, "First")
    h.provider(Servo, "Second")
    h.d.emitter("b").emit(Servo(1), priority=1)
    assert_log(h.update(), [("First", "NEW_TASK", Servo(1))])
    h.d.set_enabled(first, False)
    assert_log(h.update(), [("Second", "NEW_TASK", Servo(1))])
    h.d.set_enabled(first, True)
    h.d.emitter("c").emit(Servo(2), priority=5)
    assert_log(h.update(), [("First", "NEW_TASK", Servo(2))])


def test_view_shows_the_tree_as_data_and_text():
    h = Harness()
    h.provider(Walk, body=lambda ctx: ctx.emit(Leg(1)), needs=Leg)
    h.provider(Leg)
    walker, kicker = h.d.emitter("walker"), h.d.emitter("kicker")
    walker.emit(Walk(1), priority=1)
    kicker.emit(Leg(2), priority=0.5, optional=True)
    h.update()
    view = h.d.view()
    rows = [(t.depth, t.name, t.state, t.emitter) for t in view.tasks]
    assert rows == [
        (0, "Walk", "running", "walker"),
        (1, "Leg", "running", "walker"),
        (0, "Leg", "queued", "kicker"),
    ]
    text = str(view)
    assert "Walk  p=1  running  from walker  by Walk" in text
    assert "Leg  p=0.5  queued optional  from kicker  waits for" not in text
    assert "Leg  p=0.5  queued optional  from kicker" in text
    walker.emit(Walk(2), priority=1)
    assert "pending: 1 queued call(s)" in str(h.d.view())
