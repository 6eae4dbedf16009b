"""``motiond plot`` and ``motiond.plots``: footsteps from a truth log, the PNG pages, the
command's kinds and errors, and footsteps of a real walk in naosim."""

from __future__ import annotations

import argparse
import csv
import itertools
import math
import sys

import attrs
import numpy as np
import pytest

from lola_io.codec import encode_actuator, encode_sensor
from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from lola_io.recording import Recorder
from motiond.commands import plot as plot_command
from motiond.plots import (
    DEFAULT_JOINTS,
    Footstep,
    PlotError,
    footsteps,
    plot_recording,
    plot_top_view,
    read_truth_log,
)
from naosim.truth import TRUTH_LOG_COLUMNS, GroundTruth, TruthLog

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CYCLE = 0.012
STEP = 0.1  # m per synthetic step


def _truth(t, left, right, *, torso_z=0.3, left_yaw=0.0) -> GroundTruth:
    torso = [(left[0] + right[0]) / 2, (left[1] + right[1]) / 2, torso_z]
    return GroundTruth(
        t=t,
        torso_position=torso,
        torso_rpy=[0.0, 0.0, 0.0],
        com=[torso[0], torso[1], 0.25],
        left_sole_position=left,
        left_sole_rpy=[0.0, 0.0, left_yaw],
        right_sole_position=right,
        right_sole_rpy=[0.0, 0.0, 0.0],
        ball=[math.nan] * 3,
        tilt=0.0,
    )


def write_synthetic_walk(path, steps: int = 4, fall: bool = False) -> None:
    """Stand 0.3 s; then ``steps`` steps of 0.1 m (left first): a 0.3 s swing 2 cm high, then
    0.2 s on both feet. With ``fall``, the torso drops to 0.1 m for the last 0.1 s."""
    feet = {"L": [0.0, 0.05, 0.0], "R": [0.0, -0.05, 0.0]}
    times = itertools.count()
    rows: list[GroundTruth] = []

    def hold(seconds: float) -> None:
        for _ in range(round(seconds / CYCLE)):
            rows.append(_truth(next(times) * CYCLE, list(feet["L"]), list(feet["R"])))

    hold(0.3)
    for k in range(steps):
        foot = "LR"[k % 2]
        x0, n = feet[foot][0], round(0.3 / CYCLE)
        for i in range(1, n + 1):
            s = i / n
            feet[foot][0], feet[foot][2] = x0 + STEP * s, 0.02 * math.sin(math.pi * s)
            rows.append(_truth(next(times) * CYCLE, list(feet["L"]), list(feet["R"])))
        feet[foot][2] = 0.0
        hold(0.2)
    if fall:
        for _ in range(round(0.1 / CYCLE)):
            rows.append(_truth(next(times) * CYCLE, feet["L"], feet["R"], torso_z=0.1))
    with TruthLog(path) as log:
        for row in rows:
            log.write(row)


@pytest.fixture
def walk_log(tmp_path):
    path = tmp_path / "truth.csv"
    write_synthetic_walk(path, fall=True)
    return path


def test_footsteps_are_one_per_touchdown_where_the_sole_came_to_rest(walk_log):
    steps = footsteps(read_truth_log(walk_log))
    summary = [(s.foot, round(s.x, 3), round(s.y, 3)) for s in steps]
    assert summary == [
        ("L", 0.0, 0.05),
        ("R", 0.0, -0.05),
        ("L", 0.1, 0.05),
        ("R", 0.1, -0.05),
        ("L", 0.2, 0.05),
        ("R", 0.2, -0.05),
    ], summary
    # Dated when the sole stopped (within a cycle): the start, then the end of each swing.
    stand, swing, rest = (round(seconds / CYCLE) for seconds in (0.3, 0.3, 0.2))
    landings = [(stand + swing - 1 + k * (swing + rest)) * CYCLE for k in range(4)]
    assert [s.t for s in steps] == pytest.approx([0.0, 0.0, *landings], abs=CYCLE + 1e-9)
    assert all(isinstance(s, Footstep) and s.yaw == 0.0 for s in steps)


