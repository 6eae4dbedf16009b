"""``motiond bench sim``: simulated seconds per wall-clock second of the simulated NAO.

The headline figure, ``realtime_factor``, is lockstep over a real Unix socket: a ``LolaServer``
serving ``NaoSimBody`` and a trivial client that reads each sensor frame and answers it with a
pre-encoded standing command, in one trio run. Beside it: the same with the project's
``LolaConnection`` as the client (decoding every frame), the body alone (no socket),
and the cost of the two ways of scaling servo gains with stiffness (rewriting the position
actuators' gains once per cycle, which naosim does, versus a torque law evaluated in Python at
every physics step).
"""

from __future__ import annotations

import os
import tempfile
import time

import numpy as np

from motiond.bench.timing import BenchResult, Goal, median_time

CYCLE = 0.012


def _lockstep_seconds(frames: int, *, full_client: bool) -> tuple[float, float]:
    """(wall, process CPU) seconds for ``frames`` lockstep cycles over a Unix socket.

    The trivial client reads one 896-byte sensor frame and answers with a pre-encoded standing
    command; the full client is the project's ``LolaConnection`` (decoding every frame).
    """
    import trio

    from lola_io.codec import SENSOR_FRAME_BYTES, encode_actuator
    from lola_io.connection import LolaConnection
    from lola_io.frames import ActuatorFrame
    from lola_io.server import LolaServer
    from naosim import postures
    from naosim.body import NaoSimBody

    body = NaoSimBody(seed=0)
    command = ActuatorFrame(position=postures.standing(), stiffness=np.ones(25))
    payload = encode_actuator(command)
    path = os.path.join(tempfile.mkdtemp(prefix="naosim-bench-"), "lola.sock")
    server = LolaServer(body, path)
    elapsed = cpu = 0.0

    async def trivial_client() -> None:
        stream = await trio.open_unix_socket(path)
        async with stream:
            for _ in range(frames):
                got = 0
                while got < SENSOR_FRAME_BYTES:
                    got += len(await stream.receive_some(SENSOR_FRAME_BYTES - got))
                await stream.send_all(payload)

    async def lola_client() -> None:
        async with LolaConnection(path, connect_timeout=5.0) as conn:
            count = 0
            async for _frame in conn:
                await conn.send(command)
                count += 1
                if count == frames:
                    break

    async def run() -> None:
        nonlocal elapsed, cpu
        async with trio.open_nursery() as nursery:
            await nursery.start(server.serve)
            start, start_cpu = time.perf_counter(), time.process_time()
            await (lola_client() if full_client else trivial_client())
            elapsed = time.perf_counter() - start
            cpu = time.process_time() - start_cpu
            nursery.cancel_scope.cancel()

    trio.run(run)
    os.rmdir(os.path.dirname(path))
    return elapsed, cpu


def _body_cycle_seconds(frames: int, repeat: int) -> float:
    """Median wall seconds per cycle of ``NaoSim.step`` alone."""
    from lola_io.frames import ActuatorFrame
    from naosim import postures
    from naosim.sim import NaoSim

    sim = NaoSim(seed=0)
    command = ActuatorFrame(position=postures.standing(), stiffness=np.ones(25))

    def run() -> None:
        for _ in range(frames):
            sim.step(command)

    return median_time(run, repeat=repeat) / frames


def _gain_scaling_costs(frames: int, repeat: int) -> tuple[float, float]:
    """Seconds per cycle: (actuator gains rewritten per cycle, Python torque law per step)."""
    import mujoco

    from naosim import postures
    from naosim.binding import bind
    from naosim.model_builder import SERVO_KP, build_model
    from naosim.servo import ServoBank

    steps = round(CYCLE / 0.003)
    target = postures.standing()
    stiffness = np.ones(25)

    m1 = build_model()
    d1 = mujoco.MjData(m1)
    bank = ServoBank(m1, bind(m1), delay_cycles=0)
    bank.reset(target, stiffness)

    def gains() -> None:
        for _ in range(frames):
            bank.command(target, stiffness)
            bank.apply(d1)
            mujoco.mj_step(m1, d1, steps)

    m2 = build_model()
    # The same actuators as plain torque motors; the law below replaces MuJoCo's.
    m2.actuator_gainprm[:, 0] = 1.0
    m2.actuator_biasprm[:, :3] = 0.0
    d2 = mujoco.MjData(m2)
    b2 = bind(m2)
    acts = b2.actuator
    qadr = b2.qpos_adr
    effort = m2.actuator_forcerange[acts, 1]
    kp = SERVO_KP * stiffness

    def torques() -> None:
        for _ in range(frames):
            for _ in range(steps):
                tau = kp * (target - d2.qpos[qadr])
                d2.ctrl[acts] = np.clip(tau, -effort, effort)
                mujoco.mj_step(m2, d2)

    return (
        median_time(gains, repeat=repeat) / frames,
        median_time(torques, repeat=repeat) / frames,
    )


def run(quick: bool) -> BenchResult:
    """Measure lockstep throughput over a socket, the body alone, and gain-scaling costs."""
    frames = 300 if quick else 2500
    repeat = 1 if quick else 3
    # Best of the repeats: other processes on the machine can only slow a run down.
    runs = [_lockstep_seconds(frames, full_client=False) for _ in range(repeat)]
    lockstep = min(wall for wall, _ in runs)
    cpu = min(c for _, c in runs)
    full = min(_lockstep_seconds(frames, full_client=True)[0] for _ in range(repeat))
    body = _body_cycle_seconds(frames // 5, repeat)
    gains, torques = _gain_scaling_costs(frames // 10, repeat)
    return BenchResult(
        name="sim",
        figures={
            "realtime_factor": frames * CYCLE / lockstep,
            "lockstep_cycle_ms": lockstep / frames * 1e3,
            # Server and client share this process: its CPU time is all the work done, so
            # this figure says what the code costs when the machine is not shared.
            "cpu_realtime_factor": frames * CYCLE / cpu,
            "lola_connection_realtime_factor": frames * CYCLE / full,
            "body_only_realtime_factor": CYCLE / body,
            "body_cycle_ms": body * 1e3,
            "gain_rewrite_cycle_ms": gains * 1e3,
            "python_torque_cycle_ms": torques * 1e3,
            "frames": float(frames),
        },
        units={
            "realtime_factor": "sim s / wall s",
            "lockstep_cycle_ms": "ms",
            "cpu_realtime_factor": "sim s / process CPU s",
            "lola_connection_realtime_factor": "sim s / wall s",
            "body_only_realtime_factor": "sim s / wall s",
            "body_cycle_ms": "ms",
            "gain_rewrite_cycle_ms": "ms (physics + servo, per 12 ms cycle)",
            "python_torque_cycle_ms": "ms (physics + servo, per 12 ms cycle)",
        },
        goals={"realtime_factor": Goal(10.0, at_least=True)},
        notes=(
            "lockstep over a real Unix socket: LolaServer + NaoSimBody; the trivial client reads "
            "each 896-byte frame and answers with a pre-encoded command",
            "lola_connection_realtime_factor: the same with the project's LolaConnection client",
            f"machine load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs",
        ),
    )
