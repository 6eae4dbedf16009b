"""The Director: robot-agnostic arbitration of tasks over provider groups.

Model: /work/shared/reference/director.md (NUbots' Director, re-expressed). In short::

    from director import Director, When, Causing, RunReason

    d = Director()

    @d.provide(LeftLeg, needs=(LHipYaw, LHipRoll, ...))   # decorator form
    def left_leg(ctx):
        for servo in servo_tasks(ctx.task):
            ctx.emit(servo)                                # one pack per run
        # no answer besides emits: the pack replaces the previous subtasks

    d.provide(HeadYaw, servo_fn)                           # plain form, returns a Provider
    d.provide(Walk, walk_fn, needs=(LeftLegIK, RightLegIK), every_cycle=True,
              when=When(Standing, "==", True))
    d.provide(Stand, stand_up_fn, causing=Causing(Standing, True))

    behaviour = d.emitter("striker")
    behaviour.emit(Walk(0.1, 0.0, 0.0), priority=10)      # checked now, applied at update
    d.set_state(Standing, True)
    d.update(now)                                          # once per cycle
    print(d.view())                                        # readable tree

A provider is ``fn(ctx)`` (see `director.flow.Context`): ``ctx.task``, ``ctx.reason`` (a
`RunReason`), ``ctx.now``, ``ctx.emit(task, priority=, optional=, name=)``, ``ctx.done()``,
``ctx.continue_()``, ``ctx.wait(deadline)``, ``ctx.uses(T) -> Uses(run_state, done)``. Emitting
nothing (and answering nothing) is an empty pack: all subtasks are removed. Kinds: ``provide``
(default), ``start`` (group idle → active) and ``stop`` (group active → idle, with the old task);
start and stop handlers cannot emit subtasks.

Guarantees beyond the reference (see docs/architecture.md, "The Director"):
- a task whose type has no provider waits and blocks nothing;
- a provider's Needs are granted atomically with it, down the whole chain, as reservations,
  so no group is used for even one step by a task that is about to lose it;
- calls made inside handlers are queued and applied after the current step;
- an exception in a provider is logged with the task's name and recorded in
  `Director.errors`; that provider's subtasks are removed, everything else keeps running;
- a provider re-emitting the same types with the same priorities (the walk, every cycle) takes
  a fast path: data updated and children re-run, no arbitration.
"""

from director.engine import Director
from director.flow import Context
from director.provider import Causing, Provider, When
from director.task import DirectorError, EmissionError, RunReason, RunState, Uses
from director.tree import ProviderError
from director.view import GroupView, TaskView, TreeView

__all__ = [
    "Causing",
    "Context",
    "Director",
    "DirectorError",
    "EmissionError",
    "GroupView",
    "Provider",
    "ProviderError",
    "RunReason",
    "RunState",
    "TaskView",
    "TreeView",
    "Uses",
    "When",
]