def test_a_sole_that_slides_on_the_floor_or_hovers_is_not_a_footstep(tmp_path):
    path = tmp_path / "slide.csv"
    with TruthLog(path) as log:
        for i in range(100):
            # The left sole slides 0.2 m/s on the floor, then hovers 3 cm up; the right rests.
            left = [0.2 * i * CYCLE, 0.05, 0.0] if i < 50 else [0.12, 0.05, 0.03]
            log.write(_truth(i * CYCLE, left, [0.0, -0.05, 0.0]))
    steps = footsteps(read_truth_log(path))
    assert [s.foot for s in steps] == ["R"]


def test_the_footstep_yaw_is_the_sole_yaw(tmp_path):
    path = tmp_path / "turned.csv"
    with TruthLog(path) as log:
        for i in range(10):
            log.write(_truth(i * CYCLE, [0, 0.05, 0], [0, -0.05, 0], left_yaw=0.4))
    (left,) = (s for s in footsteps(read_truth_log(path)) if s.foot == "L")
    assert left.yaw == pytest.approx(0.4)


def test_an_old_truth_log_reads_with_nan_feet_and_still_plots(tmp_path):
    path = tmp_path / "old.csv"
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(TRUTH_LOG_COLUMNS[:10])
        for i in range(5):
            writer.writerow([i * CYCLE, 0.01 * i, 0, 0.3, 0, 0, 0, 0, "nan", "nan"])
    truth = read_truth_log(path)
    assert set(TRUTH_LOG_COLUMNS) <= set(truth)
    assert truth["x"][-1] == pytest.approx(0.04)
    assert np.isnan(truth["lfoot_x"]).all() and truth["lfoot_x"].shape == (5,)
    assert footsteps(truth) == []
    assert plot_top_view(truth, tmp_path / "old.png").read_bytes().startswith(PNG_SIGNATURE)


def test_a_file_that_is_not_a_truth_log_is_refused(tmp_path):
    path = tmp_path / "other.csv"
    path.write_text("a,b,c\n1,2,3\n")
    with pytest.raises(PlotError, match="not a truth log"):
        read_truth_log(path)


# Each page takes 0.2-0.6 s to draw here, so every test draws a different one: plot_truth's page
# is drawn by the command test, plot_recording with chosen joints too.
def test_plot_top_view_with_a_plan_and_a_fall_writes_a_png(walk_log, tmp_path):
    truth = read_truth_log(walk_log)
    assert truth["fallen"][-1] == 1  # the fall is in the log, to be marked
    plan = [(0.0, 0.0, 0.0), (0.1, 0.0, 0.0), (0.2, 0.05, 0.5)]
    top = plot_top_view(truth, tmp_path / "top.png", planned=plan, title="synthetic walk")
    data = top.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 10_000


def write_recording(path, frames: int = 40) -> None:
    ticks = itertools.count(0.0, CYCLE / 2)
    knee = JOINT_INDEX["LKneePitch"]
    with Recorder.open(path, clock=lambda: next(ticks)) as recorder:
        for n in range(frames):
            target = np.zeros(NUM_JOINTS)
            target[knee] = 0.5 * math.sin(n * 0.2)
            measured = np.zeros(NUM_JOINTS)
            measured[knee] = 0.5 * math.sin((n - 3) * 0.2)
            fsr = np.r_[np.full(4, 0.6 + 0.3 * math.sin(n * 0.2)), np.full(4, 0.7)]
            sensor = attrs.evolve(SensorFrame.neutral(measured), fsr=fsr)
            recorder.sensor(encode_sensor(sensor))
            recorder.actuator(encode_actuator(ActuatorFrame.complete(target, np.ones(NUM_JOINTS))))


