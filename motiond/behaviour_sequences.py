"""Random sequences of what behaviours emit, run through the runtime on the simulated NAO.

A behaviour in a match emits walks in every direction, stops, the high stand, kicks at balls it
sees, scripts, looks and arm postures, in whatever order its decisions come, each replacing the
last: a new emission every 0.2-2 s here (2-4 s after asking for the high stand, which takes 2 s
to reach). Whatever the order, the runtime must never err, every frame it sends must be finite,
inside the joints' limits and no faster than they move, and nothing may make the robot fall (no
pushes, no Freeze, no Relax: those bring it down by design). A ball lies in front of the robot
only while a kick is meant for it (a behaviour walks round any other).

:func:`sequence_run` runs one such sequence and records what happened instead of asserting, so
``tests/runtime/test_random_tasks.py`` pins a few seeds and ``motiond bench sequences`` counts
falls over many. Found this way so far: StandInit above a stepping walk tipped the robot over
from single support; a look above a whole-body script handed the legs to the walk below and the
script took them back mid-step; a safe sit released 60 ms in had the walk start from the sit's
squat; a kick aimed across the body stubbed its toe.
"""

from __future__ import annotations

import math

import attrs
import numpy as np

from motiond.walk_trial import WalkTrial
from providers.actuation import Head, JointCommand, LeftArm, RightArm
from providers.model import load_nao_model
from skills.kick.tasks import InWalkKick, Kick
from skills.script import Script
from skills.script_files import shipped_script, shipped_script_names
from skills.walk.tasks import Walk

#: Scripts a behaviour plays while the robot stands (get-ups and Relax need a fallen or a
#: limp robot).
SCRIPTS = tuple(n for n in shipped_script_names() if not n.startswith("GetUp") and n != "Relax")
#: Priorities: the walk, kicks and scripts above it, looks and arm postures above everything.
WALK_PRIORITY, ABOVE_PRIORITY, LOOK_PRIORITY = 1.0, 2.0, 3.0
_ACTIONS = (
    "walk",
    "walk",
    "sideways",
    "stop",
    "in-walk",
    "kick",
    "script",
    "look",
    "safe sit",
    "stand high",
)
#: Where a ball no kick is meant for lies (world, m): far from anywhere the robot walks.
PARKED_BALL = (50.0, 50.0)


@attrs.frozen
class SequenceRun:
    """What one random sequence did: ``actions`` as (time s, what), when the robot fell (None:
    it stood), the first unsafe frame (None: none), and the runtime's cycle and provider
    errors."""

    seed: int
    actions: tuple[tuple[float, str], ...]
    fell_at: float | None
    unsafe: str | None
    errors: int

    @property
    def clean(self) -> bool:
        """Stood, every frame safe, no error."""
        return self.fell_at is None and self.unsafe is None and self.errors == 0

    def last_actions(self, n: int = 4) -> tuple[tuple[float, str], ...]:
        """The ``n`` actions before the fall (or the end)."""
        end = self.fell_at if self.fell_at is not None else math.inf
        return tuple(a for a in self.actions if a[0] <= end)[-n:]


