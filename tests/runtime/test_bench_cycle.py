"""``motiond bench cycle`` measures in a process that never loads the simulator."""

from __future__ import annotations

import json
import subprocess
import sys


def test_the_measuring_process_reports_every_figure_without_mujoco():
    done = subprocess.run(
        [sys.executable, "-m", "motiond.bench.cycle", "--cycles", "50"],
        capture_output=True,
        text=True,
        check=False,
    )
    # The worker raises if mujoco or naosim was imported, or if any cycle failed.
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    for key in ("p50_ms", "p99_ms", "max_ms", "cycles", "rss_mb", "p99_cpu_ms"):
        assert key in figures
    assert figures["cycles"] == 50
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert 10 < figures["rss_mb"] < 1000
