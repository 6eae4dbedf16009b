"""Groups changing hands; first of all soft transitions (NUbots): the subtasks go along.

The new task's first pack replaces what it inherited: re-emitted types run again with
NEW_TASK (no stop, no start), types it does not emit stop. Without a handover (another provider
takes the group) the old subtree stops before the winner runs. Also: groups taken from dying
holders and reservations taking their group back, both found by longer hypothesis runs.
"""

from director_harness import Harness, assert_log, task

from director import RunState, When

Servo = task("Servo", "p")
Parent = task("Parent", "n")
A = task("A", "n")
B = task("B", "n")


def test_a_takeover_hands_the_subtree_over_and_the_winners_pack_replaces_it():
    h = Harness()
    h.provider(Parent, body=lambda ctx: ctx.emit(A(1)) if ctx.task.n == 1 else ctx.emit(B(2)))
    h.provider(A)
    h.provider(B)
    h.provider(A, kind="stop")
    low, high = h.d.emitter("low"), h.d.emitter("high")
    low.emit(Parent(1), priority=1)
    h.update()
    high.emit(Parent(2), priority=2)
    # The loser waits; the winner inherits A, and its pack (B only) stops it.
    assert_log(
        h.update(),
        [("Parent", "NEW_TASK", Parent(2)), ("A:stop", "STOPPED", A(1)), ("B", "NEW_TASK", B(2))],
    )
    assert [(t.name, t.state) for t in h.d.view().tasks] == [
        ("Parent", "queued"),
        ("Parent", "running"),
        ("B", "running"),
    ]


def _servo_tree() -> tuple[Harness, object, object]:
    h = Harness()
    h.provider(Parent, body=lambda ctx: ctx.emit(Servo(ctx.task.n)))
    h.provider(Servo)
    h.provider(Servo, kind="start")
    h.provider(Servo, kind="stop")
    return h, h.d.emitter("low"), h.d.emitter("high")


def test_a_handover_keeps_the_servos_running_without_a_stop_or_a_start():
    h, low, high = _servo_tree()
    low.emit(Parent(1), priority=1)
    assert_log(
        h.update(),
        [
            ("Parent", "NEW_TASK", Parent(1)),
            ("Servo:start", "STARTED", Servo(1)),
            ("Servo", "NEW_TASK", Servo(1)),
        ],
    )
    high.emit(Parent(2), priority=2)
    assert_log(h.update(), [("Parent", "NEW_TASK", Parent(2)), ("Servo", "NEW_TASK", Servo(2))])
    # Removal: the waiting task takes the group back, servos included, still without a gap.
    high.emit_none(Parent)
    assert_log(h.update(), [("Parent", "NEW_TASK", Parent(1)), ("Servo", "NEW_TASK", Servo(1))])
    assert h.holder(Servo) == Servo(1)
    low.emit_none(Parent)
    assert_log(h.update(), [("Servo:stop", "STOPPED", Servo(1))])
    assert h.d.view().tasks == ()


def test_an_inherited_subtree_competes_at_its_new_priority():
    h, old, new = _servo_tree()
    direct = h.d.emitter("direct")
    old.emit(Parent(1), priority=5)
    direct.emit(Servo(9), priority=3)
    new.emit(Parent(2), priority=2)
    h.update()
    assert h.holder(Servo) == Servo(1)
    # Parent(2) inherits Servo, but now at priority 2, which the waiting Servo(9) outranks.
    old.emit_none(Parent)
    assert_log(h.update(), [("Parent", "NEW_TASK", Parent(2)), ("Servo", "NEW_TASK", Servo(9))])
    assert h.holder(Servo) == Servo(9)
    assert [(t.name, t.state) for t in h.d.view().tasks] == [
        ("Parent", "running"),
        ("Servo", "queued"),
        ("Servo", "running"),
    ]


def test_another_provider_taking_the_group_stops_the_old_subtree_first():
    h = Harness()
    h.provider(Parent, "Balanced", body=lambda ctx: ctx.emit(B(2)), when=When("ok", "==", True))
    h.provider(Parent, "Fallback", body=lambda ctx: ctx.emit(A(1)))
    h.provider(A)
    h.provider(B)
    h.provider(A, kind="stop")
    low, high = h.d.emitter("low"), h.d.emitter("high")
    low.emit(Parent(1), priority=1)
    assert_log(h.update(), [("Fallback", "NEW_TASK", Parent(1)), ("A", "NEW_TASK", A(1))])
    h.d.set_state("ok", True)
    h.update()
    high.emit(Parent(2), priority=2)
    assert_log(
        h.update(),
        [("A:stop", "STOPPED", A(1)), ("Balanced", "NEW_TASK", Parent(2)), ("B", "NEW_TASK", B(2))],
    )


