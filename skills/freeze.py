"""Freeze and Unfreeze (Northern Bites' NullProvider): every joint limp, above everything.

``Freeze()`` emitted at :data:`FREEZE_PRIORITY` takes the Body group, and with it every servo,
in the next update: each joint is commanded to its measured angle at stiffness 0 (the runtime's
``ServoTable.hold_measured`` then keeps each target on the limp joint as it moves). Nothing a
behaviour may emit outranks it, so it holds whatever else is emitted.

Only ``Unfreeze()`` releases it. Unfreeze is its own task (any emitter may send it, e.g. a
button handler that did not freeze the robot): its provider counts one release and is Done; the
running Freeze sees the count change on its next every-cycle run and is Done, which removes
it and its Body command. The joints stay limp (a joint nobody commands keeps its stiffness)
until some task commands them; a task that lost its joints to the Freeze gets them back and
replays the command it was on from where the joints are. An Unfreeze releases the Freeze
running when it arrives; a Freeze emitted after an Unfreeze (even in the same update) stays.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from director import Context, Director, RunReason
from lola_io.joints import JOINT_NAMES
from providers.actuation import Body, JointCommand, ServoTable

#: The priority to emit Freeze with; behaviours must use priorities below it.
FREEZE_PRIORITY = 1.0e9

_FIRST_RUN = (RunReason.NEW_TASK, RunReason.STARTED)


@attrs.frozen
class Freeze:
    """Every joint limp (stiffness 0) at its measured angle until an Unfreeze."""


@attrs.frozen
class Unfreeze:
    """Release the running Freeze."""


class _Releases:
    """How many Unfreezes have run, and what the running Freeze has seen."""

    __slots__ = ("count", "freeze", "seen")

    def __init__(self) -> None:
        self.count = 0
        self.seen = 0
        self.freeze: object = None


def register_freeze(director: Director, servos: ServoTable, state: Any) -> None:
    """Register the Freeze and Unfreeze providers (the actuation tree must be built)."""
    releases = _Releases()

    def limp_here(now: float) -> JointCommand:
        measured = state.position
        positions = {}
        for i, name in enumerate(JOINT_NAMES):
            angle = float(measured[i])
            # A broken measurement must not stop the freeze: stay where the command is.
            positions[name] = angle if math.isfinite(angle) else servos.current(i, now)
        return JointCommand(positions, 0.0, 0.0)

    def freeze(ctx: Context) -> None:
        if ctx.reason in _FIRST_RUN or releases.freeze is not ctx.task:
            releases.freeze = ctx.task
            releases.seen = releases.count
            ctx.emit(Body(limp_here(ctx.now)))
            return
        if releases.count != releases.seen:
            releases.freeze = None
            ctx.done()
            return
        ctx.continue_()

    def unfreeze(ctx: Context) -> None:
        releases.count += 1
        ctx.done()

    director.provide(Freeze, freeze, every_cycle=True, name="Freeze")
    director.provide(Unfreeze, unfreeze, name="Unfreeze")
