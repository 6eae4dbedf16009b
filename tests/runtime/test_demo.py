"""``motiond demo``: stands the simulated NAO up, walks a course, sits it down, reporting from
the truth log."""

from __future__ import annotations

import csv

from motiond.cli import main
from motiond.commands.demo import summarise
from naosim.truth import TRUTH_LOG_COLUMNS


def test_demo_stands_up_walks_the_course_sits_down_and_never_falls(tmp_path, capsys):
    log = tmp_path / "truth.csv"
    assert main(["demo", "--truth-log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "result: ok, the robot never fell" in out
    for phase in ("StandInit", "forward 1.5 m", "sideways", "turn 90 deg", "back 0.5 m", "stop"):
        assert phase in out
    assert "sit down" in out
    assert "gave up" not in out  # every leg covered its distance
    with log.open() as f:
        rows = list(csv.DictReader(f))
    assert all(r["fallen"] == "0" for r in rows)
    x = [float(r["x"]) for r in rows]
    assert max(x) - x[0] > 1.4  # the forward leg really went forward (truth, not odometry)
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
