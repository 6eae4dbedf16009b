"""Plots of a run as PNG: the simulator's truth log and a LoLA recording.

- :func:`read_truth_log` reads naosim's truth CSV (``naosim.truth.TRUTH_LOG_COLUMNS``) into
  columns by name; logs written before the CoM and sole columns existed read those as NaN.
- :func:`footsteps` finds where the soles came to rest on the floor.
- :func:`plot_top_view` draws the course seen from above (torso, CoM, footsteps, a plan, falls);
  :func:`plot_truth` adds heights, tilt and the CoM against the feet over time.
- :func:`plot_recording` draws joint targets against measured angles, and the FSR load.

matplotlib is optional: it is imported inside the plotting functions (Agg backend, no display),
and a missing one raises :class:`PlotError` naming the package to install.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from lola_io.joints import JOINT_INDEX, JOINT_NAMES, LEFT_LEG_JOINTS, RIGHT_LEG_JOINTS
from naosim.truth import TRUTH_LOG_COLUMNS

#: NAO's sole (NAOqi's figures), m: drawn as a rectangle centred on the logged sole position.
SOLE_LENGTH = 0.16
SOLE_WIDTH = 0.088
#: What :func:`plot_recording` draws without ``joints``: the leg joints, in LoLA order (11, as
#: LoLA has no RHipYawPitch: LHipYawPitch drives both hips).
DEFAULT_JOINTS = (*LEFT_LEG_JOINTS, *RIGHT_LEG_JOINTS)

_FOOT_COLOURS = {"L": "tab:blue", "R": "tab:red"}
_FALL_COLOUR = "crimson"
_SOLES = dict(alpha=0.25, lw=1.0, zorder=1)
_ARROWS = dict(angles="xy", scale_units="xy", scale=1.0, color="tab:purple", width=0.005, zorder=4)
#: Where the truth page's plots sit (fractions of the figure): no tight_layout, see ``_save``.
_PAGE_GRID = dict(left=0.06, right=0.93, bottom=0.07, wspace=0.2, hspace=0.45)


class PlotError(Exception):
    """A plot that cannot be made: bad input file, unknown joint, or no matplotlib."""


class Footstep(NamedTuple):
    """A sole at rest on the floor: when it came to rest, which foot, where (m), heading (rad)."""

    t: float
    foot: str
    x: float
    y: float
    yaw: float


def read_truth_log(path: str | Path) -> dict[str, np.ndarray]:
    """The truth log at ``path`` as float arrays by column name.

    Every column of ``TRUTH_LOG_COLUMNS`` is present: those an older log lacks are NaN. A row
    cut short (the simulator was killed mid-write) is dropped.
    """
    try:
        with Path(path).open(newline="") as f:
            reader = csv.reader(f)
            header = next(reader, [])
            if header[:4] != ["t", "x", "y", "z"]:
                raise PlotError(f"{path}: not a truth log (header does not start with t,x,y,z)")
            rows = [row for row in reader if len(row) == len(header)]
    except (UnicodeDecodeError, csv.Error):
        raise PlotError(f"{path}: not a truth log (not CSV text)") from None
    if not rows:
        raise PlotError(f"{path}: the truth log has no rows")
    try:
        data = np.array(rows, dtype=np.float64).reshape(len(rows), len(header))
    except ValueError as exc:
        raise PlotError(f"{path}: a value is not a number ({exc})") from None
    columns = {name: data[:, i] for i, name in enumerate(header)}
    for name in TRUTH_LOG_COLUMNS:
        columns.setdefault(name, np.full(len(rows), np.nan))
    return columns


def footsteps(
    truth: dict[str, np.ndarray],
    *,
    floor_tolerance: float = 0.01,
    still_distance: float = 0.005,
    hold: float = 0.05,
) -> list[Footstep]:
    """Touchdowns of both soles, in time order: one entry each time a sole comes to rest.

    A sole rests at a row when its height is within ``floor_tolerance`` of its lowest in the log
    and it stayed that low and within ``still_distance`` of where it is over the last ``hold``
    seconds or more. A run of resting rows is one footstep, dated when the sole stopped (the
    start of its first still window). Logs without sole columns give no footsteps.
    """
    t = truth["t"]
    steps: list[Footstep] = []
    for foot, prefix in (("L", "lfoot"), ("R", "rfoot")):
        xyz = np.column_stack([truth[f"{prefix}_{axis}"] for axis in "xyz"])
        finite = np.isfinite(xyz).all(axis=1)
        if not finite.any():
            continue
        low = finite & (xyz[:, 2] <= np.min(xyz[finite, 2]) + floor_tolerance)
        last_resting = -2
        for i in np.flatnonzero(low):
            start = int(np.searchsorted(t, t[i] - hold, side="right")) - 1
            if start < 0 or not low[start : i + 1].all():
                continue
            if np.max(np.linalg.norm(xyz[start : i + 1] - xyz[i], axis=1)) > still_distance:
                continue
            if last_resting != i - 1:  # a new rest, not the same one going on
                yaw = float(truth[f"{prefix}_yaw"][i])
                steps.append(Footstep(float(t[start]), foot, *map(float, xyz[i, :2]), yaw))
            last_resting = i
    return sorted(steps, key=lambda s: s.t)


def plot_top_view(
    truth: dict[str, np.ndarray],
    out_png: str | Path,
    planned: Sequence[tuple[float, float, float]] | None = None,
    title: str | None = None,
) -> Path:
    """The run seen from above (x right, y up, equal axes), as a PNG at ``out_png``.

    Torso and CoM paths, footsteps as sole rectangles (left blue, right red), ``planned``
    waypoints (x, y, theta) as a dashed line with heading arrows, falls as crosses.
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.0, 6.0), dpi=100)
    fig.subplots_adjust(left=0.12, right=0.97, bottom=0.09, top=0.93)
    _draw_top_view(ax, truth, planned)
    ax.set_title(title or "top view")
    return _save(plt, fig, out_png)