def test_a_group_taken_from_a_dying_holder_is_offered_to_stronger_watchers():
    Walk = task("Walk", "v")
    IK = task("IK", "x")
    h = Harness()
    h.provider(Walk, "Balanced", needs=(IK,), when=When("ok", "==", True))
    h.provider(Walk, "Fallback", needs=(IK,))
    h.provider(IK, needs=(Servo,))
    h.provider(Servo)
    first, second = h.d.emitter("first"), h.d.emitter("second")
    first.emit(Walk(1), priority=1)
    first.emit(Servo(9), priority=1)  # ties with Walk(1)'s reserved Servo: waits
    second.emit(Walk(2), priority=0)
    assert_log(h.update(), [("Fallback", "NEW_TASK", Walk(1))])
    h.d.set_state("ok", True)
    h.update()
    # Walk(2) takes every group of the dying Walk(1) (another provider: no handover), but the
    # Servo it reserves is then offered to Servo(9), which outranks it. Walk(2) has lost a
    # Need (its IK's Servo) before it ran: it waits (NUbots), it does not run without it.
    first.emit_none(Walk)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(9))])
    assert h.holder(Servo) == Servo(9)
    assert h.d.run_state(second, Walk) is RunState.QUEUED
    first.emit_none(Servo)
    assert_log(h.update(), [("Balanced", "NEW_TASK", Walk(2))])
    assert h.d.run_state(second, Walk) is RunState.RUNNING


def test_a_sibling_cannot_split_an_inherited_subtree():
    Body = task("Body", "n")
    Walk = task("Walk", "v")
    Leg = task("Leg", "x")
    h = Harness()
    h.provider(Body, body=lambda ctx: (ctx.emit(Leg(1)), ctx.emit(Walk(1))))
    h.provider(Walk, needs=(Leg,))
    h.provider(Leg)
    tree, walker = h.d.emitter("tree"), h.d.emitter("walker")
    tree.emit(Body(1), priority=1)
    walker.emit(Walk(2), priority=0)
    h.update()
    # Body's pack wants Leg twice (its Walk Needs it, and it emits one): it can never run.
    # Re-evaluating it must not let its Walk inherit walker's Leg while its Leg takes that Leg.
    h.d.set_state("anything", 1)
    assert_log(h.update(), [])
    assert h.holder(Walk) == Walk(2)
    assert [(t.name, t.state) for t in h.d.view().tasks] == [
        ("Body", "running"),
        ("Leg", "queued"),
        ("Walk", "queued"),
        ("Walk", "running"),
        ("Leg*", "reserved"),
    ]


def test_a_needed_subtask_is_required_even_when_emitted_optional():
    Walk = task("Walk", "v")
    IK = task("IK", "x")
    h = Harness()
    h.provider(
        Walk,
        body=lambda ctx: ctx.emit(IK(0), optional=True) if ctx.task.v == 0 else None,
        needs=(IK,),
    )
    h.provider(Walk, kind="stop")
    h.provider(IK)
    h.provider(IK, kind="stop")
    walker, other = h.d.emitter("walker"), h.d.emitter("other")
    walker.emit(Walk(0), priority=0)
    assert_log(h.update(), [("Walk", "NEW_TASK", Walk(0)), ("IK", "NEW_TASK", IK(0))])
    other.emit(IK(9), priority=1, optional=True)
    # Walk Needs IK, so its IK is required although emitted optional: the optional IK(9)
    # waits whatever the priorities (were Walk's IK optional, IK(9) would take it, Walk would
    # lose a Need and take it back as a reservation: every cycle).
    assert_log(h.update(), [])
    # Walk stops emitting IK: its Need reverts to a reservation, still required.
    walker.emit(Walk(1), priority=0)
    assert_log(h.update(), [("Walk", "NEW_TASK", Walk(1)), ("IK:stop", "STOPPED", IK(0))])
    assert h.holder(IK) is None
    assert [(t.name, t.state) for t in h.d.view().tasks] == [
        ("Walk", "running"),
        ("IK*", "reserved"),
        ("IK", "queued"),
    ]
