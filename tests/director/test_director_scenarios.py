"""Director scenarios, one per test: providers log their runs, the log is compared."""

from director_harness import Harness, assert_log, task

from director import RunState

Servo = task("Servo", "p")
Leg = task("Leg", "x")
IK = task("IK", "x")
Walk = task("Walk", "v")
Parent = task("Parent", "n")
A = task("A", "n")
B = task("B", "n")
Mid = task("Mid", "n")
Leaf = task("Leaf", "n")


def test_higher_priority_steals_and_ties_go_to_the_incumbent():
    h = Harness()
    h.provider(Servo)
    low, same, high = h.d.emitter("low"), h.d.emitter("same"), h.d.emitter("high")
    low.emit(Servo(1), priority=1)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(1))])
    same.emit(Servo(2), priority=1)
    assert_log(h.update(), [])
    high.emit(Servo(3), priority=2)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(3))])
    assert h.d.run_state(low, Servo) is RunState.QUEUED
    assert h.d.run_state(same, Servo) is RunState.QUEUED
    h.d.remove_emitter(high)
    # Both waiters have priority 1: the earliest emitted goes first.
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(1))])


def test_watchers_take_over_in_priority_order_then_earliest_first():
    h = Harness()
    h.provider(Servo)
    top, w1, w2, w3 = (h.d.emitter(n) for n in ("top", "w1", "w2", "w3"))
    top.emit(Servo(0), priority=10)
    w1.emit(Servo(1), priority=1)
    w2.emit(Servo(2), priority=3)
    w3.emit(Servo(3), priority=3)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(0))])
    top.emit_none(Servo)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(2))])
    w2.emit_none(Servo)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(3))])
    w3.emit_none(Servo)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(1))])


def test_pack_is_all_or_nothing():
    h = Harness()
    h.provider(Parent, body=lambda ctx: (ctx.emit(A(1)), ctx.emit(B(1))))
    h.provider(A)
    h.provider(B)
    blocker, parent = h.d.emitter("blocker"), h.d.emitter("parent")
    blocker.emit(B(9), priority=5)
    assert_log(h.update(), [("B", "NEW_TASK", B(9))])
    parent.emit(Parent(), priority=1)
    # B is held by a stronger root, so A must not run either.
    assert_log(h.update(), [("Parent", "NEW_TASK", Parent())])
    assert h.holder(A) is None
    blocker.emit_none(B)
    assert_log(h.update(), [("A", "NEW_TASK", A(1)), ("B", "NEW_TASK", B(1))])


def test_optional_loses_to_required_whatever_the_priority():
    h = Harness()
    h.provider(Servo)
    arm_swing, script = h.d.emitter("arm_swing"), h.d.emitter("script")
    arm_swing.emit(Servo(1), priority=100, optional=True)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(1))])
    script.emit(Servo(2), priority=1)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(2))])
    script.emit_none(Servo)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(1))])


def test_optional_subtasks_are_granted_one_by_one():
    h = Harness()
    h.provider(Parent, body=lambda ctx: (ctx.emit(A(1)), ctx.emit(B(1), optional=True)))
    h.provider(A)
    h.provider(B)
    h.d.emitter("blocker").emit(B(9), priority=5)
    h.d.emitter("parent").emit(Parent(), priority=1)
    log = h.update()
    # The required A runs although the optional B is blocked.
    assert_log(
        log, [("B", "NEW_TASK", B(9)), ("Parent", "NEW_TASK", Parent()), ("A", "NEW_TASK", A(1))]
    )


