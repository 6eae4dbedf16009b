"""The daemon's cycle: one sensor frame in, one safe actuator frame out, every 12 ms.

Each cycle, in this order (design.md, "One cycle"): read a `SensorFrame` from the
`LolaConnection`; `RobotState.update`; the clock ``now`` = frames since start × 12 ms (LoLA's
frame count, never wall time); behaviour emissions queued since the last cycle are applied and
the Director runs (`Director.update(now)`); limp joints follow their measured angles
(`ServoTable.hold_measured`); the ServoTable gives (position, stiffness) at ``now``; the
`SafetyStage` clips them; an `ActuatorFrame` goes back over the connection.

The compute half of the cycle is :meth:`Runtime.step` (no socket, no await), so the benchmark
and tests can drive it with frames directly; :meth:`Runtime.run` adds the connection.

Behaviours are trio tasks in the same thread. They emit through :meth:`Runtime.emitter`
handles; emissions are queued by the Director and take effect in the next cycle, so a behaviour
never races the cycle. Priorities at or above :data:`SAFETY_PRIORITY` (which lies below
``FREEZE_PRIORITY``) are the runtime's own: the safe sit, Freeze.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import trio

from director import Director, TreeView
from director.task import check_emission
from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.joints import NUM_JOINTS
from motiond.robot_state import Posture, RobotState
from motiond.safety import LOLA_PERIOD, SafetyStage
from motiond.supervisor import SafetySupervisor
from providers.actuation import ServoTable, build_actuation_tree
from providers.model import NaoModel, load_nao_model
from skills import register_skills
from skills.freeze import FREEZE_PRIORITY, Freeze, Unfreeze
from skills.keyframes import KeyframeScript
from skills.safety import SAFETY_PRIORITY, register_safety
from skills.script import Script
from skills.script_files import shipped_script

if TYPE_CHECKING:
    from lola_io.connection import LolaConnection

log = logging.getLogger(__name__)

#: Emitter names the runtime keeps for itself.
RESERVED_EMITTERS = ("runtime", "safety")
#: Missed cycles after which a reconnection commands a safe sit instead of resuming.
DEFAULT_SAFE_SIT_AFTER = 10
# Time a script is given, beyond its own duration, to come to rest before the next step.
_SETTLE = 0.25

assert SAFETY_PRIORITY < FREEZE_PRIORITY


class PriorityError(ValueError):
    """A behaviour asked for a priority reserved for the runtime's own safety actions."""


@attrs.define
class RuntimeCounters:
    """What the cycle has done since the runtime started."""

    cycles: int = 0  # frames stepped
    overruns: int = 0  # replies that missed LoLA's deadline (the connection's ``late``)
    safety_faults: int = 0  # non-finite targets the safety stage replaced
    provider_errors: int = 0  # provider exceptions the Director contained
    cycle_errors: int = 0  # other exceptions in the cycle (the last safe frame went out)
    missed_cycles: int = 0  # cycles with no frame: skipped, stalled or disconnected
    safe_sits: int = 0  # safe sits commanded after an outage


class BehaviourEmitter:
    """A behaviour's handle on the Director, refusing the runtime's reserved priorities."""

    def __init__(self, runtime: Runtime, name: str) -> None:
        self._runtime = runtime
        self._emitter = runtime.director.emitter(name)
        self.name = name

    def emit(
        self, task: Any, *, priority: float = 0.0, optional: bool = False, name: str | None = None
    ) -> None:
        """Emit (or replace) this behaviour's task of ``type(task)``; effective next cycle."""
        if not priority < SAFETY_PRIORITY:
            raise PriorityError(
                f"behaviour {self.name!r}: priority {priority!r} is reserved for the runtime "
                f"(behaviours must stay below {SAFETY_PRIORITY:g}; Freeze is {FREEZE_PRIORITY:g})"
            )
        supervisor = self._runtime.supervisor
        if supervisor.holding and not self._emitter.closed:
            # The hold's withdrawal is queued before the task: queued after it, the hold kept
            # its joints through the task's first update, and its sequence took back a joint
            # the task had just commanded (a Head move emitted during the start-up ramp was
            # undone). Checked first, so a refused emission leaves the hold.
            check_emission(self._runtime.director.registered, task, priority, optional, name)
            supervisor.behaviour_emitted()
        self._emitter.emit(task, priority=priority, optional=optional, name=name)
        supervisor.behaviour_emitted()

    def emit_none(self, task_type: type) -> None:
        """Withdraw this behaviour's task of ``task_type``."""
        self._emitter.emit_none(task_type)

    def close(self) -> None:
        """Withdraw every task of this behaviour."""
        self._runtime.director.remove_emitter(self._emitter)


