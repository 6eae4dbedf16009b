"""Scenario API, ground truth, the truth log, determinism and the --model contract."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lola_io.frames import ActuatorFrame
from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from naosim import postures
from naosim.binding import ModelContractError
from naosim.body import NaoSimBody
from naosim.model_builder import build_spec
from naosim.sim import NaoSim
from naosim.truth import TRUTH_LOG_COLUMNS, GroundTruth


@pytest.mark.parametrize(("start", "pitch"), [("front", math.pi / 2), ("back", -math.pi / 2)])
def test_lying_starts_are_fallen_and_face_the_right_way(start, pitch):
    truth = NaoSim(start=start, noise=0.0).truth()
    assert truth.fallen
    assert truth.torso_rpy[1] == pytest.approx(pitch, abs=0.2)


def test_sitting_start_rests_on_the_floor():
    sim = NaoSim(start="sitting", noise=0.0)
    before = sim.truth()
    for _ in range(80):
        sim.step(None)
    after = sim.truth()
    # At rest on its seat: neither tipping over nor sliding.
    assert abs(after.torso_rpy[1]) < 0.5
    assert np.linalg.norm(after.torso_position - before.torso_position) < 0.01


def test_unknown_start_and_bad_pose_are_refused():
    sim = NaoSim(noise=0.0)
    with pytest.raises(ValueError, match="unknown start 'upside-down'"):
        sim.reset("upside-down")
    with pytest.raises(ValueError, match="expected 25 finite angles"):
        sim.reset_pose(np.zeros(24))
    with pytest.raises(ValueError, match=r"stiffness must be in 0\.\.1"):
        sim.reset_pose(postures.standing(), stiffness=2.0)
    with pytest.raises(ValueError, match="delay_cycles must be a whole number >= 0"):
        NaoSim(delay_cycles=-1)
    with pytest.raises(ValueError, match="noise must be >= 0"):
        NaoSim(noise=float("nan"))


def test_reset_at_a_pose_puts_the_feet_on_the_floor_where_asked():
    sim = NaoSim(noise=0.0)
    sim.reset_pose(postures.standing(), xy=(1.0, -0.5), torso_rpy=(0.0, 0.0, 0.7))
    truth = sim.truth()
    assert truth.torso_position[:2] == pytest.approx([1.0, -0.5], abs=0.02)
    assert truth.torso_rpy[2] == pytest.approx(0.7, abs=0.02)
    for sole in (truth.left_sole_position, truth.right_sole_position):
        assert sole[2] == pytest.approx(0.0, abs=0.003)
    assert not truth.fallen


def test_a_hard_push_topples_the_robot_and_a_soft_one_does_not(stand_command):
    soft, hard = NaoSim(noise=0.0), NaoSim(noise=0.0)
    soft.push((0.0, 3.0, 0.0), 0.1)
    hard.push((0.0, 80.0, 0.0), 0.2)
    for _ in range(250):
        soft.step(stand_command)
        hard.step(stand_command)
    assert not soft.truth().fallen
    assert hard.truth().fallen
    with pytest.raises(ValueError, match="finite 3-vector"):
        soft.push((1.0, 2.0), 0.1)
    with pytest.raises(ValueError, match="duration must be > 0"):
        soft.push((1.0, 2.0, 0.0), 0.0)


def test_floor_friction_decides_whether_a_pushed_robot_slides(stand_command):
    slippery, grippy = NaoSim(noise=0.0), NaoSim(noise=0.0)
    slippery.set_floor_friction(0.02)
    for sim in (slippery, grippy):
        sim.push((6.0, 0.0, 0.0), 0.3)
        for _ in range(40):
            sim.step(stand_command)
    slid = slippery.truth().left_sole_position[0]
    held = grippy.truth().left_sole_position[0]
    assert abs(held) < 0.002
    assert slid > 0.01
    with pytest.raises(ValueError, match="floor friction must be >= 0"):
        grippy.set_floor_friction(-1.0)


def test_ball_placed_and_rolling_is_in_the_ground_truth():
    sim = NaoSim(ball=True, noise=0.0)
    sim.place_ball(0.5, 0.2, vx=1.0)
    for _ in range(42):
        sim.step(None)
    ball = sim.truth().ball
    assert 0.7 < ball[0] < 1.0
    assert ball[1] == pytest.approx(0.2, abs=0.01)
    assert ball[2] == pytest.approx(0.05, abs=0.002)
    with pytest.raises(ValueError, match="no ball"):
        NaoSim(noise=0.0).place_ball(0.0, 0.0)


def test_truth_reports_com_between_the_feet_when_standing():
    truth = NaoSim(noise=0.0).truth()
    assert truth.right_sole_position[1] < truth.com[1] < truth.left_sole_position[1]
    assert 0.2 < truth.com[2] < 0.35
    assert np.isnan(truth.ball).all()


@settings(max_examples=40)
@given(
    z=st.floats(0.0, 0.6),
    tilt=st.floats(0.0, math.pi),
)
def test_fallen_is_low_torso_or_large_tilt(z, tilt):
    truth = GroundTruth(
        t=0.0,
        torso_position=[0.0, 0.0, z],
        torso_rpy=[0.0, tilt, 0.0],
        com=[0.0, 0.0, 0.0],
        left_sole_position=[0.0, 0.0, 0.0],
        left_sole_rpy=[0.0, 0.0, 0.0],
        right_sole_position=[0.0, 0.0, 0.0],
        right_sole_rpy=[0.0, 0.0, 0.0],
        ball=[math.nan] * 3,
        tilt=tilt,
    )
    assert truth.fallen == (z < 0.20 or tilt > math.radians(60))


def _scripted_run(path, seed: int) -> list:
    frames = []
    with NaoSimBody(truth_log=path, seed=seed, ball=True) as body:
        body.place_ball(0.3, 0.0, vx=0.5)
        q = postures.standing()
        for i in range(150):
            target = q.copy()
            target[JOINT_INDEX["HeadYaw"]] = 0.5 * math.sin(i * 0.05)
            if i == 50:
                body.push((0.0, 10.0, 0.0), 0.1)
            command = None if i % 7 == 3 else ActuatorFrame(target, np.ones(NUM_JOINTS))
            frames.append(body.step(command, 0.012))
    return frames


def test_same_seed_and_commands_give_an_identical_truth_log(tmp_path):
    a = _scripted_run(tmp_path / "a.csv", seed=7)
    b = _scripted_run(tmp_path / "b.csv", seed=7)
    c = _scripted_run(tmp_path / "c.csv", seed=8)
    text = (tmp_path / "a.csv").read_text()
    assert text == (tmp_path / "b.csv").read_text()
    assert a == b
    # Another seed changes the sensor noise, never the world.
    assert a != c
    rows = list(csv.reader(text.splitlines()))
    assert tuple(rows[0]) == TRUTH_LOG_COLUMNS
    assert len(rows) == 1 + 1 + 150  # header, starting state, one row per frame
    assert float(rows[-1][0]) == pytest.approx(150 * 0.012)
    assert float(rows[-1][8]) > 0.3  # the ball rolled


def test_the_truth_log_ends_with_the_com_and_the_soles(tmp_path):
    path = tmp_path / "truth.csv"
    with NaoSimBody(truth_log=path, noise=0.0) as body:
        truth = body.truth()
    with path.open(newline="") as f:
        (row,) = csv.DictReader(f)
    # Added at the end: older readers by name or by the first ten columns still work.
    first_ten = ("t", "x", "y", "z", "roll", "pitch", "yaw", "fallen", "ball_x", "ball_y")
    assert TRUTH_LOG_COLUMNS[:10] == first_ten
    logged = {name: float(row[name]) for name in TRUTH_LOG_COLUMNS[10:]}
    expected = {
        **dict(zip(("com_x", "com_y", "com_z"), truth.com, strict=True)),
        **dict(zip(("lfoot_x", "lfoot_y", "lfoot_z"), truth.left_sole_position, strict=True)),
        "lfoot_yaw": truth.left_sole_rpy[2],
        **dict(zip(("rfoot_x", "rfoot_y", "rfoot_z"), truth.right_sole_position, strict=True)),
        "rfoot_yaw": truth.right_sole_rpy[2],
    }
    assert logged == pytest.approx(expected, abs=1e-6)
    assert logged["rfoot_y"] < logged["com_y"] < logged["lfoot_y"]


def _xml_with(renames: dict[str, str]) -> str:
    xml = build_spec().to_xml()
    for old, new in renames.items():
        xml = xml.replace(f'"{old}"', f'"{new}"')
    return xml


def test_another_mjcf_following_the_contract_runs(tmp_path, stand_command):
    path = tmp_path / "nao.xml"
    path.write_text(_xml_with({}))
    sim = NaoSim.from_file(path, noise=0.0)
    for _ in range(80):
        frame = sim.step(stand_command)
    assert not sim.truth().fallen
    assert frame.fsr.sum() == pytest.approx(sim.robot_mass, rel=0.1)


def test_a_model_missing_leg_joints_is_refused_with_their_names(tmp_path):
    path = tmp_path / "legless.xml"
    path.write_text(_xml_with({"LKneePitch": "knee_l", "RAnkleRoll": "ankle_roll_r"}))
    with pytest.raises(ModelContractError, match="LKneePitch, RAnkleRoll"):
        NaoSim.from_file(path)


def test_a_model_without_hands_reads_them_neutral(tmp_path, stand_command):
    path = tmp_path / "handless.xml"
    path.write_text(_xml_with({"LHand": "gripper_l", "RHand": "gripper_r"}))
    sim = NaoSim.from_file(path, noise=0.0)
    hands = stand_command.position.copy()
    hands[[JOINT_INDEX["LHand"], JOINT_INDEX["RHand"]]] = 0.8
    frame = sim.step(ActuatorFrame(hands, np.ones(NUM_JOINTS)))
    assert frame.joint("LHand") == 0.0 and frame.joint("RHand") == 0.0


def test_a_missing_model_file_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no MJCF model"):
        NaoSim.from_file(tmp_path / "nope.xml")


def test_a_lifted_robot_hangs_upright_with_its_feet_unloaded_and_lands_when_lowered(
    stand_command,
):
    sim = NaoSim(noise=0.0)
    z0 = float(sim.truth().torso_position[2])
    sim.lift(0.1)
    for _ in range(100):
        frame = sim.step(stand_command)
    assert float(sim.truth().torso_position[2]) == pytest.approx(z0 + 0.1, abs=0.02)
    assert frame.fsr.sum() == 0.0 and sim.truth().tilt < 0.1
    sim.lift(-0.1)
    for _ in range(100):
        frame = sim.step(stand_command)
    sim.lift(None)
    for _ in range(100):
        frame = sim.step(stand_command)
    assert frame.fsr.sum() > 4.0 and not sim.truth().fallen


def test_lift_refuses_a_non_finite_height():
    with pytest.raises(ValueError, match="finite"):
        NaoSim(noise=0.0).lift(math.nan)


def test_body_on_floor_is_the_impact_not_the_feet(stand_command):
    sim = NaoSim(noise=0.0)
    sim.step(stand_command)
    assert not sim.body_on_floor()
    assert NaoSim(start="front", noise=0.0).body_on_floor()


def test_a_lifted_start_holds_the_robot_upright_with_its_feet_in_the_air():
    sim = NaoSim(start="lifted", noise=0.0)
    for _ in range(50):
        frame = sim.step(None)
    assert frame.left_fsr_total == frame.right_fsr_total == 0.0
    truth = sim.truth()
    assert truth.torso_position[2] > 0.35  # standing, the torso is about 0.27 m up
    assert abs(truth.torso_rpy[0]) < 0.05 and abs(truth.torso_rpy[1]) < 0.05