def test_needs_blocks_until_the_needed_group_frees_then_takes_over():
    h = Harness()
    h.provider(IK, body=lambda ctx: ctx.emit(Leg(ctx.task.x)), needs=Leg)
    h.provider(Leg)
    kick, walk = h.d.emitter("kick"), h.d.emitter("walk")
    kick.emit(Leg(9), priority=5)
    walk.emit(IK(1), priority=1)
    # IK needs Leg, held by the stronger kick: IK does not even run.
    assert_log(h.update(), [("Leg", "NEW_TASK", Leg(9))])
    assert h.d.run_state(walk, IK) is RunState.QUEUED
    kick.emit_none(Leg)
    assert_log(h.update(), [("IK", "NEW_TASK", IK(1)), ("Leg", "NEW_TASK", Leg(1))])
    # A stronger task takes the leg: the IK has lost a Need, so it stops and waits (NUbots).
    kick.emit(Leg(8), priority=5)
    assert_log(h.update(), [("Leg", "NEW_TASK", Leg(8))])
    assert h.d.run_state(walk, IK) is RunState.QUEUED
    # The leg is free again: the IK starts afresh.
    kick.emit_none(Leg)
    assert_log(h.update(), [("IK", "NEW_TASK", IK(1)), ("Leg", "NEW_TASK", Leg(1))])


def test_needs_chain_is_reserved_atomically():
    """NUbots PR 915: a lower task must not run in a group it is about to lose."""
    h = Harness()
    h.provider(Walk, body=lambda ctx: ctx.emit(IK(ctx.task.v)), needs=IK)
    h.provider(IK, body=lambda ctx: ctx.emit(Leg(ctx.task.x)), needs=Leg)
    h.provider(Leg)
    h.provider(Leg, kind="start")
    h.provider(Leg, kind="stop")
    low, walk, other = h.d.emitter("low"), h.d.emitter("walk"), h.d.emitter("other")
    low.emit(Leg(0), priority=1)
    h.update()
    walk.emit(Walk(2), priority=5)
    other.emit(Leg(7), priority=3)  # stronger than low, weaker than the walk
    assert_log(
        h.update(),
        [
            ("Leg:stop", "STOPPED", Leg(0)),
            ("Walk", "NEW_TASK", Walk(2)),
            ("IK", "NEW_TASK", IK(2)),
            ("Leg:start", "STARTED", Leg(2)),
            ("Leg", "NEW_TASK", Leg(2)),
        ],
    )
    assert h.d.run_state(other, Leg) is RunState.QUEUED


def test_reserved_group_is_held_even_before_the_subtask_arrives():
    h = Harness()
    h.provider(IK, body=lambda ctx: ctx.continue_(), needs=Leg)
    h.provider(Leg)
    ik, low, high = h.d.emitter("ik"), h.d.emitter("low"), h.d.emitter("high")
    ik.emit(IK(1), priority=2)
    h.update()
    low.emit(Leg(1), priority=1)
    assert_log(h.update(), [])
    assert "Leg*" in str(h.d.view())
    high.emit(Leg(3), priority=3)
    assert_log(h.update(), [("Leg", "NEW_TASK", Leg(3))])


def test_done_travels_up_a_three_level_tree_and_removes_the_root():
    h = Harness()

    def root(ctx):
        if ctx.reason.name == "SUBTASK_DONE":
            ctx.done()
        else:
            ctx.emit(Mid(1))

    def mid(ctx):
        if ctx.uses(Leaf).done:
            ctx.done()
        else:
            ctx.emit(Leaf(1))

    def leaf(ctx):
        if ctx.reason.name == "SUBTASK_DONE":
            ctx.done()
        else:
            ctx.wait(ctx.now + 0.05)

    h.provider(Parent, body=root)
    h.provider(Mid, body=mid)
    h.provider(Leaf, body=leaf)
    h.provider(Parent, kind="stop")
    h.provider(Mid, kind="stop")
    h.provider(Leaf, kind="stop")
    behaviour = h.d.emitter("b")
    behaviour.emit(Parent(), priority=1)
    assert_log(
        h.update(),
        [
            ("Parent", "NEW_TASK", Parent()),
            ("Mid", "NEW_TASK", Mid(1)),
            ("Leaf", "NEW_TASK", Leaf(1)),
        ],
    )
    assert_log(h.update(0.02), [])
    assert_log(
        h.update(0.04),
        [
            ("Leaf", "SUBTASK_DONE", Leaf(1)),
            ("Mid", "SUBTASK_DONE", Mid(1)),
            ("Parent", "SUBTASK_DONE", Parent()),
            ("Parent:stop", "STOPPED", Parent()),
            ("Mid:stop", "STOPPED", Mid(1)),
            ("Leaf:stop", "STOPPED", Leaf(1)),
        ],
    )
    assert h.d.run_state(behaviour, Parent) is RunState.NO_TASK
    assert h.d.view().tasks == ()


