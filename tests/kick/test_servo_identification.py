"""Servo identification for the kick's feed-forward: the fit recovers a known servo, a lifted
naosim NAO's delay and leads are found, a robot on its feet is refused, and ``motiond
identify`` does it over a real LoLA socket."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from lola_io.server import LolaServer
from motiond.safety import SafetyStage
from motiond.servo_identification import (
    LIFTED_FRAMES,
    MAX_DELAY,
    NotLifted,
    ServoIdentification,
    fit_joint,
    fit_leg,
)
from naosim.model_builder import JOINT_DAMPING
from naosim.sim import NaoSim
from providers.interpolation import minimum_jerk_profile
from skills.kick.params import load_kick_parameters

PERIOD = 0.012


def _servo(u: np.ndarray, delay: int, lead_v: float, lead_w: float) -> np.ndarray:
    """The angles read in each frame of a linear servo (J q'' + c q' = k (u(t - delay) - q),
    J / k = lead_w, c / k = lead_v) sent ``u`` (one command answering each frame, held for a
    cycle), integrated at 1 ms."""
    q, dq, sub = 0.0, 0.0, 12
    measured = np.empty(len(u))
    for n in range(len(u)):
        measured[n] = q
        target = u[n - delay] if n - delay >= 0 else 0.0
        for _ in range(sub):
            dq += (target - q - lead_v * dq) / lead_w * PERIOD / sub
            q += dq * PERIOD / sub
    return measured


def _servo_record(delay: int, lead_v: float, lead_w: float, seconds: float = 8.0):
    """(commands, angles) of that servo under a sum of sines."""
    t = np.arange(int(seconds / PERIOD)) * PERIOD
    u = 0.1 * (np.sin(2 * np.pi * 0.7 * t) + np.sin(2 * np.pi * 2.3 * t + 1) / 2)
    u += 0.05 * np.sin(2 * np.pi * 4.1 * t + 2)
    return u, _servo(u, delay, lead_v, lead_w)


def _swing_error(delay: int, lead_v: float, lead_w: float, ff: tuple[int, float, float]):
    """How far (rad rms) that servo's angles stray from a kick-like swing (0.4 rad in 0.25 s)
    whose commands lead it as the kick does with ``ff`` (delay, velocity and accel leads)."""
    t = np.arange(200) * PERIOD
    x = np.clip((t - 0.6) / 0.25, 0.0, 1.0)
    plan = 0.4 * minimum_jerk_profile(x)
    rate = np.gradient(plan, PERIOD)
    accel = np.gradient(rate, PERIOD)
    d, v, w = ff
    ahead = np.minimum(np.arange(len(t)) + d, len(t) - 1)
    u = plan[ahead] + v * rate[ahead] + w * accel[ahead]
    return float(np.sqrt(np.mean((_servo(u, delay, lead_v, lead_w) - plan) ** 2)))


@settings(max_examples=20, deadline=None)
@given(
    delay=st.integers(0, 5),
    hertz=st.floats(2.0, 6.0),  # a position servo's natural frequency (naosim's legs: 3 Hz)
    damping=st.floats(0.3, 1.0),  # ... and damping ratio (naosim's: 0.5)
)
def test_the_fit_leads_a_servo_as_well_as_its_true_constants(delay, hertz, damping):
    omega = 2 * np.pi * hertz
    lead_v, lead_w = 2 * damping / omega, 1 / omega**2
    u, q = _servo_record(delay, lead_v, lead_w)
    fit = fit_joint("RKneePitch", u, q, PERIOD)
    # A held command acts from half-way between two delays, so on fast, well-damped servos
    # the fit may take one cycle more and a smaller acceleration lead: the same lead in all.
    assert fit.delay in (delay, delay + 1)
    assert fit.velocity_lead == pytest.approx(lead_v, rel=0.15)
    assert 0.0 <= fit.accel_lead <= 1.3 * lead_w
    assert fit.gravity_share == pytest.approx(1.0, abs=0.02)
    # What the kick needs: its swing led by the fitted constants is followed as closely as
    # when led by the servo's own, and far closer than unled.
    ours = _swing_error(delay, lead_v, lead_w, (fit.delay, fit.velocity_lead, fit.accel_lead))
    true = _swing_error(delay, lead_v, lead_w, (delay, lead_v, lead_w))
    unled = _swing_error(delay, lead_v, lead_w, (0, 0.0, 0.0))
    assert ours <= max(1.5 * true, 0.004)
    assert ours < 0.3 * unled


def test_one_delay_for_the_leg_and_bad_records_refused():
    records = {name: _servo_record(2, 0.05, 0.003) for name in ("RHipPitch", "RKneePitch")}
    fits = fit_leg(records, PERIOD)
    assert [f.delay for f in fits] == [2, 2]
    u, q = records["RHipPitch"]
    with pytest.raises(ValueError, match="too few"):
        fit_joint("RHipPitch", u[:20], q[:20])
    with pytest.raises(ValueError, match="non-finite"):
        fit_joint("RHipPitch", np.where(np.arange(len(u)) == 5, np.nan, u), q)
    with pytest.raises(ValueError, match="delay"):
        fit_joint("RHipPitch", u, q, delay=MAX_DELAY + 1)


def _lifted(delay: int) -> tuple[NaoSim, object]:
    sim = NaoSim(seed=0, delay_cycles=delay, start="lifted")
    for _ in range(50):
        sensor = sim.step(None)
    return sim, sensor


@pytest.mark.parametrize("delay", [2, 4])
def test_a_lifted_naosim_nao_is_identified(delay):
    sim, sensor = _lifted(delay)
    session = ServoIdentification("left", seconds=4.0)
    check = SafetyStage()
    check.reset(sensor.position)
    sent = 0
    while not session.done:
        command = session.step(sensor)
        sent += 1
        # Every frame is one the safety stage would send unchanged: in limits, not too fast.
        position, _ = check.apply(command.position, command.stiffness)
        np.testing.assert_array_equal(position, command.position)
        sensor = sim.step(command)
    # In the air from the first frame: held for LIFTED_FRAMES, then the session's own length.
    assert sent * PERIOD == pytest.approx(session.duration + LIFTED_FRAMES * PERIOD, abs=0.03)
    report = session.report()
    assert [f.joint for f in report.fits] == [
        "LHipPitch",
        "LKneePitch",
        "LAnklePitch",
        "LHipRoll",
        "LAnkleRoll",
    ]
    kick = report.kick_parameters()
    # naosim's delay line, and its servos' damping and inertia over the gain: the values the
    # shipped kick was tuned with (kick.yaml: 1.084 / 21.1 and about 0.06 / 21.1).
    assert kick["servo_delay"] == delay
    assert kick["servo_velocity_lead"] == pytest.approx(JOINT_DAMPING / 21.1, rel=0.2)
    shipped = load_kick_parameters()
    assert kick["servo_accel_lead"] == pytest.approx(shipped.servo_accel_lead, rel=0.2)
    assert all(f.residual < 0.005 for f in report.fits)  # rad rms
    assert all(0.02 < f.amplitude < 0.1 for f in report.fits)


def test_a_robot_on_its_feet_is_refused_standing_and_one_put_down_stops_it():
    sim = NaoSim(seed=0)
    session = ServoIdentification("right")
    with pytest.raises(NotLifted, match=r"feet carry 5\.3 kg"):
        session.step(sim.step(None))  # refused at its first frame: nothing sent
    # Lightly loaded (being picked up, say) it waits a second for the feet to come free,
    # held as it is, and gives up if they do not.
    sim = NaoSim(seed=0)
    sim.lift(0.0)  # a hand under the torso: the soles on the floor, most weight in the hand
    for _ in range(60):
        sensor = sim.step(None)
    assert 0.3 < sensor.left_fsr_total + sensor.right_fsr_total < 2.65
    session = ServoIdentification("right")
    with pytest.raises(NotLifted):
        for _ in range(200):
            sensor = sim.step(session.step(sensor))
    assert 0.9 < sim.time - 0.72 < 1.3  # after the 60 frames above
    sim, sensor = _lifted(3)
    session = ServoIdentification("right")
    for _ in range(50):
        sensor = sim.step(session.step(sensor))
    sim.lift(None)  # let go: it drops onto its feet
    with pytest.raises(NotLifted):
        for _ in range(200):
            sensor = sim.step(session.step(sensor))


@pytest.mark.parametrize(
    "kwargs", [{"leg": "middle"}, {"seconds": 1.0}, {"amplitude": 0.5}, {"seconds": float("nan")}]
)
def test_bad_session_arguments_are_refused(kwargs):
    with pytest.raises(ValueError, match="ServoIdentification"):
        ServoIdentification(**kwargs)


async def test_motiond_identify_over_a_lola_socket():
    sim, _ = _lifted(3)
    with tempfile.TemporaryDirectory(prefix="motiond-", dir="/tmp") as socket_dir:
        path = str(Path(socket_dir) / "lola.sock")
        server = LolaServer(sim, path)  # lockstep: robot time advances with the client
        async with trio.open_nursery() as nursery:
            await nursery.start(server.serve)
            with trio.fail_after(120):
                result = await trio.run_process(
                    [
                        sys.executable,
                        "-m",
                        "motiond.cli",
                        "identify",
                        "--lola",
                        path,
                        "--json",
                        "--seconds",
                        "2",
                    ],
                    capture_stdout=True,
                    stderr=subprocess.STDOUT,
                    check=False,
                )
            nursery.cancel_scope.cancel()
    out = result.stdout.decode()
    assert result.returncode == 0, out
    assert "servo_delay: 3" in out
    kick = json.loads(out.strip().splitlines()[-1])["kick"]
    assert kick["servo_delay"] == 3
    # The right leg was moved (the table names its joints), and the session ended.
    assert "RKneePitch" in out and "LKneePitch" not in out
