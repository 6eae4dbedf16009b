"""``motiond demo``: the simulated NAO driven through the behaviour API, as a team would.

naosim, the daemon and its API server run in one process over real sockets (LoLA lockstep
unless ``--realtime``); the demo itself is an API client (``motiond.connect``) using NAOqi's
verbs. The robot starts sitting and:

1. wakes up (StandInit, the walk-ready stand);
2. walks a course with ``move``, stopping after each leg: 1.5 m forward, 0.5 m to the left,
   a quarter turn to the left, 0.75 m back;
3. walks a 0.6 m square with walk-to-pose (``move_to`` four times: 0.6 m ahead, a quarter turn);
4. waves (the shipped Wave script);
5. sits down (``go_to_posture("Sit")``).

Progress is printed as it runs; at the end, a table of what was asked beside what the
simulator's ground truth measured (each leg's speed from standing and over its last 60 %,
and the odometry's error over the course), the falls, and a top-view plot of the run (planned
and truth paths, footsteps). ``--render DIR`` saves pictures of the run when MuJoCo can render.
The exit status is 1 if the robot fell.
"""

from __future__ import annotations

import argparse
import csv
import math
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skills.walk.odometry import Pose2D

#: The square: each corner relative to the one before (m, m, rad).
SQUARE = ((0.6, 0.0, math.pi / 2),) * 4
#: The walking course: (what, velocity (m/s, m/s, rad/s), how far along it: m or rad).
COURSE = (
    ("1.5 m forward", (0.25, 0.0, 0.0), 1.5),
    ("0.5 m to the left", (0.0, 0.12, 0.0), 0.5),
    ("a quarter turn left", (0.0, 0.0, 0.8), math.pi / 2),
    ("0.75 m back", (-0.2, 0.0, 0.0), 0.75),
)
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
    parser.add_argument(
        "--plot",
        metavar="PNG",
        default="motiond-demo.png",
        help="where to save the top view of the run (default %(default)s; needs matplotlib)",
    )
    parser.add_argument(
        "--render", metavar="DIR", help="save pictures of the run into DIR (needs OpenGL)"
    )


class _Run:
    """What the demo saw: progress lines as they happen, then the table's rows."""

    def __init__(self, sim) -> None:
        self.sim = sim
        self.rows: list[tuple[str, str, str, str]] = []
        self.planned: list[Pose2D] = []

    def truth(self) -> Pose2D:
        """The truth robot position (``motiond.walk_trial.truth_robot_pose``)."""
        from motiond.walk_trial import truth_robot_pose
        from skills.walk.odometry import Pose2D

        return Pose2D(*truth_robot_pose(self.sim.body.truth()))

    def say(self, text: str) -> None:
        t = self.sim.body.truth()
        state = "FALLEN" if t.fallen else "ok"
        print(f"  t={self.sim.runtime.now:6.2f} s  {text:<34} {state}", flush=True)


async def _course(run: _Run, api_path: str) -> None:
    from motiond.client import connect
    from skills.walk.odometry import Pose2D, wrap_angle

    sim = run.sim
    async with connect(api_path, name="demo", priority=PRIORITY) as robot:
        t0 = sim.runtime.now
        ok = await robot.wake_up()
        run.say("wake up: StandInit")
        run.rows.append(("stand up (StandInit)", "standing", _standing(sim), ""))
        if ok is False or sim.body.truth().fallen:
            return
        odo0, truth0, path = await robot.get_robot_position(), run.truth(), 0.0
        for what, velocity, amount in COURSE:
            if sim.body.truth().fallen:
                return
            path += await _course_leg(run, robot, what, velocity, amount)
        odo1, truth1 = await robot.get_robot_position(), run.truth()
        odometry = Pose2D(*odo0).inverse().compose(Pose2D(*odo1))
        truth = truth0.inverse().compose(truth1)
        error = math.hypot(odometry.x - truth.x, odometry.y - truth.y)
        run.rows.append(
            (
                "odometry over the course",
                f"{path:.2f} m walked",
                f"{100 * error:.1f} cm off ({100 * error / path:.1f} %),"
                f" {math.degrees(abs(wrap_angle(odometry.theta - truth.theta))):.1f} deg",
                "",
            )
        )
        corner = run.truth()
        run.planned.append(corner)
        for k, step in enumerate(SQUARE, 1):
            if sim.body.truth().fallen:
                return
            target = corner.compose(Pose2D(*step))
            run.planned.append(target)
            t0 = sim.runtime.now
            reached = await robot.move_to(*step)
            corner = run.truth()
            error = math.hypot(corner.x - target.x, corner.y - target.y)
            turn_error = math.degrees(abs(wrap_angle(corner.theta - target.theta)))
            run.say(f"square corner {k}: {'reached' if reached else 'NOT reached'}")
            run.rows.append(
                (
                    f"square corner {k} (move_to)",
                    "within 10 cm, 10 deg",
                    f"{100 * error:.1f} cm, {turn_error:.1f} deg",
                    f"{sim.runtime.now - t0:.1f} s",
                )
            )
            corner = target  # the square is planned, not re-planned from where each leg ended
        await _high_stand(run, robot)
        duration = await robot.play("Wave")
        run.say("waved (Wave script)")
        run.rows.append(("wave (script)", f"{duration:.1f} s", _standing(sim), ""))
        ok = await robot.go_to_posture("Sit")
        run.say("sat down")
        height = float(sim.body.truth().torso_position[2])
        run.rows.append(("sit down", "sitting", f"torso at {height:.3f} m", ""))