def test_a_second_done_is_ignored_and_the_next_pack_clears_it():
    h = Harness()

    def parent(ctx):
        ctx.continue_() if ctx.reason.name == "SUBTASK_DONE" else ctx.emit(A(ctx.task.n))

    h.provider(Parent, body=parent)
    h.provider(A, body=lambda ctx: ctx.done())
    behaviour = h.d.emitter("b")
    behaviour.emit(Parent(1), priority=1)
    assert_log(
        h.update(),
        [
            ("Parent", "NEW_TASK", Parent(1)),
            ("A", "NEW_TASK", A(1)),
            ("Parent", "SUBTASK_DONE", Parent(1)),
        ],
    )
    behaviour.emit(Parent(2), priority=1)
    # A is re-run by the new pack, so its Done counts again.
    assert_log(
        h.update(),
        [
            ("Parent", "NEW_TASK", Parent(2)),
            ("A", "NEW_TASK", A(2)),
            ("Parent", "SUBTASK_DONE", Parent(2)),
        ],
    )


def test_wait_fires_at_its_deadline_and_is_cancelled_by_a_rerun_or_removal():
    h = Harness()

    def servo(ctx):
        if ctx.reason.name == "NEW_TASK":
            ctx.wait(ctx.now + 0.1)
        else:
            ctx.continue_()

    h.provider(Servo, body=servo)
    behaviour = h.d.emitter("b")
    behaviour.emit(Servo(1), priority=1)
    assert_log(h.update(0.0), [("Servo", "NEW_TASK", Servo(1))])  # t=0, wait until 0.1
    assert_log(h.update(0.05), [])
    behaviour.emit(Servo(2), priority=1)
    assert_log(h.update(0.01), [("Servo", "NEW_TASK", Servo(2))])  # t=0.06: wait until 0.16
    assert_log(h.update(0.05), [])  # t=0.11: the first wait was cancelled by the re-run
    assert_log(h.update(0.05), [("Servo", "SUBTASK_DONE", Servo(2))])  # t=0.16
    behaviour.emit(Servo(3), priority=1)
    assert_log(h.update(0.01), [("Servo", "NEW_TASK", Servo(3))])
    behaviour.emit_none(Servo)
    assert_log(h.update(0.2), [])


def test_continue_keeps_subtasks_and_an_empty_pack_removes_them():
    h = Harness()

    def parent(ctx):
        if ctx.reason.name == "NEW_TASK":
            ctx.emit(A(1))
            ctx.emit(B(1))
        elif ctx.task.n == 1:
            ctx.continue_()
        # otherwise: an empty answer, which removes every subtask

    h.provider(Parent, body=parent, every_cycle=True)
    h.provider(A)
    h.provider(B)
    h.provider(A, kind="stop")
    h.provider(B, kind="stop")
    behaviour = h.d.emitter("b")
    behaviour.emit(Parent(1), priority=1)
    h.update()
    assert_log(h.update(), [("Parent", "OTHER_TRIGGER", Parent(1))])
    assert h.holder(A) == A(1) and h.holder(B) == B(1)
    behaviour.emit(Parent(2), priority=1)
    h.update()
    assert_log(
        h.update(),
        [
            ("Parent", "OTHER_TRIGGER", Parent(2)),
            ("A:stop", "STOPPED", A(1)),
            ("B:stop", "STOPPED", B(1)),
        ],
    )


