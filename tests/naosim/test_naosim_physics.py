"""The simulated NAO stands, falls, feels its weight and gravity, and turns."""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lola_io.frames import ActuatorFrame
from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from naosim import postures
from naosim.model_builder import build_spec
from naosim.sensors import GRAVITY
from naosim.sim import NaoSim
from providers.model.kinematics import nao_kinematics


def test_standing_posture_is_feet_flat_under_the_hips_per_project_kinematics():
    q = postures.standing()
    kin = nao_kinematics()
    left, right = kin.sole_poses(q)
    for sole in (left, right):
        assert sole[:3, :3] == pytest.approx(np.eye(3), abs=1e-9)
    assert left[2, 3] == pytest.approx(right[2, 3])
    com = kin.center_of_mass(q)
    # The centre of mass stands over the soles' support rectangle.
    foot = kin.model.foot
    assert left[0, 3] - foot.rear < com[0] < left[0, 3] + foot.front
    assert right[1, 3] < com[1] < left[1, 3]


def test_standing_ten_seconds_holds_still(stand_command):
    sim = NaoSim(seed=1)
    start = sim.truth().torso_position
    for _ in range(round(10.0 / 0.012)):
        sim.step(stand_command)
        assert not sim.truth().fallen
    drift = np.linalg.norm(sim.truth().torso_position[:2] - start[:2])
    assert sim.time == pytest.approx(10.0, abs=0.012)
    assert drift < 0.02


def test_stiffness_zero_collapses_within_three_seconds():
    sim = NaoSim(seed=2)
    limp = ActuatorFrame.limp(postures.standing())
    fell_at = None
    while sim.time < 3.0:
        sim.step(limp)
        if sim.truth().fallen:
            fell_at = sim.time
            break
    assert fell_at is not None and fell_at <= 3.0


def test_standing_fsr_total_is_the_robot_weight(stand_command):
    sim = NaoSim(seed=3)
    for _ in range(40):
        frame = sim.step(stand_command)
    assert frame.fsr.sum() == pytest.approx(sim.robot_mass, rel=0.10)
    assert np.all(frame.fsr >= 0.0)
    # Both feet carry a share, and a symmetric stance loads them alike.
    assert frame.left_fsr_total == pytest.approx(frame.right_fsr_total, rel=0.15)


def test_accelerometer_reads_gravity_at_rest(stand_command):
    sim = NaoSim(seed=4)
    for _ in range(40):
        frame = sim.step(stand_command)
    assert np.linalg.norm(frame.accelerometer) == pytest.approx(GRAVITY, abs=0.2)
    # Upright: z is about -9.8 (the LoLA convention most teams read).
    assert frame.accelerometer[2] < -9.0
    assert np.all(np.abs(frame.gyroscope) < 0.05)


def test_accelerometer_follows_the_torso_when_lying_on_its_front():
    frame = NaoSim(start="front", noise=0.0).first_frame()
    # Face down: the torso's x axis points at the floor, so gravity shows on +x.
    assert frame.accelerometer[0] == pytest.approx(GRAVITY, abs=0.5)
    assert frame.angles[1] == pytest.approx(math.pi / 2, abs=0.2)


def _floating_sim() -> NaoSim:
    spec = build_spec(collisions=False)
    spec.option.gravity = [0.0, 0.0, 0.0]
    return NaoSim(spec.compile(), noise=0.0)


@pytest.mark.parametrize("omega", [(0.5, 0.0, 0.0), (0.0, -0.8, 0.0), (0.3, 0.2, -1.0)])
def test_gyroscope_reports_a_commanded_body_rotation(omega):
    sim = _floating_sim()
    dof = sim.binding.root_dof
    # A free joint's angular velocity is in the torso frame, as the IMU (aligned) measures it.
    sim.data.qvel[dof + 3 : dof + 6] = omega
    frame = sim.step(None)
    # The limbs, held by their servos, change the torso's spin a little within the cycle.
    assert frame.gyroscope == pytest.approx(np.array(omega), rel=0.1, abs=0.03)


def test_gyroscope_integrates_to_the_torso_pitch_change(stand_command):
    sim = NaoSim(noise=0.0)
    for _ in range(20):
        sim.step(stand_command)
    lean = stand_command.position.copy()
    # Lean the whole body forward from the ankles, slowly, and integrate the gyro's y axis.
    for name in ("LAnklePitch", "RAnklePitch"):
        lean[JOINT_INDEX[name]] -= 0.08
    before = sim.truth().torso_rpy[1]
    integrated = 0.0
    for i in range(60):
        alpha = min(1.0, (i + 1) / 40)
        target = (1 - alpha) * stand_command.position + alpha * lean
        frame = sim.step(ActuatorFrame(position=target, stiffness=np.ones(NUM_JOINTS)))
        integrated += frame.gyroscope[1] * 0.012
    change = sim.truth().torso_rpy[1] - before
    assert change > 0.04  # forward, and by a fair angle
    assert not sim.truth().fallen
    assert integrated == pytest.approx(change, abs=0.02)


