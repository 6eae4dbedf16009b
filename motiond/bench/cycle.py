"""``motiond bench cycle``: the compute time of one whole daemon cycle.

Timed per cycle: decode a sensor frame (896 bytes), the behaviour's emissions, the Director and
every provider (the real walk, its request changed every 2.4 s so that it starts, walks, turns,
side-steps, stops and walks back, all through LegsIK every cycle; a head script playing; the
arms commanded now and then, taking them from the walk's optional arm swing and giving them
back), the ServoTable, the safety stage, and encoding the
actuator frame. The socket is left out (``motiond bench lola`` measures it).

The measurement runs in a subprocess that imports only what the daemon imports, so ``rss_mb``
is the daemon's peak resident memory and not the simulator's (MuJoCo is never loaded on a
robot, and importing this module must not load it either).

The measuring process is tuned exactly as ``motiond run`` tunes itself
(``motiond.process_tuning``: GC frozen after start-up, rare young collections). The headline
figures are at normal scheduling priority. ``--rt-priority`` (worker only) runs it SCHED_FIFO, but
beware: this benchmark runs cycles back to back, and a real-time busy loop hits the kernel's RT
throttling (a ~50 ms pause each second), which the daemon, idle between frames, never does.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

from motiond.bench.timing import BenchResult, Goal
from motiond.process_tuning import tune_process

FULL_CYCLES = 20_000
QUICK_CYCLES = 2_000
WARMUP_CYCLES = 300
# Distinct sensor frames fed in turn, so decoding is not of one cached buffer.
FRAME_VARIANTS = 64


def run(quick: bool) -> BenchResult:
    """Measure in a fresh interpreter and report p50/p99/max cycle time and peak RSS."""
    cycles = QUICK_CYCLES if quick else FULL_CYCLES
    command = [sys.executable, "-m", "motiond.bench.cycle", "--cycles", str(cycles)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures.pop("realtime_granted")
    return BenchResult(
        name="cycle",
        figures=figures,
        units={
            "p50_ms": "ms",
            "p99_ms": "ms",
            "max_ms": "ms",
            "mean_ms": "ms",
            "p99_cpu_ms": "ms",
            "max_cpu_ms": "ms",
            "rss_mb": "MB",
        },
        goals={"p99_ms": Goal(1.0), "max_ms": Goal(3.0), "rss_mb": Goal(150.0)},
        notes=(
            "decode + emissions + Director + providers + servo table + safety + encode",
            "LegsIK every cycle, a head script, arms commands; measured in a subprocess "
            "without MuJoCo",
        ),
    )


def _frames() -> list[bytes]:
    import numpy as np

    from lola_io.codec import encode_sensor
    from lola_io.frames import SensorFrame
    from skills.script_files import shipped_script

    stand = shipped_script("StandInit").final_pose().position
    rng = np.random.default_rng(0)
    out = []
    for _ in range(FRAME_VARIANTS):
        frame = SensorFrame.neutral(stand + rng.normal(0.0, 0.002, stand.shape))
        out.append(encode_sensor(_loaded(frame)))
    return out


def _loaded(frame):
    import attrs
    import numpy as np

    return attrs.evolve(frame, fsr=np.full(8, 1.2))


def measure(cycles: int, *, gc_tuning: bool = True, rt_priority: int = 0) -> dict[str, float]:
    """Run ``cycles`` timed cycles (after a warm-up) and return the figures."""
    import numpy as np

    ms, cpu, realtime = cycle_times(cycles, gc_tuning=gc_tuning, rt_priority=rt_priority)
    # ru_maxrss is in KiB on Linux.
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    return {
        "cycles": float(cycles),
        "p50_ms": float(np.percentile(ms, 50)),
        "p99_ms": float(np.percentile(ms, 99)),
        "max_ms": float(ms.max()),
        "mean_ms": float(ms.mean()),
        # CPU time of the cycle's thread: what the cycle costs without the time the OS gave
        # to other processes (wall p99/max include that on a shared machine).
        "p99_cpu_ms": float(np.percentile(cpu, 99)),
        "max_cpu_ms": float(cpu.max()),
        "rss_mb": rss_mb,
        "realtime_granted": float(realtime),
    }


def cycle_times(cycles: int, *, gc_tuning: bool = True, rt_priority: int = 0):
    """Wall and CPU time of each cycle after a warm-up (ms arrays), and whether SCHED_FIFO held."""
    import numpy as np

    from lola_io.codec import decode_sensor, encode_actuator
    from motiond.runtime import Runtime
    from providers.actuation import Arms, JointCommand
    from skills.keyframes import JointTarget, Keyframe, KeyframeScript
    from skills.script import Script
    from skills.walk import Walk

    frames = _frames()
    runtime = Runtime()
    walk = runtime.emitter("walker")
    head = runtime.emitter("head")
    arms = runtime.emitter("arms")
    # The real walk: a new request every 2.4 s, so it starts, turns, side-steps and stops.
    requests = [Walk(0.2, 0.0, 0.0), Walk(0.1, 0.0, 0.8), Walk(0.0, 0.05, 0.0), Walk(), Walk(-0.1)]
    scan = KeyframeScript(
        "head-scan",
        [
            Keyframe(0.6, {"HeadYaw": JointTarget(0.8), "HeadPitch": JointTarget(0.2)}),
            Keyframe(1.2, {"HeadYaw": JointTarget(-0.8), "HeadPitch": JointTarget(0.3)}),
            Keyframe(0.6, {"HeadYaw": JointTarget(0.0), "HeadPitch": JointTarget(0.0)}),
        ],
    )
    swing = [
        Arms(JointCommand({"LShoulderPitch": 1.4 + a, "RShoulderPitch": 1.4 - a}, 0.6, 0.3))
        for a in (0.2, -0.2)
    ]

    def cycle(i: int) -> bytes:
        frame = decode_sensor(frames[i % FRAME_VARIANTS])
        if i % 200 == 0:
            # A new walk request, and the head script again (it lasts 2.4 s).
            walk.emit(requests[(i // 200) % len(requests)], priority=10.0)
            head.emit(Script(scan), priority=5.0)
        if i % 40 == 0:
            arms.emit(swing[(i // 40) % 2], priority=5.0)
        return encode_actuator(runtime.step(frame))

    for i in range(WARMUP_CYCLES):
        cycle(i)
    realtime = tune_process(gc_tuning=gc_tuning, rt_priority=rt_priority)
    times = np.empty(cycles)
    cpu_times = np.empty(cycles)
    clock = time.perf_counter_ns
    cpu_clock = time.thread_time_ns
    for k in range(cycles):
        cpu_start = cpu_clock()
        start = clock()
        cycle(WARMUP_CYCLES + k)
        times[k] = clock() - start
        cpu_times[k] = cpu_clock() - cpu_start
    errors = runtime.counters.cycle_errors + runtime.counters.provider_errors
    if errors:
        raise RuntimeError(f"the cycle failed {errors} times; the figures would mean nothing")
    loaded = [m for m in ("mujoco", "naosim") if m in sys.modules]
    if loaded:
        raise RuntimeError(f"the daemon's process loaded {loaded}; rss_mb would be wrong")
    return times / 1e6, cpu_times / 1e6, realtime


def _main() -> None:
    parser = argparse.ArgumentParser(description="the cycle benchmark's measuring process")
    parser.add_argument("--cycles", type=int, default=FULL_CYCLES)
    parser.add_argument("--no-gc-tuning", action="store_true", help="for comparison")
    parser.add_argument("--rt-priority", type=int, default=0, help="SCHED_FIFO priority, 0: off")
    args = parser.parse_args()
    figures = measure(args.cycles, gc_tuning=not args.no_gc_tuning, rt_priority=args.rt_priority)
    print(json.dumps(figures))


if __name__ == "__main__":
    _main()