class RandomBehaviour:
    """Emits one random thing at a time from ``trial``'s behaviour (module docstring); with
    ``arms``, arm postures too (one arm or both, held above the walk)."""

    def __init__(self, trial: WalkTrial, rng: np.random.Generator, *, arms: bool = False) -> None:
        self._trial = trial
        self._rng = rng
        self._actions = (*_ACTIONS, "arms") if arms else _ACTIONS
        self._sitting = False

    def act(self) -> str:
        """Emit one thing (or, as after a LoLA outage, the runtime's safe sit, or its
        release); what it was."""
        trial, rng = self._trial, self._rng
        if trial.runtime.kick.status().phase == "idle":
            self._park_ball()
        if self._sitting and rng.random() < 0.7:
            trial.runtime.release_safe_sit()
            self._sitting = False
            return "released the safe sit"
        action = str(rng.choice(self._actions))
        if action == "look":
            look = {
                "HeadYaw": float(rng.uniform(-1.5, 1.5)),
                "HeadPitch": float(rng.uniform(-0.6, 0.5)),
            }
            duration = float(rng.uniform(0.2, 1.0))
            trial.emit(Head(JointCommand(look, 1.0, duration)), priority=LOOK_PRIORITY)
            action = f"look {look['HeadYaw']:+.2f},{look['HeadPitch']:+.2f} in {duration:.2f} s"
        elif action == "arms":
            action = self._arms()
        elif action == "safe sit":
            trial.runtime.safe_sit()
            self._sitting = True
        elif action == "walk":
            forward, left = rng.uniform(-0.1, 0.4), rng.uniform(-0.1, 0.1)
            turn = rng.uniform(-0.8, 0.8)
            trial.emit(Walk(float(forward), float(left), float(turn)), priority=WALK_PRIORITY)
            action = f"walk {forward:+.2f},{left:+.2f},{turn:+.2f}"
        elif action == "sideways":
            left = float(rng.uniform(-0.2, 0.2))
            trial.emit(Walk(0.0, left, 0.0), priority=WALK_PRIORITY)
            action = f"walk sideways {left:+.2f}"
        elif action == "stand high":
            trial.emit(Walk(high_stand=True), priority=WALK_PRIORITY)
        elif action == "stop":
            trial.withdraw(Walk)
        elif action in ("in-walk", "kick"):
            action = self._kick(action == "in-walk")
        elif action == "script":
            name = str(rng.choice(SCRIPTS))
            trial.emit(Script(shipped_script(name)), priority=ABOVE_PRIORITY)
            action = f"script {name}"
        if rng.random() < 0.2:
            for task_type in (Kick, InWalkKick, Script):
                trial.withdraw(task_type)
            self._park_ball()
            action += ", withdrew kicks and scripts"
        return action

    def _park_ball(self) -> None:
        """Take away a ball no kick is meant for: a behaviour walks round it (a robot that
        steps on a ball falls, which is no motion's fault: a sequence run fell so)."""
        self._trial.sim.place_ball(*PARKED_BALL)

    def _kick(self, in_walk: bool) -> str:
        trial, rng = self._trial, self._rng
        ball_x, ball_y = float(rng.uniform(0.15, 0.9)), float(rng.choice([-0.05, 0.05]))
        trial.place_ball_ahead(ball_x, ball_y)
        if in_walk:
            trial.emit(InWalkKick(ball_x, ball_y), priority=ABOVE_PRIORITY)
            return f"in-walk kick at {ball_x:.2f},{ball_y:+.2f}"
        direction, power = float(rng.uniform(-0.4, 0.4)), float(rng.uniform(0.3, 1.0))
        kick = Kick(min(ball_x, 0.2), ball_y, direction, power)
        trial.emit(kick, priority=ABOVE_PRIORITY)
        return f"kick at {kick.ball_x:.2f},{ball_y:+.2f} to {direction:+.2f} power {power:.2f}"

    def _arms(self) -> str:
        """An arm posture a behaviour might hold (at its side, out, forwards, back), or the
        arms given back to the walk."""
        rng, trial = self._rng, self._trial
        if rng.random() < 0.3:
            trial.withdraw(LeftArm)
            trial.withdraw(RightArm)
            return "arms given back"
        sides = ("L", "R") if rng.random() < 0.5 else (str(rng.choice(["L", "R"])),)
        postures = []
        for side in sides:
            sign = 1.0 if side == "L" else -1.0
            pose = {
                f"{side}ShoulderPitch": float(rng.uniform(-0.4, 2.0)),
                f"{side}ShoulderRoll": sign * float(rng.uniform(0.0, 1.0)),
                f"{side}ElbowYaw": sign * float(rng.uniform(-1.5, 0.0)),
                f"{side}ElbowRoll": -sign * float(rng.uniform(0.1, 1.5)),
            }
            group = LeftArm if side == "L" else RightArm
            duration = float(rng.uniform(0.3, 1.0))
            trial.emit(group(JointCommand(pose, 1.0, duration)), priority=LOOK_PRIORITY)
            angles = ",".join(f"{a:+.2f}" for a in pose.values())
            postures.append(f"{side} {angles}")
        return f"arms {'; '.join(postures)}"


def sequence_run(
    seed: int, body: dict, seconds: float, *, arms: bool = False, stop_at_fall: bool = True
) -> SequenceRun:
    """Run ``seconds`` of random emissions (seeded by ``seed``) on the trial NAO ``body``
    (``WalkTrial`` keywords: ``model`` or ``perturbation``); every frame checked as sent."""
    rng = np.random.default_rng(seed)
    trial = WalkTrial(ball=True, seed=seed, **body)
    behaviour = RandomBehaviour(trial, rng, arms=arms)
    model = load_nao_model()
    step = model.velocity * trial.runtime.period * (1.0 + 1e-9)
    done: list[tuple[float, str]] = []
    next_at, last, unsafe = 0.5, None, None
    while trial.t < seconds and not (stop_at_fall and trial.fell):
        if trial.t >= next_at:
            action = behaviour.act()
            done.append((round(trial.t, 2), action))
            # Long enough, mostly, to go all the way up (1 s idle, 1 s rising).
            wait = (2.0, 4.0) if action.startswith("stand high") else (0.2, 2.0)
            next_at = trial.t + rng.uniform(*wait)
        trial.step()
        if unsafe is None:
            unsafe = _unsafe(trial, model, step, last)
        last = (np.array(trial.command.position), np.array(trial.command.stiffness))
    counters = trial.runtime.counters
    errors = counters.cycle_errors + counters.provider_errors
    return SequenceRun(seed, tuple(done), trial.fell_at, unsafe, errors)


def _unsafe(trial: WalkTrial, model, step: np.ndarray, last) -> str | None:
    """What is wrong with the frame just sent (non-finite, outside a limit, a stiff joint
    moved faster than it can), or None."""
    sent = trial.command
    position, stiffness = np.asarray(sent.position), np.asarray(sent.stiffness)
    if not (np.all(np.isfinite(position)) and np.all(np.isfinite(stiffness))):
        return f"a non-finite value at {trial.t:.2f} s"
    if np.any(position < model.lower) or np.any(position > model.upper):
        return f"a target outside its joint's limits at {trial.t:.2f} s"
    if last is not None:
        # A limp joint's target follows the joint (it drives nothing); a stiff one never jumps.
        stiff = (stiffness > 0.0) & (last[1] > 0.0)
        if np.any(np.abs(position - last[0])[stiff] > step[stiff]):
            return f"a stiff joint jumped at {trial.t:.2f} s"
    return None


__all__ = ["RandomBehaviour", "SequenceRun", "sequence_run"]
