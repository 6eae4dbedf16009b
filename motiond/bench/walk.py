"""``motiond bench walk``: how fast, how steady and how well-measured the walk is, in physics.

Every figure is ground truth from naosim (``motiond.walk_trial``: the simulator and the daemon's
cycle in one process, lockstep).

- **Maximum speeds**, the Bit-Bots protocol (their ``evaluate_walk.py``): for each direction the
  command is raised step by step (forward and backward +0.05 m/s, sideways +0.025 m/s, turn
  +0.25 rad/s; the gait's limit is the last level when the steps jump past it). A run
  stands 1 s, walks 1 s at a quarter of the command and 1 s at half, then at the command
  for 1 s of settling and ``STEADY`` s measured, then half, a quarter and stops.
  Each level is repeated with different sensor-noise seeds; the figure is the truth speed along
  the commanded axis over the measured part, averaged over the repetitions, at the highest
  level where no repetition fell. Raising stops at the first level where every repetition fell,
  and at the gait's limit (the walk clamps requests there; faster commands are the same walk).
- **Sprint**: standing start, the gait's top forward speed, time until the torso is 10 m ahead.
- **Odometry error** over 5 m forward: |odometry − truth| / truth distance.
- **Random requests**: runs of 14 random requests of 1.5 s each (on the ellipsoid, at its
  extremes, anywhere inside, or zero: the abrupt changes a behaviour makes); the share of
  runs that stood throughout.
- **Pushes**: walking at 0.2 m/s (or the gait's top speed if lower), a 0.1 s push at the torso's
  centre of mass, from behind, the front, the right and the left, of rising impulse; the
  largest survived for 3 s at each of three phases of the step (``PUSH_PHASES``). The
  sagittal and lateral figures are the weaker side's.

``--quick`` runs fewer repetitions and levels of push; ``--gait FILE`` a gait of one's own
(YAML, overriding the shipped one key by key); ``--model FILE`` any NAO MJCF that
``motiond sim --model`` loads; ``--perturb N`` N randomly perturbed NAOs instead of one
(masses ±5 %, centres of mass ±5 mm, servo gain and damping ±10 %, floor friction 0.7–1.0,
actuation delay 2–4 cycles; the figures are the worst over the bodies).
"""

from __future__ import annotations

import math
import sys
import time

from motiond.bench.timing import BenchResult, Goal

STEADY = 7.5  # s of steady walking measured per run
LEVEL_STEPS = {"forward": 0.05, "backward": 0.05, "sideways": 0.025, "turn": 0.25}
_AXES = {"forward": (0, 1.0), "backward": (0, -1.0), "sideways": (1, 1.0), "turn": (2, 1.0)}
PUSHES_NS = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0)
RANDOM_REQUESTS = 14  # random requests per run ...
RANDOM_SECONDS = 1.5  # ... of this long each
PUSH_SECONDS = 0.1
#: When in the gait a push lands, s after 3 s of walking: a push survived at one phase of the
#: step may fall at another (1.5 N s forwards: 2 of 9 survived over three phases and three
#: bodies), so an impulse counts as survived only at every phase.
PUSH_PHASES = (0.0, 0.08, 0.16)


def schedule(t: float, command: float) -> float:
    """The command at ``t`` s after walking starts (Bit-Bots ramps); 0 after the run."""
    ramp_end = 2.0 + 1.0 + STEADY
    if t < 0.0:
        return 0.0
    if t < 1.0:
        return 0.25 * command
    if t < 2.0:
        return 0.5 * command
    if t < ramp_end:
        return command
    if t < ramp_end + 1.0:
        return 0.5 * command
    if t < ramp_end + 2.0:
        return 0.25 * command
    return 0.0


def _progress(text: str) -> None:
    print(f"  .. {text}", file=sys.stderr, flush=True)


def _velocity(direction: str, command: float) -> tuple[float, float, float]:
    axis, sign = _AXES[direction]
    v = [0.0, 0.0, 0.0]
    v[axis] = sign * command
    return v[0], v[1], v[2]