def plot_truth(truth: dict[str, np.ndarray], out_png: str | Path, title: str | None = None) -> Path:
    """A page of the run: top view, torso height and tilt, CoM against the feet; falls marked."""
    plt = _pyplot()
    fig = plt.figure(figsize=(13.0, 7.0), dpi=100)
    grid = fig.add_gridspec(3, 2, width_ratios=(1.1, 1.0), top=0.9 if title else 0.94, **_PAGE_GRID)
    top = fig.add_subplot(grid[:, 0])
    _draw_top_view(top, truth, None)
    top.set_title("(a) top view")

    t, falls = truth["t"], _fall_spans(truth)
    height = fig.add_subplot(grid[0, 1])
    height.plot(t, truth["z"], color="black", label="torso z")
    height.set_ylabel("torso z (m)")
    tilt_axis = height.twinx()
    tilt = np.arccos(np.clip(np.cos(truth["roll"]) * np.cos(truth["pitch"]), -1.0, 1.0))
    tilt_axis.plot(t, tilt, color="tab:orange", label="tilt")
    tilt_axis.set_ylabel("tilt (rad)", color="tab:orange")
    height.set_title("(b) torso height and tilt")

    support = []
    for row, axis in ((1, "x"), (2, "y")):
        ax = fig.add_subplot(grid[row, 1], sharex=height)
        ax.plot(t, truth[f"com_{axis}"], color="black", label=f"CoM {axis}")
        for foot, prefix in (("L", "lfoot"), ("R", "rfoot")):
            ax.plot(
                t,
                truth[f"{prefix}_{axis}"],
                color=_FOOT_COLOURS[foot],
                lw=0.8,
                label=f"{'left' if foot == 'L' else 'right'} sole {axis}",
            )
        ax.set_ylabel(f"{axis} (m)")
        ax.legend(loc="best", fontsize="small")
        support.append(ax)
    support[0].set_title("(c) CoM and feet (support)")
    support[-1].set_xlabel("t (s)")
    for ax in (height, *support):
        ax.grid(True, alpha=0.3)
        for start, end in falls:
            ax.axvspan(start, end, color=_FALL_COLOUR, alpha=0.2, lw=0)
    if title:
        fig.suptitle(title)
    return _save(plt, fig, out_png)


def plot_recording(
    path: str | Path, out_png: str | Path, joints: Sequence[str] | None = None
) -> Path:
    """Joint targets (actuator frames) against measured angles (sensor frames) over time, one
    small plot per joint (default :data:`DEFAULT_JOINTS`), and the feet's FSR load (support).

    Frames that no longer decode are skipped (the title counts them).
    """
    from lola_io.errors import LolaDecodeError
    from lola_io.frames import SensorFrame
    from lola_io.recording import read_recording

    names = tuple(joints) if joints is not None else DEFAULT_JOINTS
    unknown = [name for name in names if name not in JOINT_INDEX]
    if unknown or not names:
        raise PlotError(
            f"unknown joint {', '.join(unknown) or '(none given)'}; "
            f"valid joints: {', '.join(JOINT_NAMES)}"
        )
    columns = [JOINT_INDEX[name] for name in names]
    # Rows of (time, selected joints...): measured angles then FSR totals; targets.
    sensed: list[list[float]] = []
    targets: list[list[float]] = []
    invalid = 0
    header, messages = read_recording(path)
    for message in messages:
        try:
            frame = message.decode()
        except LolaDecodeError:
            invalid += 1
            continue
        row = [message.time, *frame.position[columns].tolist()]
        if isinstance(frame, SensorFrame):
            sensed.append([*row, frame.left_fsr_total, frame.right_fsr_total])
        else:
            targets.append(row)
    if not sensed and not targets:
        raise PlotError(f"{path}: the recording holds no frames")
    measured, commanded = np.array(sensed).reshape(-1, len(names) + 3), np.array(targets)

    plt = _pyplot()
    count = len(names) + (1 if sensed else 0)
    ncols = min(4, count)
    nrows = math.ceil(count / ncols)
    width, height = 3.4 * ncols, 2.3 * nrows + 0.6  # inches
    margins = dict(left=0.85 / width, right=1 - 0.15 / width, bottom=0.45 / height)
    grid = dict(top=1 - 0.6 / height, wspace=0.4, hspace=0.35, **margins)
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(width, height), dpi=100, sharex=True, squeeze=False, gridspec_kw=grid
    )
    flat = list(axes.flat)
    for k, name in enumerate(names, start=1):
        ax = flat[k - 1]
        if targets:
            ax.plot(commanded[:, 0], commanded[:, k], "--", color="tab:blue", label="target")
        ax.plot(measured[:, 0], measured[:, k], color="black", lw=0.8, label="measured")
        ax.set_title(name, fontsize="medium")
        ax.set_ylabel("rad")
    if sensed:
        ax = flat[len(names)]
        ax.plot(measured[:, 0], measured[:, -2], color=_FOOT_COLOURS["L"], label="left")
        ax.plot(measured[:, 0], measured[:, -1], color=_FOOT_COLOURS["R"], label="right")
        ax.set_title("FSR total (support)", fontsize="medium")
        ax.set_ylabel("kg")
        ax.legend(loc="best", fontsize="small")
    flat[0].legend(loc="best", fontsize="small")
    for ax in flat[count:]:
        ax.set_visible(False)
    for ax in flat[:count]:
        ax.grid(True, alpha=0.3)
    for ax in axes[-1]:
        ax.set_xlabel("t (s)")
    skipped = f", {invalid} frames skipped (invalid)" if invalid else ""
    source = f" from {header.source}" if header.source else ""
    fig.suptitle(
        f"{Path(path).name}{source}: {len(sensed)} sensor, {len(targets)} actuator frames{skipped}"
    )
    return _save(plt, fig, out_png)