def test_plot_recording_draws_targets_against_measured_angles(tmp_path):
    path = tmp_path / "run.lola"
    write_recording(path)
    png = plot_recording(path, tmp_path / "legs.png")
    assert png.read_bytes().startswith(PNG_SIGNATURE)
    assert len(DEFAULT_JOINTS) == 11  # LoLA's leg joints: no RHipYawPitch of its own
    with pytest.raises(PlotError, match="unknown joint LKnee; valid joints: HeadYaw, "):
        plot_recording(path, tmp_path / "bad.png", joints=["LKnee"])


def run_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="motiond plot")
    plot_command.add_arguments(parser)
    return plot_command.main(parser.parse_args(argv))


def test_the_command_tells_truth_logs_from_recordings(walk_log, tmp_path, capsys):
    recording = tmp_path / "run.lola"
    write_recording(recording, frames=10)
    assert run_command([str(walk_log)]) == 0
    assert capsys.readouterr().out.strip() == str(walk_log.with_suffix(".png"))
    out = tmp_path / "knees.png"
    assert (
        run_command([str(recording), "--out", str(out), "--joints", "LKneePitch,RKneePitch"]) == 0
    )
    assert capsys.readouterr().out.strip() == str(out)
    for png in (walk_log.with_suffix(".png"), out):
        assert png.read_bytes().startswith(PNG_SIGNATURE)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["{tmp}/missing.csv"], "missing.csv: no such file"),
        (["{rec}", "--joints", "LKneePitch,LeftKnee"], "unknown joint LeftKnee"),
        (["{tmp}/junk.bin"], "not a LoLA recording"),
        (["{truth}", "--joints", "LKneePitch"], "--joints is for LoLA recordings"),
        (["{rec}", "--kind", "truth"], "not a truth log"),
        (["{truth}", "--out", "{tmp}/no/such/dir.png"], "no/such/dir.png"),
    ],
    ids=["missing", "unknown joint", "junk", "joints on truth", "wrong kind", "bad out"],
)
def test_command_errors_are_one_line_and_exit_2(tmp_path, capsys, argv, message):
    rec, truth = tmp_path / "run.lola", tmp_path / "truth.csv"
    write_recording(rec, frames=3)
    write_synthetic_walk(truth, steps=1)
    (tmp_path / "junk.bin").write_bytes(b"\x00\x01 not a recording")
    names = {"tmp": tmp_path, "rec": rec, "truth": truth}
    assert run_command([a.format(**names) for a in argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("motiond plot: "), lines
    assert message in lines[0]


def test_without_matplotlib_the_command_says_what_to_install(walk_log, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    assert run_command([str(walk_log)]) == 2
    assert "pip install 'motiond[plot]'" in capsys.readouterr().err


async def test_a_short_walk_in_naosim_leaves_alternating_footsteps(tmp_path):
    from motiond.runtime import Runtime
    from motiond.simulated import simulated_daemon
    from skills.walk import Walk

    log = tmp_path / "truth.csv"
    runtime = Runtime()
    runtime.emit(Walk(), priority=5.0, emitter="test")
    async with simulated_daemon(start="StandInit", runtime=runtime, truth_log=log):
        runtime.emit(Walk(0.2, 0.0, 0.0), priority=5.0, emitter="test")
        while runtime.now < 2.5:
            await runtime.next_cycle()
    truth = read_truth_log(log)
    steps = footsteps(truth)
    story = "\n".join(f"  {s.t:5.2f} {s.foot} x {s.x:+.3f} y {s.y:+.3f}" for s in steps)
    assert not truth["fallen"].any(), story
    walking = [s for s in steps if s.t > 0.0]
    assert len(walking) >= 4, story
    assert all(a.foot != b.foot for a, b in itertools.pairwise(walking)), story
    assert walking[-1].x > walking[0].x + 0.1, story  # the steps went forward
    assert all(s.y > 0 for s in steps if s.foot == "L"), story
    assert all(s.y < 0 for s in steps if s.foot == "R"), story