async def _course_leg(run: _Run, robot, what: str, velocity: tuple, amount: float) -> float:
    """Walk ``velocity`` until the odometry has gone ``amount`` along it (m, or rad for a
    turn), stop, and add the leg's truth speeds to the table; the truth distance walked."""
    from skills.walk.odometry import Pose2D, along

    sim = run.sim
    axis = 2 if velocity[2] else (0 if velocity[0] else 1)
    speed = abs(velocity[axis])
    start, t0 = run.truth(), sim.runtime.now
    leg = [0.0, 0.0, 0.0]
    leg[axis] = math.copysign(amount, velocity[axis])
    run.planned.extend((start, start.compose(Pose2D(*leg))))
    await robot.move(*velocity)
    odo0 = await robot.get_robot_position()
    cruise = None  # (truth, time) once past the start's acceleration

    def covered(a, b) -> float:
        """How far from pose ``a`` to ``b`` along the leg (m or rad)."""
        a, b = ((p.x, p.y, p.theta) if isinstance(p, Pose2D) else p for p in (a, b))
        return abs(along(axis, a, b))

    stride, last = 0.0, 0.0  # how far a step carries the stop pose; its last value
    while not sim.body.truth().fallen:
        state = await robot.wait_robot_time(0.1)
        # Stopped by where a stop asked now would stand (the step under way, then the
        # slowing and closing steps): stopped by the next position, the legs overshot by
        # 15-27 %. That pose moves a step at a time, so the stop comes at the step that ends
        # nearest the goal: once the goal is less than half a step further.
        gone = covered(odo0, state["stop_position"])
        if gone != last:
            stride, last = gone - last, gone
        if cruise is None and gone >= 0.4 * amount:
            cruise = (run.truth(), sim.runtime.now)
        if gone + 0.5 * stride >= amount:
            break
    end, t1 = run.truth(), sim.runtime.now
    await robot.stop_move()
    await robot.wait_until_move_is_finished(timeout=60)
    unit = "rad/s" if axis == 2 else "m/s"
    # The torso sways with every step (turning, by a tenth of a radian): the leg's length is
    # taken standing, after the stop.
    stood = run.truth()
    run.say(f"walked {what}: {covered(start, stood):.2f} {'rad' if axis == 2 else 'm'}")
    average = f"{covered(start, end) / (t1 - t0):.3f} {unit} from standing"
    run.rows.append((f"walk {what}", f"{speed:.3f} {unit}", average, f"{t1 - t0:.1f} s"))
    if cruise is not None:
        mid, tc = cruise
        steady = covered(mid, end) / (t1 - tc)
        run.rows.append(("  its last 60 %", f"{speed:.3f} {unit}", f"{steady:.3f} {unit}", ""))
    return 0.0 if axis == 2 else math.hypot(stood.x - start.x, stood.y - start.y)


async def _high_stand(run: _Run, robot) -> None:
    """Wait as a robot in set or penalised would, in the high stand (``Walk(high_stand=True)``):
    the motors' current standing plainly (after the square), then all the way up."""
    sim = run.sim

    async def amps(seconds: float) -> float:
        samples = []
        for _ in range(round(seconds / 0.1)):
            await robot.wait_robot_time(0.1)
            samples.append(float(sim.body.sensor_frame().current.sum()))
        return sum(samples) / len(samples)

    plain = await amps(1.0)
    t0 = sim.runtime.now
    await robot.stand(high=True)
    state = await robot.wait_robot_time(4.0, until=lambda s: s["walk"]["stand"] == "high")
    high = await amps(1.0)
    reached = "stood high" if state["walk"]["stand"] == "high" else "high stand NOT reached"
    run.say(f"{reached}: {high:.2f} A, plainly {plain:.2f} A")
    run.rows.append(
        (
            "wait (high stand)",
            "knees straight",
            f"{_standing(sim)}, {high:.2f} A ({plain:.2f} before)",
            f"{sim.runtime.now - t0:.1f} s",
        )
    )


