"""Random sequences of what behaviours emit, through the runtime, on the simulated NAO: walks in
every direction, stops, in-walk and standing kicks at balls put in front of the robot, scripts
(over a walk or not) and withdrawals, a new emission every 0.2-2 s. Whatever the order, the
runtime never errs, every frame it sends is finite, inside the joints' limits and no faster than
they move, and nothing makes the robot fall (no pushes here, no Freeze, no Relax: those bring it
down by design).

Found this way: StandInit emitted above a stepping walk tipped the robot over from single
support (``skills.script``: such scripts now let the walk close its feet first); a look above a
whole-body script handed the legs to the walk below, and the script took them back mid-step;
a safe sit released 60 ms in had the walk start from the sit's squat (``ServoTable
.positions_at``). Looks and safe sits are among the emissions since.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from motiond.walk_trial import Perturbation, WalkTrial
from providers.actuation import Head, JointCommand
from providers.model import load_nao_model
from skills.kick.tasks import InWalkKick, Kick
from skills.script import Script
from skills.script_files import shipped_script, shipped_script_names
from skills.walk.tasks import Walk

_SCRIPTS = [n for n in shipped_script_names() if not n.startswith("GetUp") and n != "Relax"]
_WALK, _ABOVE, _LOOK = 1.0, 2.0, 3.0
_SECONDS = 25.0


def _act(trial: WalkTrial, rng: np.random.Generator, sitting: list[bool]) -> str:
    """Emit one random thing from the trial's behaviour (or, as after a LoLA outage, the
    runtime's safe sit, and its release); what it was."""
    behaviour = trial._behaviour
    if sitting[0] and rng.random() < 0.7:
        trial.runtime.release_safe_sit()
        sitting[0] = False
        return "released the safe sit"
    actions = ["walk", "walk", "sideways", "stop", "in-walk", "kick", "script", "look", "safe sit"]
    action = str(rng.choice(actions))
    if action == "look":
        look = {
            "HeadYaw": float(rng.uniform(-1.5, 1.5)),
            "HeadPitch": float(rng.uniform(-0.6, 0.5)),
        }
        behaviour.emit(Head(JointCommand(look, 1.0, float(rng.uniform(0.2, 1.0)))), priority=_LOOK)
    elif action == "safe sit":
        trial.runtime.safe_sit()
        sitting[0] = True
    elif action == "walk":
        forward, left, turn = rng.uniform(-0.1, 0.4), rng.uniform(-0.1, 0.1), rng.uniform(-0.8, 0.8)
        behaviour.emit(Walk(float(forward), float(left), float(turn)), priority=_WALK)
    elif action == "sideways":
        behaviour.emit(Walk(0.0, float(rng.uniform(-0.2, 0.2)), 0.0), priority=_WALK)
    elif action == "stop":
        behaviour.emit_none(Walk)
    elif action in ("in-walk", "kick"):
        ball_x, ball_y = float(rng.uniform(0.15, 0.9)), float(rng.choice([-0.05, 0.05]))
        truth = trial.truth
        middle = (truth.left_sole_position + truth.right_sole_position) / 2.0
        c, s = math.cos(truth.torso_rpy[2]), math.sin(truth.torso_rpy[2])
        trial.sim.place_ball(
            float(middle[0] + c * ball_x - s * ball_y), float(middle[1] + s * ball_x + c * ball_y)
        )
        if action == "in-walk":
            behaviour.emit(InWalkKick(ball_x, ball_y), priority=_ABOVE)
        else:
            direction, power = float(rng.uniform(-0.4, 0.4)), float(rng.uniform(0.3, 1.0))
            behaviour.emit(Kick(min(ball_x, 0.2), ball_y, direction, power), priority=_ABOVE)
    elif action == "script":
        name = str(rng.choice(_SCRIPTS))
        behaviour.emit(Script(shipped_script(name)), priority=_ABOVE)
        action = f"script {name}"
    if rng.random() < 0.2:
        for task_type in (Kick, InWalkKick, Script):
            behaviour.emit_none(task_type)
        action += ", withdrew kicks and scripts"
    return action


@pytest.mark.parametrize(("seed", "body"), [(0, None), (1, None), (2, None), (3, 2)])
def test_random_emissions_never_err_send_an_unsafe_frame_or_fell_the_robot(seed, body):
    rng = np.random.default_rng(seed)
    where = {} if body is None else {"perturbation": Perturbation(seed=body)}
    trial = WalkTrial(ball=True, seed=seed, **where)
    model = load_nao_model()
    step = model.velocity * trial.runtime.period * (1.0 + 1e-9)
    done: list[tuple[float, str]] = []
    next_at, last = 0.5, None
    sitting = [False]
    while trial.t < _SECONDS:
        if trial.t >= next_at:
            done.append((round(trial.t, 2), _act(trial, rng, sitting)))
            next_at = trial.t + rng.uniform(0.2, 2.0)
        trial.step()
        sent = trial.command
        position, stiffness = np.asarray(sent.position), np.asarray(sent.stiffness)
        assert np.all(np.isfinite(position)) and np.all(np.isfinite(stiffness))
        assert np.all(position >= model.lower) and np.all(position <= model.upper)
        if last is not None:
            # A limp joint's target follows the joint (it drives nothing); a stiff one never
            # jumps.
            stiff = (stiffness > 0.0) & (last[1] > 0.0)
            assert np.all(np.abs(position - last[0])[stiff] <= step[stiff]), done[-3:]
        last = (position.copy(), stiffness.copy())
        assert not trial.fell, f"fell at {trial.t:.2f} s after {done[-4:]}"
    counters = trial.runtime.counters
    assert counters.cycle_errors == 0 and counters.provider_errors == 0
    assert len(done) >= 15
