"""``motiond demo``: stands the simulated NAO up, walks a course, sits it down, reporting from
the truth log."""

from __future__ import annotations

import csv

from motiond.cli import main
from motiond.commands.demo import summarise
from naosim.truth import TRUTH_LOG_COLUMNS


def test_demo_walks_its_course_and_a_square_through_the_api_and_never_falls(tmp_path, capsys):
    log, plot = tmp_path / "truth.csv", tmp_path / "demo.png"
    assert main(["demo", "--truth-log", str(log), "--plot", str(plot)]) == 0
    out = capsys.readouterr().out
    assert "result: ok, the robot never fell" in out
    for phase in (
        "wake up",
        "walked 1.5 m forward",
        "walked 0.5 m to the left",
        "walked a quarter turn left",
        "walked 0.75 m back",
        "odometry over the course",
        "square corner 4: reached",
        "stood high",
        "waved",
        "sat down",
    ):
        assert phase in out
    assert "NOT reached" not in out
    assert plot.read_bytes().startswith(b"\x89PNG")
    assert str(plot) in out
    with log.open() as f:
        rows = list(csv.DictReader(f))
    assert all(r["fallen"] == "0" for r in rows)
    x = [float(r["x"]) for r in rows]
    # 1.5 m forward by the odometry, then the rest of the course: the truth within the
    # odometry's 5 % (how far the stop carries it on depends on when the client's stop
    # arrives, which a loaded machine moves: 1.49-1.65 m measured).
    assert max(x) - x[0] > 1.5 * 0.95
    assert float(rows[-1]["z"]) < 0.27  # and it sat down again


def test_a_fall_in_the_truth_log_makes_the_summary_say_so(tmp_path):
    log = tmp_path / "truth.csv"
    with log.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(TRUTH_LOG_COLUMNS)
        for i, (z, fallen) in enumerate([(0.3, "0"), (0.25, "0"), (0.1, "1")]):
            writer.writerow([i * 0.012, 0, 0, z, 0, 0, 0, fallen, "nan", "nan"])
    lines, fell = summarise(log, [("stand", 0.012)])
    assert fell
    assert any("FELL at t=0.02" in line for line in lines)
