"""Issue 16: NUbots' Director semantics the engine keeps (reference/director.md).

Each scenario is an event log, as in test_director_scenarios.py.
"""

from director_harness import Harness, assert_log, task

from director import Causing, RunState, When

Parent = task("Parent", "n")
A = task("A", "n")
B = task("B", "n")


def _parent_that_waits_then_continues(h: Harness) -> None:
    """Parent emits A and waits 0.1 s; on A's Done it answers Continue (keeps A and the Wait)."""

    def parent(ctx):
        if ctx.reason.name == "NEW_TASK":
            ctx.emit(A(1))
            ctx.wait(ctx.now + 0.1)
        else:
            ctx.continue_()

    h.provider(Parent, body=parent)


def test_a_wait_survives_a_continue_and_fires_once():
    h = Harness()
    _parent_that_waits_then_continues(h)
    h.provider(A, body=lambda ctx: ctx.done())
    h.d.emitter("b").emit(Parent(), priority=1)
    assert_log(
        h.update(0.0),
        [
            ("Parent", "NEW_TASK", Parent()),
            ("A", "NEW_TASK", A(1)),
            ("Parent", "SUBTASK_DONE", Parent()),  # A's Done: Continue keeps the Wait
        ],
    )
    assert "Wait until t=0.100" in str(h.d.view())
    assert_log(h.update(0.05), [])
    assert_log(h.update(0.06), [("Parent", "SUBTASK_DONE", Parent())])  # the Wait, at 0.1
    assert "Wait until" not in str(h.d.view())
    assert_log(h.update(0.2), [])  # exactly once


def test_a_wait_and_a_sibling_each_give_their_own_subtask_done():
    h = Harness()
    _parent_that_waits_then_continues(h)
    # A runs every cycle and finishes at 0.05 s, before the Wait's deadline (0.1 s).
    h.provider(A, body=lambda ctx: ctx.done() if ctx.now >= 0.05 else None, every_cycle=True)
    h.d.emitter("b").emit(Parent(), priority=1)
    assert_log(h.update(0.0), [("Parent", "NEW_TASK", Parent()), ("A", "NEW_TASK", A(1))])
    assert_log(h.update(0.03), [("A", "OTHER_TRIGGER", A(1))])
    assert_log(
        h.update(0.03),
        [("A", "OTHER_TRIGGER", A(1)), ("Parent", "SUBTASK_DONE", Parent())],  # 0.06: A's Done
    )
    assert_log(h.update(0.03), [("A", "OTHER_TRIGGER", A(1))])
    assert_log(
        h.update(0.03),
        [("Parent", "SUBTASK_DONE", Parent()), ("A", "OTHER_TRIGGER", A(1))],  # 0.12: the Wait's
    )


def test_a_re_emission_cancels_the_wait():
    h = Harness()
    _parent_that_waits_then_continues(h)
    h.provider(A)
    behaviour = h.d.emitter("b")
    behaviour.emit(Parent(1), priority=1)
    assert_log(h.update(0.0), [("Parent", "NEW_TASK", Parent(1)), ("A", "NEW_TASK", A(1))])
    behaviour.emit(Parent(2), priority=1)
    assert_log(h.update(0.05), [("Parent", "NEW_TASK", Parent(2)), ("A", "NEW_TASK", A(1))])
    assert_log(h.update(0.06), [])  # 0.11: the first Wait (0.1) was cancelled
    assert_log(h.update(0.05), [("Parent", "SUBTASK_DONE", Parent(2))])  # 0.16: the second


def test_a_fresh_pack_cancels_the_wait():
    h = Harness()

    def parent(ctx):
        if ctx.reason.name == "NEW_TASK":
            ctx.emit(A(1))
            ctx.wait(ctx.now + 0.1)
        else:
            ctx.emit(B(2))  # a fresh pack replaces A and the Wait

    h.provider(Parent, body=parent)
    h.provider(A, body=lambda ctx: ctx.done())
    h.provider(B)
    h.d.emitter("b").emit(Parent(), priority=1)
    assert_log(
        h.update(0.0),
        [
            ("Parent", "NEW_TASK", Parent()),
            ("A", "NEW_TASK", A(1)),
            ("Parent", "SUBTASK_DONE", Parent()),
            ("B", "NEW_TASK", B(2)),
        ],
    )
    assert_log(h.update(0.2), [])


Stand = task("Stand", "n")
Walk = task("Walk", "v")
Kick = task("Kick", "v")


def _two_pushers() -> tuple[Harness, object, object, object]:
    h = Harness()
    h.provider(Stand, "StandStill")
    h.provider(Stand, "StandUp", causing=Causing("standing", True))
    h.provider(Walk, when=When("standing", "==", True))
    h.provider(Kick, when=When("standing", "==", True))
    posture, walker, kicker = (h.d.emitter(n) for n in ("posture", "walker", "kicker"))
    posture.emit(Stand(), priority=10)
    assert_log(h.update(), [("StandStill", "NEW_TASK", Stand())])
    return h, posture, walker, kicker