def speed_run(direction: str, command: float, seed: int, body: dict) -> tuple[bool, float]:
    """One Bit-Bots run: (did not fall, truth speed along the axis over the steady part)."""
    from motiond.walk_trial import WalkTrial
    from skills.walk.odometry import along

    trial = WalkTrial(seed=seed, **body)
    axis, sign = _AXES[direction]
    if not trial.run(1.0):
        return False, float("nan")
    start = trial.t
    marks = [3.0, 3.0 + STEADY]  # the steady part: after 1 s at the full command
    measured: list[tuple[float, float, float]] = []
    heading = turned = 0.0  # the heading unwrapped: turning 7.5 s passes a half turn
    last = None
    while trial.t - start < 2.0 + 1.0 + STEADY + 2.5:
        t = trial.t - start
        value = schedule(t, command)
        if value != last:
            trial.walk(*_velocity(direction, value))
            last = value
        if len(measured) < len(marks) and t >= marks[len(measured)]:
            measured.append(trial.pose())
            turned = heading
        before = trial.pose()
        if not trial.run(0.012):
            return False, float("nan")
        heading += along(2, before, trial.pose())
        if len(measured) == 1:
            turned_steady = heading - turned
    if len(measured) < 2:
        return True, float("nan")
    if axis == 2:
        return True, turned_steady / STEADY
    return True, sign * along(axis, measured[0], measured[1]) / STEADY


def max_speed(direction: str, limit: float, reps: int, body: dict) -> tuple[float, float, int]:
    """(highest command that never fell, its mean truth speed, falls seen)."""
    best_cmd, best_speed, falls = 0.0, 0.0, 0
    for command in _levels(LEVEL_STEPS[direction], limit):
        results = [speed_run(direction, command, seed, body) for seed in range(reps)]
        fell = sum(1 for ok, _ in results if not ok)
        falls += fell
        speeds = [s for ok, s in results if ok]
        _progress(
            f"{direction} {command:.3f}: {fell}/{reps} fell, truth "
            + ", ".join(f"{s:.3f}" for s in speeds)
        )
        if fell == reps:
            break
        if fell == 0:
            best_cmd, best_speed = command, sum(speeds) / len(speeds)
    return best_cmd, best_speed, falls


def _levels(step: float, limit: float) -> list[float]:
    """The commands tried: every ``step`` up to ``limit``, and the limit itself when the
    steps jump past it."""
    levels = [round(k * step, 6) for k in range(1, math.floor(limit / step + 1e-9) + 1)]
    if not levels or levels[-1] < limit - 1e-9:
        levels.append(limit)
    return levels


def sprint(distance: float, forward: float, body: dict) -> tuple[float, bool]:
    """Seconds from a standing start until the torso is ``distance`` m ahead along its first
    heading (inf if it never gets there: it fell, or curved away), and whether it fell."""
    from motiond.walk_trial import WalkTrial
    from skills.walk.odometry import along

    trial = WalkTrial(**body)
    trial.run(1.0)
    start, t0 = trial.pose(), trial.t
    trial.walk(forward)
    ok = trial.run(
        distance / max(forward, 0.01) * 4.0 + 10.0,
        until=lambda tr: along(0, start, tr.pose()) >= distance,
    )
    if not ok or along(0, start, trial.pose()) < distance:
        return math.inf, not ok
    return trial.t - t0, False


