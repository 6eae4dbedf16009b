"""``motiond demo``: the simulated NAO and the daemon over a real LoLA socket.

The robot starts in the shipped Sit posture, stands up through StandInit to Stand, holds,
and sits down again. Progress lines go to stdout as each phase ends; the summary is read back
from the simulator's truth log (what really happened, not what the daemon believes). The exit
status is 1 if the robot fell at any time.
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from pathlib import Path

#: (shipped script, or None to hold, and what the phase is called), in order, at PRIORITY.
PHASES: tuple[tuple[str | None, str], ...] = (
    ("StandInit", "stand up to StandInit"),
    ("Stand", "straighten to Stand"),
    (None, "hold"),
    ("Sit", "sit down"),
)
HOLD_SECONDS = 2.0
PRIORITY = 10.0


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


async def _scenario(truth_log: Path, realtime: bool) -> list[tuple[str, float]]:
    """Run the demo; the (phase, simulated end time) of every phase."""
    from motiond.runtime import Runtime
    from motiond.simulated import simulated_daemon

    runtime = Runtime()
    # Queued before the first frame, so the robot is held in its sit from the first cycle
    # instead of starting limp (which is how the daemon starts) and slumping.
    runtime.emit(_script("Sit"), priority=PRIORITY, emitter="demo")
    ends: list[tuple[str, float]] = []
    async with simulated_daemon(
        start="Sit", truth_log=truth_log, realtime=realtime, runtime=runtime
    ) as sim:
        await runtime.wait(0.3)
        print(f"  t={runtime.now:6.2f} s  sitting, stiff; torso {_height(sim):.3f} m", flush=True)
        for script, label in PHASES:
            if script is None:
                await runtime.wait(HOLD_SECONDS)
            else:
                await runtime.play(script, priority=PRIORITY, emitter="demo")
            ends.append((label, runtime.now))
            truth = sim.body.truth()
            state = "FALLEN" if truth.fallen else "ok"
            print(
                f"  t={runtime.now:6.2f} s  {label:<22} torso {truth.torso_position[2]:.3f} m"
                f"  tilt {truth.tilt:.3f} rad  {state}",
                flush=True,
            )
        counters = runtime.counters
        print(
            f"  daemon: {counters.cycles} cycles, {counters.overruns} overruns, "
            f"{counters.provider_errors} provider errors, {counters.cycle_errors} cycle errors, "
            f"{counters.safety_faults} safety faults",
            flush=True,
        )
    return ends


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


def main(args: argparse.Namespace) -> int:
    """Run the demo; 0 if the robot never fell, 1 if it did."""
    import trio

    realtime = bool(args.realtime)
    mode = "real time" if realtime else "lockstep"
    print(f"motiond demo: naosim + daemon over a LoLA socket ({mode})", flush=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="motiond-demo-") as tmp:
        log = Path(args.truth_log) if args.truth_log else Path(tmp) / "truth.csv"
        ends = trio.run(_scenario, log, realtime)
        wall = time.perf_counter() - started
        lines, fell = summarise(log, ends)
    print("summary")
    for line in lines:
        print(line)
    print(f"  {'wall time':<42} {wall:.2f} s")
    print("result: " + ("the robot FELL" if fell else "ok, the robot never fell"))
    return 1 if fell else 0