def _draw_top_view(
    ax: Any, truth: dict[str, np.ndarray], planned: Sequence[tuple[float, float, float]] | None
) -> None:
    from matplotlib.collections import PolyCollection

    steps = footsteps(truth)
    for foot, name in (("L", "left"), ("R", "right")):
        soles = [_sole_corners(s.x, s.y, s.yaw) for s in steps if s.foot == foot]
        if soles:
            colour = _FOOT_COLOURS[foot]
            label = f"{name} footsteps ({len(soles)})"
            ax.add_collection(PolyCollection(soles, fc=colour, ec=colour, label=label, **_SOLES))
    ax.plot(truth["x"], truth["y"], color="black", lw=1.2, label="torso", zorder=2)
    ax.plot(truth["com_x"], truth["com_y"], color="tab:green", lw=0.8, label="CoM", zorder=2)
    ax.plot(truth["x"][:1], truth["y"][:1], "o", color="black", ms=5, label="start", zorder=3)
    if planned:
        plan = np.asarray(planned, dtype=np.float64).reshape(-1, 3)
        ax.plot(plan[:, 0], plan[:, 1], "--", color="tab:purple", lw=1.0, label="planned")
        heading = 0.1 * np.column_stack((np.cos(plan[:, 2]), np.sin(plan[:, 2])))  # 10 cm arrows
        ax.update_datalim(plan[:, :2] + heading)  # quiver leaves the limits alone
        ax.quiver(*plan[:, :2].T, *heading.T, **_ARROWS)
    if onsets := [i for i, _ in _fall_runs(truth["fallen"])]:
        fall = dict(color=_FALL_COLOUR, ms=10, label="fall", zorder=5)
        ax.plot(truth["x"][onsets], truth["y"][onsets], "X", **fall)
    ax.set_aspect("equal", adjustable="datalim")
    ax.autoscale_view()
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")


def _sole_corners(x: float, y: float, yaw: float) -> np.ndarray:
    """The four corners of a sole rectangle centred at (x, y), turned by ``yaw``."""
    half = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]]) * (SOLE_LENGTH / 2, SOLE_WIDTH / 2)
    c, s = math.cos(yaw), math.sin(yaw)
    return half @ np.array([[c, s], [-s, c]]) + (x, y)


def _fall_runs(fallen: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) row of every run of rows with ``fallen`` set."""
    rows = np.flatnonzero(fallen == 1)
    if rows.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(rows) > 1)
    starts = np.concatenate(([rows[0]], rows[breaks + 1]))
    ends = np.concatenate((rows[breaks], [rows[-1]]))
    return list(zip(starts.tolist(), ends.tolist(), strict=True))


def _fall_spans(truth: dict[str, np.ndarray]) -> list[tuple[float, float]]:
    """(start, end) times of every fall; a one-row fall gets one cycle's width."""
    t = truth["t"]
    period = float(np.median(np.diff(t))) if t.size > 1 else 0.012
    return [(float(t[a]), float(t[b]) + period) for a, b in _fall_runs(truth["fallen"])]


def _pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend (files only, no display)."""
    try:
        import matplotlib
    except ImportError:
        raise PlotError("plots need matplotlib: pip install 'motiond[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(plt: Any, fig: Any, out_png: str | Path) -> Path:
    # Margins are set when a figure is made: tight_layout would cost a second draw (~0.5 s).
    path = Path(out_png)
    try:
        fig.savefig(path, format="png")
    finally:
        plt.close(fig)
    return path