def _standing(sim) -> str:
    t = sim.body.truth()
    return "fallen" if t.fallen else f"torso at {t.torso_position[2]:.3f} m"


async def _scenario(truth_log: Path, realtime: bool, render: str | None) -> _Run:
    from motiond.simulated import simulated_daemon

    with tempfile.TemporaryDirectory(prefix="motiond-demo-", dir="/tmp") as tmp:
        api_path = str(Path(tmp) / "api.sock")
        async with simulated_daemon(
            start="Sit", truth_log=truth_log, realtime=realtime, api_path=api_path, render=render
        ) as sim:
            run = _Run(sim)
            run.say(f"sitting; behaviour API on {api_path}")
            await _course(run, api_path)
            c = sim.runtime.counters
            print(
                f"  daemon: {c.cycles} cycles, {c.overruns} overruns, {c.provider_errors} provider"
                f" errors, {c.cycle_errors} cycle errors, {c.safety_faults} safety faults",
                flush=True,
            )
            return run


def summarise(truth_log: Path, ends: list[tuple[str, float]]) -> tuple[list[str], bool]:
    """Summary lines from the truth log (heights at ``ends``, falls), and whether it fell."""
    with truth_log.open(newline="") as f:
        rows = list(csv.DictReader(f))
    t = [float(r["t"]) for r in rows]
    z = [float(r["z"]) for r in rows]
    fallen = [float(r["t"]) for r in rows if r["fallen"] == "1"]
    starts = [i for i, r in enumerate(rows) if r["fallen"] == "1"]
    falls = sum(1 for i in starts if i == 0 or rows[i - 1]["fallen"] != "1")
    lines = [f"  truth log: {truth_log} ({len(rows)} rows)"]
    for label, end in ends:
        i = min(range(len(t)), key=lambda k: abs(t[k] - end))
        lines.append(f"  {'torso height after ' + label:<42} {z[i]:.3f} m")
    lines.append(f"  {'torso height range':<42} {min(z):.3f} .. {max(z):.3f} m")
    text = "none" if not fallen else f"{falls}, FELL at t={fallen[0]:.2f} s"
    lines.append(f"  {'falls':<42} {text}")
    lines.append(f"  {'simulated time':<42} {t[-1]:.2f} s")
    return lines, bool(fallen)


def table(rows: list[tuple[str, str, str, str]]) -> list[str]:
    """The requested-versus-measured table as text lines."""
    head = ("", "requested", "measured (truth)", "time")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(4)]
    lines = []
    for row in [head, *rows]:
        lines.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    return lines


def main(args: argparse.Namespace) -> int:
    """Run the demo; 0 if the robot never fell, 1 if it did."""
    import trio

    if args.render:
        from naosim.render import prefer_headless_gl

        prefer_headless_gl()
    mode = "real time" if args.realtime else "lockstep"
    print(f"motiond demo: naosim + daemon + behaviour API over real sockets ({mode})", flush=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="motiond-demo-") as tmp:
        log = Path(args.truth_log) if args.truth_log else Path(tmp) / "truth.csv"
        run = trio.run(_scenario, log, bool(args.realtime), args.render)
        wall = time.perf_counter() - started
        lines, fell = summarise(log, [])
        plot = _plot(log, run.planned, args.plot)
    print("summary")
    for line in table(run.rows):
        print(line)
    for line in lines:
        print(line)
    print(f"  {'wall time':<42} {wall:.2f} s")
    print(f"  {'plot (top view: plan, truth, footsteps)':<42} {plot}")
    if args.render:
        print(f"  {'pictures':<42} {args.render}")
    print("result: " + ("the robot FELL" if fell else "ok, the robot never fell"))
    return 1 if fell else 0


def _plot(log: Path, planned: list, out: str) -> str:
    from motiond.plots import PlotError, plot_top_view, read_truth_log

    try:
        waypoints = [(p.x, p.y, p.theta) for p in planned]
        path = plot_top_view(
            read_truth_log(log), out, planned=waypoints, title="motiond demo (naosim truth)"
        )
    except PlotError as error:
        return f"not drawn: {error}"
    return str(Path(path).resolve())