def test_types_not_re_emitted_are_removed_and_re_emitted_ones_rerun():
    h = Harness()
    h.provider(
        Parent,
        body=lambda ctx: [ctx.emit(t(ctx.task.n)) for t in ((A, B) if ctx.task.n == 1 else (A,))],
    )
    h.provider(A)
    h.provider(B)
    h.provider(B, kind="stop")
    behaviour = h.d.emitter("b")
    behaviour.emit(Parent(1), priority=1)
    h.update()
    behaviour.emit(Parent(2), priority=1)
    # The pack is applied whole (B removed, its stop run) before the re-emitted A runs.
    assert_log(
        h.update(),
        [("Parent", "NEW_TASK", Parent(2)), ("B:stop", "STOPPED", B(1)), ("A", "NEW_TASK", A(2))],
    )


def test_start_and_stop_bracket_the_active_period():
    h = Harness()
    h.provider(Servo, kind="start")
    h.provider(Servo)
    h.provider(Servo, kind="stop")
    first, second = h.d.emitter("first"), h.d.emitter("second")
    first.emit(Servo(1), priority=1)
    assert_log(h.update(), [("Servo:start", "STARTED", Servo(1)), ("Servo", "NEW_TASK", Servo(1))])
    first.emit(Servo(2), priority=1)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(2))])
    second.emit(Servo(3), priority=0)
    h.update()
    # Removal lets the watcher take over first: no stop, no start in between.
    first.emit_none(Servo)
    assert_log(h.update(), [("Servo", "NEW_TASK", Servo(3))])
    second.emit_none(Servo)
    assert_log(h.update(), [("Servo:stop", "STOPPED", Servo(3))])


def test_uses_reports_running_queued_and_no_task():
    h = Harness()
    seen = []

    def parent(ctx):
        seen.append((ctx.uses(A).run_state, ctx.uses(B).run_state))
        ctx.emit(A(1))

    h.provider(Parent, body=parent, every_cycle=True)
    h.provider(A)
    h.d.register(B)
    blocker = h.d.emitter("blocker")
    h.d.emitter("b").emit(Parent(), priority=1)
    h.update()
    h.update()
    blocker.emit(A(9), priority=5)  # applied before the every-cycle run of this update
    h.update()
    assert seen == [
        (RunState.NO_TASK, RunState.NO_TASK),
        (RunState.RUNNING, RunState.NO_TASK),
        (RunState.QUEUED, RunState.NO_TASK),
    ]


def test_a_descendant_cannot_take_its_ancestors_group():
    h = Harness()
    h.provider(A, body=lambda ctx: ctx.emit(B(1), priority=100))
    h.provider(B, body=lambda ctx: ctx.emit(A(2), priority=100))
    behaviour = h.d.emitter("b")
    behaviour.emit(A(1), priority=1)
    assert_log(h.update(), [("A", "NEW_TASK", A(1)), ("B", "NEW_TASK", B(1))])
    assert h.holder(A) == A(1)
    states = [(t.depth, t.name, t.state) for t in h.d.view().tasks]
    assert states == [(0, "A", "running"), (1, "B", "running"), (2, "A", "queued")]


def test_lowering_a_root_priority_hands_its_groups_to_a_waiting_task():
    h = Harness()
    h.provider(Parent, body=lambda ctx: ctx.emit(Servo(ctx.task.n)))
    h.provider(Servo)
    tree, direct = h.d.emitter("tree"), h.d.emitter("direct")
    tree.emit(Parent(1), priority=5)
    direct.emit(Servo(9), priority=3)
    h.update()
    assert h.holder(Servo) == Servo(1)
    tree.emit(Parent(1), priority=2)
    log = h.update()
    assert ("Servo", "NEW_TASK", Servo(9)) in log
    assert h.holder(Servo) == Servo(9)


def test_removing_an_emitter_removes_all_its_tasks():
    h = Harness()
    h.provider(Parent, body=lambda ctx: ctx.emit(A(1)))
    h.provider(A)
    h.provider(Servo)
    h.provider(A, kind="stop")
    h.provider(Servo, kind="stop")
    behaviour = h.d.emitter("b")
    behaviour.emit(Parent(), priority=1)
    behaviour.emit(Servo(1), priority=1)
    h.update()
    h.d.remove_emitter(behaviour)
    assert_log(h.update(), [("A:stop", "STOPPED", A(1)), ("Servo:stop", "STOPPED", Servo(1))])
    assert h.d.view().tasks == ()