def odometry_error(distance: float, forward: float, body: dict) -> float:
    """Percent error of the odometry's distance over ``distance`` m forward (inf on a fall)."""
    from motiond.walk_trial import WalkTrial

    trial = WalkTrial(**body)
    trial.run(1.0)
    truth0 = trial.pose()
    o = trial.status().odometry
    odo0 = (o.x, o.y)
    trial.walk(forward)

    def far(tr) -> bool:
        x, y, _ = tr.pose()
        return math.hypot(x - truth0[0], y - truth0[1]) >= distance

    if not trial.run(distance / forward * 4.0 + 10.0, until=far):
        return math.inf
    trial.stop()
    trial.run(1.5)
    x, y, _ = trial.pose()
    o = trial.status().odometry
    truth = math.hypot(x - truth0[0], y - truth0[1])
    # The odometry's frame is its own start: compare displacement vectors' lengths and the
    # difference of the vectors rotated into the truth frame at the start.
    c, s = math.cos(truth0[2]), math.sin(truth0[2])
    ox, oy = o.x - odo0[0], o.y - odo0[1]
    wx, wy = c * ox - s * oy, s * ox + c * oy
    return 100.0 * math.hypot(wx - (x - truth0[0]), wy - (y - truth0[1])) / truth


#: The pushes' directions: (name, world axis, sign). Pushed from behind, the torso is driven
#: forwards (+x); from the right, to the left (+y).
PUSH_DIRECTIONS = (
    ("behind", 0, 1.0),
    ("front", 0, -1.0),
    ("right", 1, 1.0),
    ("left", 1, -1.0),
)


def largest_push(
    axis: int, forward: float, pushes: tuple[float, ...], body: dict, sign: float = 1.0
) -> float:
    """The largest impulse (N s) along ``sign`` times ``axis`` of the world (0 x, 1 y)
    survived while walking."""
    from motiond.walk_trial import WalkTrial

    survived = 0.0
    for impulse in pushes:
        ok = True
        for phase in PUSH_PHASES:
            trial = WalkTrial(**body)
            trial.run(1.0)
            trial.walk(forward)
            trial.run(3.0 + phase)
            force = [0.0, 0.0, 0.0]
            force[axis] = sign * impulse / PUSH_SECONDS
            trial.push(tuple(force), PUSH_SECONDS)
            ok = trial.run(3.0)
            if not ok:
                break
        way = "xy"[axis] if sign > 0.0 else "-" + "xy"[axis]
        _progress(f"push {way} {impulse:.1f} N s: {'survived' if ok else 'FELL'}")
        if not ok:
            break
        survived = impulse
    return survived


def random_request_run(seed: int, body: dict) -> bool:
    """Whether the robot stands through ``RANDOM_REQUESTS`` random requests of
    ``RANDOM_SECONDS`` each (``seed`` picks them and the sensor noise): on the gait's
    ellipsoid, at its extremes (clamped there), anywhere inside, or zero, in any order, as a
    behaviour's requests come."""
    import numpy as np

    from motiond.walk_trial import WalkTrial

    rng = np.random.default_rng(1000 + seed)
    trial = WalkTrial(seed=seed, **body)
    g = trial.runtime.walk.base_gait
    trial.run(1.0)
    for _ in range(RANDOM_REQUESTS):
        kind = rng.integers(4)
        v = rng.uniform(-1.0, 1.0, 3)
        if kind == 0:
            v = v / np.linalg.norm(v)
        elif kind == 1:
            v = np.sign(v) * (np.abs(v) > 0.5)
        elif kind == 2:
            v = np.zeros(3)
        forward = v[0] * (g.max_forward if v[0] > 0.0 else g.max_backward)
        trial.walk(float(forward), float(v[1] * g.max_left), float(v[2] * g.max_turn))
        if not trial.run(RANDOM_SECONDS):
            return False
    return True


def _bodies(model: str | None, perturb: int) -> list[tuple[str, dict]]:
    from motiond.walk_trial import Perturbation

    if perturb:
        return [(f"perturbed #{i}", {"perturbation": Perturbation(seed=i)}) for i in range(perturb)]
    if model:
        return [(model, {"model": model})]
    return [("naosim NAO", {})]