@pytest.mark.parametrize("delay", [0, 1, 3, 5])
def test_joint_step_appears_no_earlier_than_the_configured_delay(delay, stand_command):
    sim = NaoSim(delay_cycles=delay, noise=0.0)
    for _ in range(10):
        sim.step(stand_command)
    head = JOINT_INDEX["HeadYaw"]
    at_rest = sim.sensor_frame().position[head]
    stepped = stand_command.position.copy()
    stepped[head] += 0.5
    command = ActuatorFrame(position=stepped, stiffness=np.ones(NUM_JOINTS))
    moved = [abs(sim.step(command).position[head] - at_rest) > 1e-3 for _ in range(delay + 3)]
    # The first `delay` frames after the command show the old target; the next one moves.
    assert moved == [False] * delay + [True] * 3


def test_stiffness_echo_and_thermal_status_rise_with_load():
    sim = NaoSim(noise=0.0)
    frame = sim.first_frame()
    assert np.all(frame.stiffness == 1.0)
    assert np.all(frame.status == 0)
    sim.servos.set_temperature(np.linspace(70.0, 100.0, NUM_JOINTS))
    status = sim.servos.status()
    assert np.all(np.diff(status) >= 0)
    assert status[0] == 0 and status[-1] == 3
    # A critical joint goes limp whatever the client asks.
    frame = sim.step(ActuatorFrame(position=postures.standing(), stiffness=np.ones(NUM_JOINTS)))
    assert frame.stiffness[-1] == 0.0 and frame.stiffness[0] == 1.0


def test_currents_come_from_torque_and_drain_the_battery(stand_command):
    sim = NaoSim(noise=0.0)
    for _ in range(20):
        frame = sim.step(stand_command)
    knee = JOINT_INDEX["LKneePitch"]
    head = JOINT_INDEX["HeadYaw"]
    # The knees carry the body; the head yaw carries nothing.
    assert frame.current[knee] > 10 * frame.current[head]
    assert frame.battery[0] < 1.0
    assert frame.battery[2] < 0.0  # discharging
    assert frame.temperature[knee] > frame.temperature[head]


def test_touch_is_settable_and_unknown_names_are_refused():
    sim = NaoSim(noise=0.0)
    sim.set_touch("HeadFront")
    assert sim.step(None).touched("HeadFront")
    sim.set_touch("HeadFront", False)
    assert not sim.step(None).touched("HeadFront")
    with pytest.raises(ValueError, match="unknown touch sensor 'Nose'"):
        sim.set_touch("Nose")


def test_sonar_sees_the_floor_when_lying_face_down():
    assert NaoSim(start="front", noise=0.0).first_frame().sonar == pytest.approx([0.2, 0.2])
    assert NaoSim(noise=0.0).first_frame().sonar == pytest.approx([2.55, 2.55])


_SHARED = {}


def _shared_sim() -> NaoSim:
    # One simulator for the property below: building one costs more than resetting it.
    if "sim" not in _SHARED:
        _SHARED["sim"] = NaoSim(noise=0.0)
    return _SHARED["sim"]


@settings(max_examples=15)
@given(
    roll=st.floats(-0.08, 0.08),
    pitch=st.floats(-0.08, 0.08),
    shift=st.floats(-0.04, 0.04),
)
def test_fsr_cells_are_never_negative_and_add_up_to_the_floor_load(roll, pitch, shift):
    sim = _shared_sim()
    q = postures.standing()
    for side in "LR":
        q[JOINT_INDEX[f"{side}AnkleRoll"]] += roll
        q[JOINT_INDEX[f"{side}AnklePitch"]] += pitch
    q[JOINT_INDEX["LHipRoll"]] += shift
    q[JOINT_INDEX["RHipRoll"]] += shift
    sim.reset_pose(q, settle=0.05)
    frame = sim.step(ActuatorFrame(q, np.ones(NUM_JOINTS)))
    force = np.zeros(6)
    floor_load = 0.0
    for i in range(sim.data.ncon):
        mujoco.mj_contactForce(sim.model, sim.data, i, force)
        floor_load += force[0]
    assert np.all(frame.fsr >= 0.0)
    assert frame.fsr.sum() == pytest.approx(floor_load / GRAVITY, rel=1e-9, abs=1e-12)


def test_non_finite_commands_hold_the_last_target_and_go_limp():
    sim = NaoSim(delay_cycles=0, noise=0.0)
    q = postures.standing()
    bad_target, bad_stiffness = q.copy(), np.ones(NUM_JOINTS)
    bad_target[JOINT_INDEX["HeadYaw"]] = np.nan
    bad_stiffness[JOINT_INDEX["HeadPitch"]] = np.nan
    frame = sim.step(ActuatorFrame(bad_target, bad_stiffness))
    assert np.isfinite(sim.servos.applied_target).all()
    assert sim.servos.applied_target[JOINT_INDEX["HeadYaw"]] == q[JOINT_INDEX["HeadYaw"]]
    assert frame.stiffness[JOINT_INDEX["HeadPitch"]] == 0.0
    assert frame.stiffness[JOINT_INDEX["HeadYaw"]] == 1.0
