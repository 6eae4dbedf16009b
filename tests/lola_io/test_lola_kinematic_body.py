"""The kinematic NAO: speed-limited joints, a level IMU, weight on the lower foot."""

from __future__ import annotations

import math

import numpy as np
import pytest
import trio
from hypothesis import given
from hypothesis import strategies as st

from lola_io.connection import LolaConnection
from lola_io.frames import ActuatorFrame
from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from lola_io.server import LolaServer
from naosim.kinematic_body import KinematicBody
from providers.model import load_nao_model

MODEL = load_nao_model()
DT = 0.012


def unit_arrays():
    return st.lists(st.floats(0, 1), min_size=NUM_JOINTS, max_size=NUM_JOINTS).map(np.array)


@given(unit_arrays(), unit_arrays(), st.lists(st.floats(-1, 2), min_size=25, max_size=25))
def test_joints_move_at_most_speed_times_stiffness_and_never_overshoot(start, goal, stiffness):
    lower, upper = MODEL.lower, MODEL.upper
    body = KinematicBody(initial_position=lower + start * (upper - lower))
    target = lower + goal * (upper - lower)
    stiffness = np.array(stiffness)
    before = body.position.copy()
    frame = body.step(ActuatorFrame(position=target, stiffness=stiffness), DT)
    moved = frame.position - before
    allowed = MODEL.velocity * np.clip(stiffness, 0, 1) * DT
    assert np.all(np.abs(moved) <= allowed + 1e-12)
    assert np.all(np.abs(frame.position - target) <= np.abs(before - target) + 1e-12)
    assert np.all((frame.position >= lower) & (frame.position <= upper))


def test_a_stiff_joint_reaches_its_target_in_the_time_its_speed_allows():
    body = KinematicBody()
    knee = JOINT_INDEX["LKneePitch"]
    target = np.zeros(NUM_JOINTS)
    target[knee] = 1.0
    command = ActuatorFrame(position=target, stiffness=np.ones(NUM_JOINTS))
    cycles = int(np.ceil(1.0 / (MODEL.velocity[knee] * DT)))
    for _ in range(cycles - 1):
        frame = body.step(command, DT)
    assert frame.position[knee] < 1.0
    frame = body.step(None, DT)  # no new command: the last one stays in force
    assert frame.position[knee] == pytest.approx(1.0)


def test_relaxed_joints_stay_where_they_are():
    body = KinematicBody(initial_position=np.full(NUM_JOINTS, 0.1))
    frame = body.step(ActuatorFrame(position=np.zeros(25), stiffness=np.full(25, -1.0)), DT)
    assert np.array_equal(frame.position, MODEL.clamp(np.full(NUM_JOINTS, 0.1)))
    assert not frame.stiffness.any()


def bent(knee: str, angle: float) -> np.ndarray:
    position = np.zeros(NUM_JOINTS)
    position[JOINT_INDEX[knee]] = angle
    return position


@pytest.mark.parametrize(
    ("position", "left_share"),
    [
        (np.zeros(NUM_JOINTS), 0.5),
        (bent("RKneePitch", 0.5), 1.0),  # right knee bent: right foot higher, left carries all
        (bent("LKneePitch", 0.5), 0.0),
        # The left ankle lifted by 2 mm (tibia 0.1029 m): inside the 5 mm band, 30 % left.
        (bent("LKneePitch", math.acos(1 - 0.002 / 0.1029)), 0.3),
    ],
)
def test_weight_rests_on_the_lower_foot(position, left_share):
    frame = KinematicBody(initial_position=position).first_frame()
    mass = MODEL.total_mass
    assert frame.fsr.sum() == pytest.approx(mass)
    assert frame.left_fsr_total == pytest.approx(mass * left_share, abs=0.01 * mass)
    assert np.allclose(frame.fsr[:4], frame.fsr[0]) and np.allclose(frame.fsr[4:], frame.fsr[4])


def test_imu_is_level():
    frame = KinematicBody().first_frame()
    assert frame.accelerometer == pytest.approx([0.0, 0.0, -9.80665])
    assert not frame.gyroscope.any() and not frame.angles.any()


async def test_kinematic_body_behind_the_server_follows_the_client(sock_path, autojump_clock):
    body = KinematicBody()
    target = np.zeros(NUM_JOINTS)
    target[JOINT_INDEX["HeadYaw"]] = 0.5
    async with trio.open_nursery() as nursery:
        await nursery.start(LolaServer(body, sock_path).serve)
        async with LolaConnection(sock_path) as conn:
            for _ in range(20):
                frame = await conn.__anext__()
                await conn.send(ActuatorFrame.complete(target, np.ones(NUM_JOINTS)))
        nursery.cancel_scope.cancel()
    assert frame.joint("HeadYaw") == pytest.approx(0.5, abs=1e-6)