def test_a_push_passes_to_the_strongest_remaining_pusher():
    h, _, walker, kicker = _two_pushers()
    walker.emit(Walk(1), priority=50)
    kicker.emit(Kick(1), priority=100)
    assert_log(h.update(), [("StandUp", "PUSHED", Stand())])
    assert "push: Stand runs StandUp for Kick" in str(h.d.view())
    kicker.emit_none(Kick)
    # The walk (50) still wants the stand-up and outranks the posture (10): StandUp goes on.
    assert_log(h.update(), [])
    assert "push: Stand runs StandUp for Walk" in str(h.d.view())
    h.d.set_state("standing", True)
    assert_log(h.update(), [("Walk", "NEW_TASK", Walk(1))])
    walker.emit_none(Walk)
    assert_log(h.update(), [("StandStill", "NEW_TASK", Stand())])
    assert "push:" not in str(h.d.view())


def test_a_push_is_not_passed_to_a_task_weaker_than_the_holder():
    h, _, walker, kicker = _two_pushers()
    walker.emit(Walk(1), priority=5)  # weaker than the posture (10): it may not push
    kicker.emit(Kick(1), priority=100)
    assert_log(h.update(), [("StandUp", "PUSHED", Stand())])
    kicker.emit_none(Kick)
    assert_log(h.update(), [("StandStill", "NEW_TASK", Stand())])
    assert "push:" not in str(h.d.view())


Leg = task("Leg", "x")
IK = task("IK", "x")
Walk2 = task("Walk2", "v")


def test_a_lost_need_stops_the_whole_chain_and_it_starts_afresh():
    """Walk Needs IK, IK Needs Leg: a kick taking Leg stops IK and Walk (their stops run);
    Walk waits and starts afresh (STARTED) once Leg is free."""
    h = Harness()
    h.provider(Walk2, "Walk", body=lambda ctx: ctx.emit(IK(ctx.task.v)), needs=IK)
    h.provider(Walk2, "Walk", kind="stop")
    h.provider(Walk2, "Walk", kind="start")
    h.provider(IK, body=lambda ctx: ctx.emit(Leg(ctx.task.x)), needs=Leg)
    h.provider(IK, kind="stop")
    h.provider(Leg)
    h.provider(Leg, kind="stop")
    walker, kicker = h.d.emitter("walker"), h.d.emitter("kicker")
    walker.emit(Walk2(1), priority=1)
    assert_log(
        h.update(),
        [
            ("Walk:start", "STARTED", Walk2(1)),
            ("Walk", "NEW_TASK", Walk2(1)),
            ("IK", "NEW_TASK", IK(1)),
            ("Leg", "NEW_TASK", Leg(1)),
        ],
    )
    kicker.emit(Leg(9), priority=5)
    log = h.update()
    assert ("Leg", "NEW_TASK", Leg(9)) in log
    assert ("IK:stop", "STOPPED", IK(1)) in log
    assert ("Walk:stop", "STOPPED", Walk2(1)) in log
    assert not [entry for entry in log if entry[0] in ("Walk", "IK") and entry[1] != "STOPPED"]
    assert h.d.run_state(walker, Walk2) is RunState.QUEUED
    assert "(lost Leg, which it Needs)" in str(h.d.view())
    kicker.emit_none(Leg)
    assert_log(
        h.update(),
        [
            ("Leg:stop", "STOPPED", Leg(9)),
            ("Walk:start", "STARTED", Walk2(1)),
            ("Walk", "NEW_TASK", Walk2(1)),
            ("IK", "NEW_TASK", IK(1)),
            ("Leg", "NEW_TASK", Leg(1)),
        ],
    )
    assert "lost" not in str(h.d.view())


def test_another_provider_without_the_lost_need_takes_over_at_once():
    h = Harness()
    h.provider(Walk2, "Walk", body=lambda ctx: ctx.emit(Leg(ctx.task.v)), needs=Leg)
    h.provider(Walk2, "Shuffle")  # needs nothing
    h.provider(Leg)
    walker, kicker = h.d.emitter("walker"), h.d.emitter("kicker")
    walker.emit(Walk2(1), priority=1)
    assert_log(h.update(), [("Walk", "NEW_TASK", Walk2(1)), ("Leg", "NEW_TASK", Leg(1))])
    kicker.emit(Leg(9), priority=5)
    assert_log(h.update(), [("Leg", "NEW_TASK", Leg(9)), ("Shuffle", "NEW_TASK", Walk2(1))])
