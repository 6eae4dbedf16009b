"""Falls and get-ups in physics: pushed over in four directions, standing and walking, the
fall is seen before the impact and the robot is braced; from its front, its back (rolling
onto the front) and a side (likewise) it gets up into the walk-ready stand, over several seeds
and a perturbed body. One fall goes through the daemon over a real LoLA socket."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

from lola_io.joints import JOINT_INDEX, JOINT_NAMES
from motiond import walk_trial
from motiond.runtime import Runtime
from motiond.safety_trial import getup_trial, lie_down, make_sim, push_fall_trial
from motiond.simulated import simulated_daemon
from motiond.walk_trial import Perturbation
from naosim.model_builder import build_spec
from providers.model.robot_model import load_nao_model
from skills.safety import FallPhase
from skills.walk import Walk

#: The fastest the head may meet the floor after a 5 N s push (m/s). Braced as before
#: (arms and head only, legs limp where they were) it met it at 2.6-3.5 m/s falling forwards
#: or backwards; sideways a shoulder lands first.
HEAD_IMPACT_LIMIT = {"front": 2.5, "back": 1.5, "left": 1.2, "right": 1.2}


@pytest.mark.parametrize("walking", [False, True], ids=["standing", "walking"])
@pytest.mark.parametrize("direction", ["front", "back", "left", "right"])
def test_a_pushed_robot_is_seen_falling_braced_lands_head_last_and_gets_up(direction, walking):
    fall = push_fall_trial(direction, walking=walking, impulse=5.0)
    assert fall.impact_at is not None, "the push did not topple the robot"
    assert fall.lead is not None
    assert fall.lead >= 0.2, f"detected only {fall.lead * 1000:.0f} ms before the impact"
    assert fall.protected
    head = fall.head.speed if fall.head else 0.0
    assert head <= HEAD_IMPACT_LIMIT[direction], f"the head met the floor at {head:.2f} m/s"
    assert fall.stood


@pytest.mark.parametrize("seed", range(4))
def test_getting_up_from_the_front(seed):
    result = getup_trial("front", seed)
    assert result.stood and result.attempts == 1, result
    assert result.seconds < 6.5


def test_getting_up_from_the_front_on_a_perturbed_body():
    assert getup_trial("front", 7, Perturbation(seed=2)).stood


@pytest.mark.parametrize(("body", "side"), [(7, "front"), (6, "back")])
def test_the_push_up_starts_from_its_first_posture(body, side):
    # Bodies with twice the usual spreads (masses, centres of mass, servo gains and damping,
    # friction, delay). Their arms lag: the push-up began with the shoulders still rolled in
    # (after the back get-up's roll, an arm under the chest), the table ended head-down, the
    # robot tipped onto its face in the feet-under and stood only at its second try. The
    # push-up now waits for its first posture.
    spread = Perturbation(
        seed=body, mass=0.1, com=0.01, kp=0.2, damping=0.2, friction=(0.5, 1.0), delay=(2, 5)
    )
    result = getup_trial(side, 0, spread)
    assert result.stood and result.attempts == 1, result


def test_a_back_get_up_with_a_hot_right_hip_tips_the_other_way():
    # A very hot right hip pitch (LoLA status 2: the daemon caps its stiffness at 0.4, the
    # motor board cuts it further) cannot push the robot over onto its right side: without
    # the mirrored back get-up it gave up after five tries, from each of four starts. Every
    # other try now tips onto the left side (GetUpBackLeft).
    sim = make_sim(0)
    lie_down(sim, "back", np.random.default_rng(0))
    temperature = sim.servos.temperature.copy()
    temperature[JOINT_INDEX["RHipPitch"]] = 90.0
    sim.servos.set_temperature(temperature)
    runtime = Runtime()
    frame = sim.first_frame()
    routines = []
    for _ in range(round(20.0 / 0.012)):
        frame = sim.step(runtime.step(frame))
        status = runtime.supervisor.status()
        assert runtime.state.temperature_status[JOINT_INDEX["RHipPitch"]] == 2
        if status.getup.routine is not None and status.getup.routine not in routines:
            routines.append(status.getup.routine)
        if status.getup.result is not None:
            break
    assert status.getup.result == "standing" and status.getup.attempts == 2, status.getup
    assert routines == ["GetUpBack", "GetUpFront"]
    assert sim.truth().tilt < 0.3


#: The arm and head servos' velocity gain on the fast-armed NAO (N m s/rad): with naosim's
#: gain and armature it keeps a 2 rad step's overshoot at 0.04 rad.
FAST_ARM_VELOCITY_GAIN = 1.0


def _fast_armed_spec(**kwargs) -> mujoco.MjSpec:
    """naosim's NAO with arm and head servos as fast as their motors: joint damping = URDF
    effort / velocity limit (the torque-speed line reaches zero at the motor table's no-load
    speed, 7.2-8.3 rad/s) and a servo velocity gain so that it does not ring. naosim's own
    arms, damped like the legs, are 5-6 times slower (docs: "naosim"); a real NAO's are not."""
    spec = build_spec(**kwargs)
    model = load_nao_model()
    fast = {
        name: effort / velocity
        for name, effort, velocity in zip(JOINT_NAMES, model.effort, model.velocity, strict=True)
        if name.startswith("Head") or any(k in name for k in ("Shoulder", "Elbow", "WristYaw"))
    }
    for joint in spec.joints:
        if joint.name in fast:
            joint.damping = [fast[joint.name], 0.0, 0.0]
    for actuator in spec.actuators:
        if actuator.name in fast:
            actuator.biasprm[2] = -FAST_ARM_VELOCITY_GAIN
    return spec


