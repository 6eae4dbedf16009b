"""``motiond demo``: the simulated NAO and the daemon over a real LoLA socket.

The robot starts in the shipped Sit posture and stands up to StandInit (the walk-ready stand).
It then walks a course: forward about 1.5 m, sideways, a quarter turn, back, stops (the walk
brings the feet together) and sits down. Each walking leg ends when the daemon's own odometry
says it has covered its distance, as a behaviour would do it. For each leg the demo prints the
requested speed beside the speed measured by the simulator's ground truth, and the odometry's
error against the truth; the summary is read back from the truth log (what really happened,
not what the daemon believes). The exit status is 1 if the robot fell at any time.
"""

from __future__ import annotations

import argparse
import csv
import math
import tempfile
import time
from pathlib import Path

#: The course: (label, (forward m/s, left m/s, turn rad/s), distance along that axis: m or
#: rad). Speeds sit inside the shipped gait's limits.
COURSE: tuple[tuple[str, tuple[float, float, float], float], ...] = (
    ("forward 1.5 m", (0.2, 0.0, 0.0), 1.5),
    ("sideways 0.2 m", (0.0, 0.05, 0.0), 0.2),
    ("turn 90 deg", (0.0, 0.0, 0.8), math.pi / 2),
    ("back 0.5 m", (-0.1, 0.0, 0.0), 0.5),
)
PRIORITY = 10.0
#: A leg that has not covered its distance in this many times its nominal duration gives up.
_PATIENCE = 3.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``motiond demo``."""
    parser.add_argument(
        "--truth-log", metavar="FILE", help="keep the simulator's ground truth CSV here"
    )
    parser.add_argument(
        "--realtime",
        action="store_true",
        help="run at LoLA's real pace (12 ms per cycle) instead of lockstep (as fast as possible)",
    )


def _truth_pose(sim) -> tuple[float, float, float]:
    t = sim.body.truth()
    return (float(t.torso_position[0]), float(t.torso_position[1]), float(t.torso_rpy[2]))


def _odometry_pose(runtime) -> tuple[float, float, float]:
    o = runtime.walk.status().odometry
    return (o.x, o.y, o.theta)


async def _walk_leg(runtime, sim, label: str, velocity, distance: float) -> dict:
    """Walk at ``velocity`` until the odometry has covered ``distance``; what happened."""
    from skills.walk import Walk
    from skills.walk.odometry import along

    axis = max(range(3), key=lambda i: abs(velocity[i]))
    speed = abs(velocity[axis])
    truth0, odo0, t0 = _truth_pose(sim), _odometry_pose(runtime), runtime.now
    runtime.emit(Walk(*velocity), priority=PRIORITY, emitter="demo")
    deadline = t0 + _PATIENCE * distance / speed + 2.0
    covered = 0.0
    while covered < distance and runtime.now < deadline and not sim.body.truth().fallen:
        await runtime.next_cycle()
        covered = abs(along(axis, odo0, _odometry_pose(runtime)))
    duration = runtime.now - t0
    truth = abs(along(axis, truth0, _truth_pose(sim)))
    odo = abs(along(axis, odo0, _odometry_pose(runtime)))
    unit = "rad" if axis == 2 else "m"
    return {
        "label": label,
        "requested": speed,
        "measured": truth / duration if duration > 0 else 0.0,
        "truth": truth,
        "odometry": odo,
        "error_pct": 100.0 * abs(odo - truth) / truth if truth > 0 else float("nan"),
        "unit": unit,
        "reached": covered >= distance,
    }


async def _scenario(truth_log: Path, realtime: bool) -> tuple[list[tuple[str, float]], list]:
    """Run the demo; the (phase, simulated end time) of every phase, and the walking legs."""
    from motiond.runtime import Runtime
    from motiond.simulated import simulated_daemon
    from skills.walk import Walk

    runtime = Runtime()
    # Queued before the first frame, so the robot is held in its sit from the first cycle
    # instead of starting limp (which is how the daemon starts) and slumping.
    runtime.emit(_script("Sit"), priority=PRIORITY, emitter="demo")
    ends: list[tuple[str, float]] = []
    legs: list[dict] = []

    def phase_done(label: str, sim) -> None:
        ends.append((label, runtime.now))
        truth = sim.body.truth()
        state = "FALLEN" if truth.fallen else "ok"
        print(
            f"  t={runtime.now:6.2f} s  {label:<22} torso {truth.torso_position[2]:.3f} m"
            f"  tilt {truth.tilt:.3f} rad  {state}",
            flush=True,
        )

    async with simulated_daemon(
        start="Sit", truth_log=truth_log, realtime=realtime, runtime=runtime
    ) as sim:
        await runtime.wait(0.3)
        print(f"  t={runtime.now:6.2f} s  sitting, stiff; torso {_height(sim):.3f} m", flush=True)
        await runtime.play("StandInit", priority=PRIORITY, emitter="demo")
        phase_done("stand up to StandInit", sim)
        # The walk takes the legs from the finished script (a stand in place first).
        runtime.emit(Walk(), priority=PRIORITY, emitter="demo")
        await runtime.wait(1.0)
        for label, velocity, distance in COURSE:
            if sim.body.truth().fallen:
                break
            leg = await _walk_leg(runtime, sim, label, velocity, distance)
            legs.append(leg)
            u = leg["unit"]
            print(
                f"  t={runtime.now:6.2f} s  {label:<22} asked {leg['requested']:.3f} {u}/s,"
                f" truth {leg['measured']:.3f} {u}/s; covered {leg['truth']:.3f} {u},"
                f" odometry {leg['odometry']:.3f} {u} ({leg['error_pct']:.1f} % off)",
                flush=True,
            )
        runtime.emitter("demo").emit_none(Walk)
        await runtime.wait(1.0)
        status = runtime.walk.status()
        phase_done(f"stop ({status.phase.value})", sim)
        await runtime.play("Sit", priority=PRIORITY, emitter="demo")
        phase_done("sit down", sim)
        counters = runtime.counters
        print(
            f"  daemon: {counters.cycles} cycles, {counters.overruns} overruns, "
            f"{counters.provider_errors} provider errors, {counters.cycle_errors} cycle errors, "
            f"{counters.safety_faults} safety faults",
            flush=True,
        )
    return ends, legs


def _script(name: str):
    from skills.script import Script
    from skills.script_files import shipped_script

    return Script(shipped_script(name))


def _height(sim) -> float:
    return float(sim.body.truth().torso_position[2])


def summarise(truth_log: Path, ends: list[tuple[str, float]]) -> tuple[list[str], bool]:
    """Summary lines from the truth log, and whether the robot fell."""
    with truth_log.open(newline="") as f:
        rows = list(csv.DictReader(f))
    t = [float(r["t"]) for r in rows]
    z = [float(r["z"]) for r in rows]
    fallen_at = next((float(r["t"]) for r in rows if r["fallen"] == "1"), None)
    lines = [f"  truth log: {truth_log} ({len(rows)} rows)"]
    for label, end in ends:
        i = min(range(len(t)), key=lambda k: abs(t[k] - end))
        lines.append(f"  {'torso height after ' + label:<42} {z[i]:.3f} m")
    lines.append(f"  {'torso height range':<42} {min(z):.3f} .. {max(z):.3f} m")
    falls = "none" if fallen_at is None else f"FELL at t={fallen_at:.2f} s"
    lines.append(f"  {'falls':<42} {falls}")
    lines.append(f"  {'simulated time':<42} {t[-1]:.2f} s")
    return lines, fallen_at is not None


def leg_lines(legs: list[dict]) -> list[str]:
    """One summary line per walking leg: requested and measured speed, odometry error."""
    out = []
    for leg in legs:
        u = leg["unit"]
        reached = "" if leg["reached"] else "  (gave up before the distance)"
        out.append(
            f"  {leg['label']:<18} asked {leg['requested']:.3f} {u}/s  truth"
            f" {leg['measured']:.3f} {u}/s  odometry error {leg['error_pct']:.1f} %{reached}"
        )
    return out


def main(args: argparse.Namespace) -> int:
    """Run the demo; 0 if the robot never fell, 1 if it did."""
    import trio

    realtime = bool(args.realtime)
    mode = "real time" if realtime else "lockstep"
    print(f"motiond demo: naosim + daemon over a LoLA socket ({mode})", flush=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="motiond-demo-") as tmp:
        log = Path(args.truth_log) if args.truth_log else Path(tmp) / "truth.csv"
        ends, legs = trio.run(_scenario, log, realtime)
        wall = time.perf_counter() - started
        lines, fell = summarise(log, ends)
    print("summary")
    for line in leg_lines(legs):
        print(line)
    for line in lines:
        print(line)
    print(f"  {'wall time':<42} {wall:.2f} s")
    print("result: " + ("the robot FELL" if fell else "ok, the robot never fell"))
    return 1 if fell else 0
