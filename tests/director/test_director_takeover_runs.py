"""A takeover runs the provider once: a queued root re-emitted at a priority that takes its
group must not also get the re-emission's own run in the same update (a stateful provider,
such as the walk, would advance two steps in one cycle)."""

import pytest
from director_harness import Harness, assert_log, task

Servo = task("Servo", "p")
Walk = task("Walk", "v")


@pytest.mark.parametrize("every_cycle", [False, True])
@pytest.mark.parametrize("new_data", [False, True])
def test_a_queued_root_raised_above_the_holder_runs_once(every_cycle, new_data):
    h = Harness()
    h.provider(Servo, every_cycle=every_cycle)
    holder, waiter = h.d.emitter("holder"), h.d.emitter("waiter")
    holder.emit(Servo(1), priority=2)
    h.update()
    waiter.emit(Servo(2), priority=1)
    h.update()
    data = Servo(3) if new_data else Servo(2)
    waiter.emit(data, priority=3)
    assert_log(h.update(), [("Servo", "NEW_TASK", data)])
    # And it keeps running normally afterwards: once per update when re-emitted.
    waiter.emit(data, priority=3)
    assert_log(h.update(), [("Servo", "NEW_TASK", data)])


def test_a_queued_provider_with_needs_raised_above_the_holder_runs_once():
    h = Harness()
    h.provider(Servo)
    h.provider(Walk, body=lambda ctx: ctx.emit(Servo(ctx.task.v)), needs=Servo, every_cycle=True)
    holder, waiter = h.d.emitter("holder"), h.d.emitter("waiter")
    holder.emit(Walk(1), priority=2)
    h.update()
    waiter.emit(Walk(2), priority=1)
    h.update()
    waiter.emit(Walk(3), priority=3)
    assert_log(h.update(), [("Walk", "NEW_TASK", Walk(3)), ("Servo", "NEW_TASK", Servo(3))])


def test_a_running_root_re_emitted_at_a_new_priority_still_runs_with_its_new_data():
    h = Harness()
    h.provider(Servo)
    only = h.d.emitter("only")
    only.emit(Servo(1), priority=1)
    h.update()
    only.emit(Servo(2), priority=5)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(2))])