@pytest.mark.parametrize("side", ["front", "back"])
def test_the_get_ups_do_not_lean_on_naosim_s_slow_arms(monkeypatch, side):
    # The get-up was found on naosim's slow arms. On this body, from these starts: the back
    # get-up's roll, swinging the upper arm from 2.09 to 0.45 rad in 0.21 s, threw it back
    # onto its back at the first two tries and it stood only after the 20 s; a check after
    # the push-up that wanted both arms still out sideways, as slow arms leave them, made the
    # front get-up give up at every try. (With the pike's ankles at 0.07 rad, its fast arms
    # held the chest forwards, a foot lifted, and 5 of 8 front starts failed.)
    monkeypatch.setattr(walk_trial, "build_spec", _fast_armed_spec)
    result = getup_trial(side, 0, Perturbation(seed=1))
    assert result.stood and not result.fell_after, result
    assert result.attempts == 1, result


def _weaker_nao():
    """A NAO whose servos are all weaker (gains -10 %, damping +10 %: a tired or warm robot)
    with masses and centres of mass off by up to 5 % and 5 mm."""
    rng = np.random.default_rng(3)
    spec = build_spec()
    for body in spec.bodies:
        if body.name != "world" and body.mass > 0.0:
            body.mass = body.mass * (1.0 + rng.uniform(-0.05, 0.05))
            body.ipos = [c + rng.uniform(-0.005, 0.005) for c in body.ipos]
    for actuator in spec.actuators:
        actuator.gainprm[0] = actuator.gainprm[0] * 0.9
        actuator.biasprm[1] = -actuator.gainprm[0]
    for joint in spec.joints:
        if joint.type == mujoco.mjtJoint.mjJNT_HINGE:
            joint.damping = [joint.damping[0] * 1.1, 0, 0]
    return spec.compile()


@pytest.mark.parametrize(("side", "seed"), [("front", 0), ("front", 3), ("back", 0), ("back", 2)])
def test_a_weaker_nao_gets_up_at_the_first_attempt(side, seed):
    # Keyframes that wait for the legs to arrive (skills.safety.routines): without the waits
    # these starts fell in the rise (front) or never tipped off the bridge (back).
    result = getup_trial(side, seed, model=_weaker_nao())
    assert result.stood and result.attempts == 1, result


@pytest.mark.parametrize("bent", [0.0, 1.0], ids=["straight", "knees bent"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_lying_on_a_side_it_rolls_over_that_side_and_gets_up(side, bent):
    # Limp, forearms folded in front of the chest as the fall protection leaves them sideways.
    sim = make_sim(3)
    lie_down(sim, side, np.random.default_rng(3), knees=bent)
    runtime = Runtime()
    frame = sim.first_frame()
    routines = []
    for _ in range(round(20.0 / 0.012)):
        frame = sim.step(runtime.step(frame))
        status = runtime.supervisor.status().getup
        if status.routine is not None and status.routine not in routines:
            routines.append(status.routine)
        if status.result is not None:
            break
    # At the first attempt: the roll's check waits for the roll to end (skills.safety.routines).
    assert status.result == "standing" and status.attempts == 1, status
    # Onto the front, not the back: the roll-over's lead-in straightens the legs first.
    assert routines == [f"RollOver{side.capitalize()}", "GetUpFront"], routines
    assert sim.truth().tilt < 0.3


@pytest.mark.parametrize("seed", range(3))
def test_getting_up_from_the_back(seed):
    result = getup_trial("back", seed)
    assert result.stood, result


async def test_through_the_daemon_a_pushed_robot_falls_is_protected_and_stands_again():
    runtime = Runtime()
    runtime.emit(Walk(), priority=5.0, emitter="test")
    phases = []
    runtime.observers.append(
        lambda now, frame, out: phases.append(runtime.supervisor.status().fall.phase)
    )
    async with simulated_daemon(start="StandInit", runtime=runtime) as sim:
        await runtime.wait(1.5)
        sim.body.push((50.0, 0.0, 0.0), 0.1)
        await runtime.wait(1.5)
        assert FallPhase.FALLING in phases and sim.body.truth().fallen
        for _ in range(20):
            await runtime.wait(1.0)
            if runtime.supervisor.status().getup.result == "standing":
                break
        assert runtime.supervisor.status().getup.result == "standing"
        await runtime.wait(1.0)
        truth = sim.body.truth()
        assert not truth.fallen and truth.tilt < 0.3
        assert np.isfinite(runtime.last_frame.position).all()