def run(
    quick: bool, model: str | None = None, perturb: int = 0, gait: str | None = None
) -> BenchResult:
    """Measure the walk (the shipped gait, or the one in the YAML file ``gait``) on each body;
    figures are the worst over the bodies."""
    from skills.walk import load_gait

    gait_file = gait
    gait = load_gait(gait_file)
    reps = 2 if quick else 3
    pushes = PUSHES_NS[::2] if quick else PUSHES_NS
    random_runs = 10 if quick else 30
    limits = {
        "forward": gait.max_forward,
        "backward": gait.max_backward,
        "sideways": gait.max_left,
        "turn": gait.max_turn,
    }
    started = time.perf_counter()
    per_body = []
    for name, body in _bodies(model, perturb):
        body = {**body, "gait": gait}
        _progress(f"body: {name}")
        fig: dict[str, float] = {}
        falls = 0
        for direction, limit in limits.items():
            cmd, speed, fell = max_speed(direction, limit, reps, body)
            falls += fell
            unit = "radps" if direction == "turn" else "mps"
            fig[f"{direction}_{unit}"] = speed
            fig[f"{direction}_cmd_{unit}"] = cmd
        top = gait.max_forward
        fig["sprint_10m_s"], fell = sprint(10.0, top, body)
        falls += fell
        _progress(f"sprint 10 m: {fig['sprint_10m_s']:.1f} s{' (FELL)' if fell else ''}")
        fig["odometry_error_pct"] = odometry_error(5.0, 0.6 * top, body)
        _progress(f"odometry over 5 m: {fig['odometry_error_pct']:.1f} %")
        push_speed = min(0.2, top)
        for name, axis, sign in PUSH_DIRECTIONS:
            fig[f"push_from_{name}_ns"] = largest_push(axis, push_speed, pushes, body, sign)
        # An axis survives what it survives from both sides.
        fig["push_sagittal_ns"] = min(fig["push_from_behind_ns"], fig["push_from_front_ns"])
        fig["push_lateral_ns"] = min(fig["push_from_right_ns"], fig["push_from_left_ns"])
        stood = [random_request_run(seed, body) for seed in range(random_runs)]
        fig["random_stood_pct"] = 100.0 * sum(stood) / len(stood)
        falls += len(stood) - sum(stood)
        _progress(f"random requests: {sum(stood)} of {len(stood)} runs stood")
        fig["falls"] = float(falls)
        per_body.append(fig)
    worse_high = ("sprint_10m_s", "odometry_error_pct", "falls")
    figures = {
        key: (max if key in worse_high else min)(f[key] for f in per_body) for key in per_body[0]
    }
    figures["bodies"] = float(len(per_body))
    figures["wall_s"] = time.perf_counter() - started
    units = {k: ("rad/s" if "radps" in k else "m/s") for k in figures if k.endswith("ps")}
    units.update(
        sprint_10m_s="s",
        odometry_error_pct="%",
        push_sagittal_ns="N s",
        push_lateral_ns="N s",
        **{f"push_from_{name}_ns": "N s" for name, _, _ in PUSH_DIRECTIONS},
        random_stood_pct="%",
        wall_s="s",
    )
    goals = {
        "forward_mps": Goal(0.40, at_least=True),
        "backward_mps": Goal(0.25, at_least=True),
        "sideways_mps": Goal(0.25, at_least=True),
        "turn_radps": Goal(1.5, at_least=True),
        "sprint_10m_s": Goal(28.0),
        "odometry_error_pct": Goal(5.0),
    }
    notes = (
        "speeds: truth along the axis over 7.5 s of steady walking, highest level with no fall",
        f"random_stood_pct: runs of {RANDOM_REQUESTS} random requests of {RANDOM_SECONDS:g} s "
        "that stood throughout (their falls are in falls)",
        f"gait limits (requests are clamped there): forward {gait.max_forward}, backward "
        f"{gait.max_backward}, sideways {gait.max_left} m/s, turn {gait.max_turn} rad/s",
        f"gait: {gait_file or 'shipped'}; bodies: "
        f"{', '.join(name for name, _ in _bodies(model, perturb))}"
        + (" (figures: the worst)" if len(per_body) > 1 else ""),
    )
    return BenchResult("walk", figures, units=units, goals=goals, notes=notes)
