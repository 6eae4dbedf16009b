"""Getting up: keyframe phases with a sensor check between each (B-Human's get-up engine,
rUNSWift's getups), ending in the walk-ready stand.

A :class:`GetUpRoutine` is a shipped keyframe script cut into named phases; after each phase
the robot must be where the phase should have left it, which the IMU and the feet tell
(:class:`Check`: torso pitch and roll windows, a calm gyro, feet loaded). ``GetUp()`` runs
every cycle:

1. pick the routine for the side the robot lies on (the IMU's lean); a routine that
   ``rolls_over`` (from a side, ``RollOverLeft`` or ``RollOverRight``; from the back,
   ``GetUpBack``) ends lying on another side, which is read again to go on;
2. play a phase as a sequence on the whole body, then check once the gyro is calm (never
   later than ``SETTLE_MAX``; a check on the feet's load counts it over ``SETTLE`` s first);
3. a check that fails means the robot ended somewhere unexpected: it relaxes lying down
   (the ``GetUpRelax`` script, a known posture) and starts again from step 1, up to
   ``max_attempts`` times, after which it stays relaxed and reports ``gave_up`` (and is not
   Done: the relaxed posture holds until the GetUp is withdrawn);
4. after the last phase's check, GetUp is Done: the robot stands in the walk-ready posture.

:class:`GetUpStatus` (``GetUpProgress.status()``) says whether a get-up runs, the routine and
phase, and the attempt count.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import attrs

from director import Context, Director, RunReason
from providers.actuation import Arrival, Body, BodySequence
from skills.keyframes import KeyframeScript
from skills.safety.fall import FallDirection, lean_direction, torso_lean
from skills.script import script_sequence
from skills.script_files import shipped_script

#: Seconds a check that counts the feet's load collects it (and a roll's check waits at least)
#: before it is judged; other checks are judged as soon as the gyro is calm. A fixed 0.1 s
#: after every phase cost 0.15 s of each front get-up and found nothing the gyro did not.
SETTLE = 0.1
#: The longest a check waits for the gyro to calm down after a phase, s.
SETTLE_MAX = 0.6
#: A gyro below this (rad/s, roll and pitch rate) counts as calm.
CALM_GYRO = 0.8
#: A lying robot is still when its turn rate about all three axes together is below this
#: (rad/s). Lying down, the torso's z axis is horizontal: a roll from a side onto the front
#: turns about it, at 0.6-0.8 rad/s where the pitch and roll rates alone already read calm.
STILL_GYRO = 0.5
#: Seconds the robot lies relaxed after a failed phase before it tries again.
RELAX_TIME = 1.2
DEFAULT_MAX_ATTEMPTS = 5
#: Roll-overs within one attempt before it counts as failed (a robot rolling from side to side).
MAX_ROLLS = 2

_INF = math.inf


@attrs.frozen
class Check:
    """Where a phase must leave the robot: windows on the torso's forward lean and |sideways|
    lean (rad, ``skills.safety.fall.torso_lean``: +pi/2 lying on the front), and the feet."""

    pitch: tuple[float, float] = (-_INF, _INF)
    max_roll: float = _INF
    feet_loaded: bool = False

    def passes(self, state: Any, feet_loaded: bool) -> bool:
        """Whether ``state`` (roll, pitch) is where this check wants it; ``feet_loaded``: both
        feet carried load over the settle (one cycle's FSR flickers on hands and feet)."""
        if not (math.isfinite(state.pitch) and math.isfinite(state.roll)):
            return False
        pitch, roll = torso_lean(float(state.roll), float(state.pitch))
        if not self.pitch[0] <= pitch <= self.pitch[1] or abs(roll) > self.max_roll:
            return False
        return not self.feet_loaded or feet_loaded


@attrs.frozen
class GetUpPhase:
    """Keyframes ``frames`` (start, stop) of the routine's script, then ``check``. With an
    ``arrival``, each keyframe waits for its joints to catch up before the next starts."""

    name: str
    frames: tuple[int, int]
    check: Check
    arrival: Arrival | None = None
    #: For a phase whose keyframes start a roll that gravity finishes (a roll-over): up to this
    #: long after its keyframes (s), the check waits for the robot to lie still
    #: (``STILL_GYRO``) where the check wants it. 0: the check is made once the pitch and roll
    #: rates are calm (``CALM_GYRO``, at most ``SETTLE_MAX``).
    rest_wait: float = attrs.field(default=0.0, validator=attrs.validators.ge(0.0))
    #: How many of the phase's first keyframes set up a robot lying still. They are skipped
    #: when the routine goes on straight from another routine's roll: the robot is still
    #: moving then, and the keyframes after them carry that motion on.
    lead_in: int = attrs.field(default=0, validator=attrs.validators.ge(0))

    def frames_after_roll(self) -> tuple[int, int]:
        """The keyframes played when the routine goes on from another routine's roll."""
        start, stop = self.frames
        return min(start + self.lead_in, stop - 1), stop


@attrs.frozen
class GetUpRoutine:
    """A shipped script in phases. ``rolls_over``: it ends lying (on another side), so the
    get-up reads the side again and goes on with that side's routine. ``mirror``: the
    script's mirror image (the same keyframes, the sides swapped), played on every other try
    of this routine within a get-up, so that a leg too weak or too hot to do it one way gets
    the other way next."""

    name: str
    script: str
    phases: tuple[GetUpPhase, ...]
    rolls_over: bool = False
    mirror: str | None = None

    @property
    def scripts(self) -> tuple[str, ...]:
        """The scripts its tries play in turn: the script, then its mirror if it has one."""
        return (self.script,) if self.mirror is None else (self.script, self.mirror)

    def sequences(self, script_name: str, *, after_roll: bool = False) -> tuple[Any, ...]:
        """One sequence task per phase of ``script_name``, one of :attr:`scripts` (made once:
        the scripts do not change); ``after_roll``: as played straight after another routine's
        roll, the phases' lead-ins left out."""
        script = shipped_script(script_name)
        out = []
        for phase in self.phases:
            start, stop = phase.frames_after_roll() if after_roll else phase.frames
            part = KeyframeScript(f"{self.name}:{phase.name}", script.frames[start:stop])
            arrival = phase.arrival
            skipped = start - phase.frames[0]
            if skipped and arrival is not None and arrival.frames is not None:
                # Its frame indices count from the phase's first keyframe, lead-in included.
                kept = tuple(i - skipped for i in arrival.frames if i >= skipped)
                arrival = attrs.evolve(arrival, frames=kept)
            # On the whole body, whatever joints the phase names: the get-up owns the body
            # and waits for a BodySequence (a phase of fewer joints would never be seen done).
            out.append(script_sequence(part, arrival=arrival, group=Body))
        return tuple(out)


@attrs.frozen
class GetUp:
    """Get up from lying (any side) into the walk-ready stand; Done when standing.

    ``max_attempts``: how many times a failed phase starts the get-up over.
    """

    max_attempts: int = attrs.field(default=DEFAULT_MAX_ATTEMPTS)

    @max_attempts.validator
    def _check_attempts(self, attribute: attrs.Attribute, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100:
            raise ValueError(f"max_attempts must be a whole number in 1..100, got {value!r}")


@attrs.frozen
class GetUpStatus:
    """What the get-up is doing: ``active``, the routine and phase, attempts so far, and how
    the last get-up ended (``"standing"``, ``"gave_up"``, ``"interrupted"`` or None)."""

    active: bool = False
    routine: str | None = None
    phase: str | None = None
    attempts: int = 0
    result: str | None = None
    started: float | None = None
    finished: float | None = None


class GetUpProgress:
    """The get-up provider's state machine (one get-up at a time)."""

    def __init__(self, routines: dict[FallDirection, GetUpRoutine], state: Any) -> None:
        self._routines = routines
        self._sequences = {
            (r.name, script, after_roll): r.sequences(script, after_roll=after_roll)
            for r in routines.values()
            for script in r.scripts
            for after_roll in (False, True)
        }
        # Each routine's tries within this get-up: which of its scripts plays next.
        self._tries: dict[str, int] = {}
        self._script = ""
        self._relax = script_sequence(shipped_script("GetUpRelax"), group=Body)
        self._state = state
        self._status = GetUpStatus()
        self.task: object = None
        self.routine: GetUpRoutine | None = None
        self.index = 0
        self.stage = "idle"  # "phase", "settle", "relax"
        self.since = 0.0
        self._loaded = self._settled = 0
        self._rolls = 0

    @property
    def available(self) -> bool:
        """Whether routines are installed (the shipped scripts exist)."""
        return bool(self._routines)

    def status(self) -> GetUpStatus:
        """The get-up's state now."""
        return self._status

    def _set(self, **changes: Any) -> None:
        self._status = attrs.evolve(self._status, **changes)

    def begin(self, ctx: Context) -> None:
        """A new GetUp: attempt 1 from whatever side the robot lies on."""
        self.task = ctx.task
        self._status = GetUpStatus(active=True, attempts=1, started=ctx.now)
        self._rolls = 0
        self._tries = {}
        self._choose(ctx)

    def interrupted(self, now: float) -> None:
        """The GetUp stopped before it was Done (withdrawn, or its joints taken)."""
        if self._status.active:
            self._set(active=False, result="interrupted", finished=now)
        self.task = None
        self.stage = "idle"

    def _choose(self, ctx: Context) -> None:
        side = lean_direction(float(self._state.roll), float(self._state.pitch))
        routine = self._routines.get(side)
        if routine is None:
            # No routine for this side: staying relaxed is safer than a move made up here.
            self._set(active=False, routine=None, phase=None, result="gave_up", finished=ctx.now)
            self.stage = "idle"
            ctx.emit(self._relax)
            return
        self.routine = routine
        tries = self._tries.get(routine.name, 0)
        self._tries[routine.name] = tries + 1
        self._script = routine.scripts[tries % len(routine.scripts)]
        self.index = 0
        self._play(ctx)

    def _play(self, ctx: Context) -> None:
        assert self.routine is not None
        phase = self.routine.phases[self.index]
        self._set(routine=self.routine.name, phase=phase.name)
        self.stage, self.since = "phase", ctx.now
        after_roll = self._rolls > 0
        ctx.emit(self._sequences[self.routine.name, self._script, after_roll][self.index])

    def run(self, ctx: Context) -> None:
        """One cycle of the get-up."""
        if self.stage == "phase":
            if ctx.uses(BodySequence).done:
                self.stage, self.since = "settle", ctx.now
                self._loaded = self._settled = 0
            ctx.continue_()
            return
        if self.stage == "settle":
            self._settle(ctx)
            return
        if self.stage == "relax":
            if ctx.now - self.since < RELAX_TIME or not ctx.uses(BodySequence).done:
                ctx.continue_()
                return
            self._set(attempts=self._status.attempts + 1)
            self._choose(ctx)
            return
        ctx.continue_()

    def _settle(self, ctx: Context) -> None:
        assert self.routine is not None
        waited = ctx.now - self.since
        self._settled += 1
        self._loaded += bool(self._state.left_contact and self._state.right_contact)
        gyro = self._state.gyro
        phase = self.routine.phases[self.index]
        if phase.rest_wait:
            calm = math.hypot(float(gyro[0]), float(gyro[1]), float(gyro[2])) < STILL_GYRO
            limit = phase.rest_wait
        else:
            calm = math.hypot(float(gyro[0]), float(gyro[1])) < CALM_GYRO
            limit = SETTLE_MAX
        settle = SETTLE if phase.check.feet_loaded or phase.rest_wait else 0.0
        if waited < settle or (not calm and waited < limit):
            ctx.continue_()
            return
        passed = phase.check.passes(self._state, feet_loaded=2 * self._loaded >= self._settled)
        if not passed and waited < phase.rest_wait:
            # Still on its way (a slow roll can pause on a shoulder): judged at the end.
            ctx.continue_()
            return
        if passed and not (self.routine.rolls_over and self._rolls >= MAX_ROLLS):
            if self.index + 1 < len(self.routine.phases):
                self.index += 1
                self._play(ctx)
                return
            if self.routine.rolls_over and self._rolls < MAX_ROLLS:
                self._rolls += 1
                self._choose(ctx)  # on another side now: that side's get-up
                return
            self._set(active=False, phase=None, result="standing", finished=ctx.now)
            self.stage = "idle"
            ctx.done()
            return
        if self._status.attempts >= ctx.task.max_attempts:
            # Not Done: the relaxed posture stays commanded until the GetUp is withdrawn.
            self._set(active=False, phase=None, result="gave_up", finished=ctx.now)
            self.stage = "idle"
            ctx.emit(self._relax)
            return
        self._set(phase="relax")
        self._rolls = 0
        self.stage, self.since = "relax", ctx.now
        ctx.emit(self._relax)


def register_getup(
    director: Director, state: Any, routines: Callable[[], dict[FallDirection, GetUpRoutine]]
) -> GetUpProgress:
    """Register the GetUp provider; ``routines()`` gives the routine for each side the robot
    may lie on (a side without one: the get-up stays relaxed and gives up)."""
    progress = GetUpProgress(routines(), state)

    def getup(ctx: Context) -> None:
        if ctx.reason in (RunReason.NEW_TASK, RunReason.STARTED) or progress.task is not ctx.task:
            progress.begin(ctx)
            return
        progress.run(ctx)

    def getup_stopped(ctx: Context) -> None:
        progress.interrupted(ctx.now)

    director.provide(GetUp, getup, every_cycle=True, name="GetUp")
    director.provide(GetUp, getup_stopped, kind="stop", name="GetUp.stop")
    return progress