#: The longest a script waits for a stepping walk to close its feet or a kick to end (s): a stop
#: from the walk's top speed takes a few steps, a kick under 2 s.
_LEGS_REST_LIMIT = 3.0


class Runtime:
    """The motion daemon's core: Director, ServoTable, SafetyStage and RobotState in one cycle.

    ``safe_sit_after``: missed cycles (frame gaps or a reconnection's outage) after which the
    runtime plays the shipped Sit at :data:`SAFETY_PRIORITY` instead of resuming what was
    running (a walk caught mid-step first finishes that step and closes its feet). The safe
    sit holds until :meth:`release_safe_sit`.
    """

    def __init__(
        self,
        *,
        model: NaoModel | None = None,
        safe_sit_after: int = DEFAULT_SAFE_SIT_AFTER,
        period: float = LOLA_PERIOD,
    ) -> None:
        if safe_sit_after < 1:
            raise ValueError(f"safe_sit_after must be >= 1 cycle, got {safe_sit_after!r}")
        self.model = model if model is not None else load_nao_model()
        self.period = period
        self.safe_sit_after = safe_sit_after
        self.director = Director()
        self.state = RobotState()
        # Every joint starts limp, so hold_measured on the first frame puts every target at the
        # measured angle: the table effectively starts from the first frame's positions.
        self.servos = ServoTable(np.zeros(NUM_JOINTS))
        self.safety = SafetyStage(self.model, period)
        build_actuation_tree(self.director, self.servos, self.state)
        #: The walk skill (``walk.status()``, gait, generator) and the kick (``kick.status()``).
        self.walk, self.kick = register_skills(self.director, self.servos, self.state)
        self.walk.period = self.kick.period = period
        #: Falls, get-ups, lifting, the start-up hold and heat (``supervisor.status()``).
        getup = register_safety(self.director, self.servos, self.state)
        self.supervisor = SafetySupervisor(self.director, self.state, self.walk, getup)
        self.counters = RuntimeCounters()
        self.now = 0.0
        #: Called after every cycle with (now, sensor frame, actuator frame); for tests, logs.
        self.observers: list[Callable[[float, SensorFrame, ActuatorFrame], None]] = []
        #: Called once the cycle's reply has gone out (``run`` only): the API's publishing,
        #: which then costs the reply nothing and waits for no scheduling round.
        self.after_reply: list[Callable[[], None]] = []
        self._frames = 0  # LoLA frames since start, stepped or missed: the clock
        self._started = False
        self._posture: Posture | None = None
        self._safety = self.director.emitter("runtime")
        self._behaviours: dict[str, BehaviourEmitter] = {}
        self._last_frame: ActuatorFrame | None = None
        self._tick = trio.Event()
        #: CLOCK_MONOTONIC when the last cycle's reply went out: for the API's state ages
        #: (comparable across processes), never for logic.
        self.cycle_end_stamp = 0.0
        self._view_revision = -1
        self._error_logged_at = -1

    # ------------------------------------------------------------------ behaviours

    def emitter(self, name: str) -> BehaviourEmitter:
        """The handle of behaviour ``name`` (the same one on every call)."""
        if name in RESERVED_EMITTERS:
            raise ValueError(f"the emitter name {name!r} is the runtime's own")
        handle = self._behaviours.get(name)
        if handle is None:
            handle = self._behaviours[name] = BehaviourEmitter(self, name)
        return handle

    def remove_emitter(self, name: str) -> None:
        """Withdraw every task of behaviour ``name`` and forget its handle (a client gone)."""
        handle = self._behaviours.pop(name, None)
        if handle is not None:
            handle.close()

    def emit(self, task: Any, *, priority: float = 0.0, emitter: str = "behaviour") -> None:
        """Emit ``task`` from behaviour ``emitter`` (see :meth:`emitter`)."""
        self.emitter(emitter).emit(task, priority=priority)

    def freeze(self) -> None:
        """Every joint limp at its measured angle from the next cycle, until :meth:`unfreeze`."""
        # Withdrawing our last Unfreeze (and Freeze, below) makes each call a fresh emission
        # that runs its provider again, not a re-emission of a task that is already Done.
        self._safety.emit_none(Unfreeze)
        self._safety.emit(Freeze(), priority=FREEZE_PRIORITY)

    def unfreeze(self) -> None:
        """Release a :meth:`freeze`; the tasks below it take their joints back."""
        self._safety.emit_none(Freeze)
        self._safety.emit(Unfreeze(), priority=FREEZE_PRIORITY)

    def safe_sit(self, name: str = "Sit") -> None:
        """Play a shipped script (Sit by default) above every behaviour, once a stepping walk
        has closed its feet or a kick has ended (after an outage the walk carries on the step
        it was caught in: sitting at once from single support after 120-180 ms outages fell 5
        of 18 times in naosim, this way none). It holds its last posture until
        :meth:`release_safe_sit` (played without holding, it ended and a behaviour's walk
        still emitted stood the robot up and walked on)."""
        self._safety.emit(Script(shipped_script(name), hold=True), priority=SAFETY_PRIORITY)

    def release_safe_sit(self) -> None:
        """Hand the joints back to the behaviours after a safe sit."""
        self._safety.emit_none(Script)

    @property
    def last_frame(self) -> ActuatorFrame | None:
        """The last actuator frame the cycle produced."""
        return self._last_frame

    # ------------------------------------------------------------------ waiting (trio)

    async def next_cycle(self) -> None:
        """Return after the next cycle's reply was sent."""
        await self._tick.wait()

    async def wait(self, seconds: float) -> None:
        """Wait ``seconds`` of robot time (LoLA frames), not wall time."""
        deadline = self.now + seconds
        while self.now < deadline - 1e-9:
            await self._tick.wait()

    async def play(
        self,
        script: KeyframeScript | str,
        *,
        priority: float = 0.0,
        emitter: str = "behaviour",
        speed: float = 1.0,
    ) -> None:
        """Play a script (or a shipped one by name) and return once it has ended and settled
        (one that moves the legs starts once the walk or a kick has finished, ``skills.script``)."""
        if isinstance(script, str):
            script = shipped_script(script)
        task = Script(script, speed=speed)
        self.emit(task, priority=priority, emitter=emitter)
        await self.next_cycle()
        if task.waits_for_legs:
            await self._legs_at_rest()
        await self.wait(script.duration / speed + _SETTLE)

    async def play_safety(self, name: str) -> None:
        """Play a shipped script at :data:`SAFETY_PRIORITY` once the legs are at rest (the
        shutdown's sit: not from the middle of a step or a kick) and wait for it to end."""
        self.safe_sit(name)
        await self.next_cycle()
        await self._legs_at_rest()
        await self.wait(shipped_script(name).duration + _SETTLE)

    def legs_in_motion(self) -> bool:
        """Whether the walk is stepping or a standing kick is under way: a script that moves the
        legs lets them finish first (``skills.script``)."""
        return self.walk.stepping(self.now) or self.kick.moving()

    async def _legs_at_rest(self) -> None:
        """Wait (robot time, at most ``_LEGS_REST_LIMIT``) until :meth:`legs_in_motion` is
        false."""
        deadline = self.now + _LEGS_REST_LIMIT
        while self.legs_in_motion() and self.now < deadline:
            await self._tick.wait()

    def tree_view(self) -> TreeView | None:
        """The Director's tree, or None if it has not changed since the last call."""
        view = self.director.view_if_changed(self._view_revision)
        self._view_revision = self.director.revision
        return view

    # ------------------------------------------------------------------ the cycle

    def note_missed(self, missed: int, *, reconnected: bool = False) -> None:
        """Record ``missed`` cycles without a frame before the next one (robot time passed).

        An outage of at least ``safe_sit_after`` cycles commands the safe sit: the robot has
        been standing blind (or limp, if LoLA dropped stiffness) and whatever was running may
        have been mid-step.
        """
        if missed <= 0:
            return
        self._frames += missed
        self.counters.missed_cycles += missed
        if missed >= self.safe_sit_after and self._started:
            log.warning(
                "%d cycles without LoLA (%s): commanding a safe sit",
                missed,
                "reconnected" if reconnected else "stream stalled",
            )
            self.counters.safe_sits += 1
            self.safe_sit()

    def step(self, frame: SensorFrame) -> ActuatorFrame:
        """One cycle's compute: a sensor frame in, the safe actuator frame out. Never raises."""
        try:
            out = self._step(frame)
        except Exception:
            self.counters.cycle_errors += 1
            # One traceback per second at most: a persistent fault must not flood the log.
            if self._error_logged_at < 0 or self._frames - self._error_logged_at >= 84:
                self._error_logged_at = self._frames
                log.exception("cycle %d failed; sending the last safe frame", self._frames)
            out = self._last_frame
            if out is None:
                out = ActuatorFrame.limp(np.nan_to_num(np.asarray(frame.position, dtype=float)))
        self._last_frame = out
        self.counters.cycles += 1
        for observer in self.observers:
            observer(self.now, frame, out)
        return out

    def _step(self, frame: SensorFrame) -> ActuatorFrame:
        measured = frame.position
        first = not self._started
        if first:
            # Before the first update, so a task commanded in the very first cycle moves each
            # joint from where it is, not from the table's placeholder zeros.
            self.servos.hold_measured(measured)
            self.safety.reset(measured)
            self._started = True
        state = self.state
        state.update(frame)
        self.now = now = self._frames * self.period
        if first:
            self.supervisor.start()
        self._frames += 1
        self.supervisor.update(now, self.period)
        posture = state.posture
        if posture is not self._posture:
            self._posture = posture
            self.director.set_state(Posture, posture)
        self.director.update(now)
        # Odometry follows the measured legs every cycle, whoever moves them.
        self.walk.odometry.measure(
            state.position, state.roll, state.pitch, state.fsr, state.gyro, self.period
        )
        self.counters.provider_errors = self.director.error_count
        self.servos.hold_measured(measured)
        position, stiffness = self.servos.targets(now)
        position, stiffness = self.safety.apply(
            position, stiffness, measured=measured, stiffness_cap=self.supervisor.stiffness_cap
        )
        self.counters.safety_faults = self.safety.fault_count
        # The stage's arrays change next cycle; the frame is a message and keeps its own copy.
        return ActuatorFrame(position=position.copy(), stiffness=stiffness.copy())

    async def run(
        self,
        conn: LolaConnection,
        *,
        clock_gaps: bool = True,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Run the cycle over ``conn`` (a :class:`lola_io.connection.LolaConnection`) until
        cancelled.

        ``clock_gaps``: count missed cycles from the time between frames (on trio's clock), as
        on a robot. A lockstep simulator has no such gaps (its time stops while nobody answers),
        so pass False there; skipped frames and reconnections are counted either way.
        """
        task_status.started()
        counters = conn.counters
        skipped, reconnects = counters.skipped, counters.reconnects
        last_arrival: float | None = None
        async for frame in conn:
            arrival = trio.current_time()
            missed = counters.skipped - skipped
            reconnected = counters.reconnects != reconnects
            skipped, reconnects = counters.skipped, counters.reconnects
            if clock_gaps and last_arrival is not None:
                gap = round((arrival - last_arrival) / self.period) - 1
                missed = max(missed, gap)
            last_arrival = arrival
            self.note_missed(missed, reconnected=reconnected)
            out = self.step(frame)
            try:
                await conn.send(out)
            except Exception:
                # An unencodable frame cannot come out of the safety stage; if one does, the
                # connection's safe frame answers this cycle and the daemon carries on.
                self.counters.cycle_errors += 1
                log.exception("could not send cycle %d's frame", self.counters.cycles)
            self.counters.overruns = counters.late
            self.cycle_end_stamp = time.monotonic()
            for hook in self.after_reply:
                hook()
            tick, self._tick = self._tick, trio.Event()
            tick.set()
