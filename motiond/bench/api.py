"""``motiond bench api``: the behaviour API under load, three processes as on a robot.

naosim serves LoLA in real time (12 ms a cycle, ``motiond sim --realtime --start standing``);
the daemon with its API server runs in a second process; 50 clients, every one subscribed to
every cycle's state and emitting at 10 Hz, run in five more processes of ten
(`motiond.bench.api_workers`). A team's behaviours are processes of their own; fifty in one
Python process would measure that process's own queue. All are measured over the same window,
opened once every process has had :data:`SETTLE` seconds to start.

Figures:
- ``emit_to_effect_cycles_p99``: cycles from the arrival of the probe client's emission to the
  first actuator frame that carries it (the frame's HeadYaw target turns towards the new one;
  the probe is the only client on the head, the 49 others command the arms).
- ``state_latency_ms_p99``: from the end of a cycle (its reply sent) to a client's receipt of
  that cycle's state, over every state of every client. ``state_written_ms_p99``: the daemon's
  share of it, from the end of the cycle until the state is in every subscriber's socket.
- ``cycle_overruns``: replies that missed LoLA's deadline while the clients ran;
  ``missed_cycles``: cycles without a frame.
- ``rss_mb``: the daemon process's peak resident memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from motiond.bench.timing import BenchResult, Goal

CLIENTS = 50
FULL_SECONDS = 20.0
QUICK_SECONDS = 6.0
#: Client processes (the clients are shared among them, ten each by default).
PROCESSES = 5
#: Seconds every process gets to start before the measurement window opens.
SETTLE = 4.0
_SIM = (sys.executable, "-m", "motiond.cli", "sim", "--realtime", "--start", "standing")
_WORKER = (sys.executable, "-m", "motiond.bench.api_workers")


def _wait_for(path: Path, process: subprocess.Popen, what: str, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not path.exists():
        if process.poll() is not None:
            raise RuntimeError(f"bench api: the {what} exited early: {process.stderr.read()}")
        if time.monotonic() > end:
            raise RuntimeError(f"bench api: the {what} did not start in {timeout:.0f} s")
        time.sleep(0.05)


def _last_json(output: str, what: str) -> dict:
    lines = output.strip().splitlines()
    if not lines:
        raise RuntimeError(f"bench api: the {what} printed nothing")
    return json.loads(lines[-1])


def measure(
    clients: int, seconds: float, processes: int = PROCESSES
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run the simulator, the daemon and ``processes`` client processes; (the daemon's JSON,
    the clients' JSON merged), all measured over the same window after :data:`SETTLE`."""
    with tempfile.TemporaryDirectory(prefix="motiond-bench-api-", dir="/tmp") as tmp:
        lola, api = Path(tmp) / "lola.sock", Path(tmp) / "api.sock"
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        processes_started: list[subprocess.Popen] = []

        def start(*args: str) -> subprocess.Popen:
            process = subprocess.Popen(
                args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
            )
            processes_started.append(process)
            return process

        try:
            sim = start(*_SIM, "--socket", str(lola))
            _wait_for(lola, sim, "simulator")
            window = ("--start", str(time.monotonic() + SETTLE), "--seconds", str(seconds))
            daemon = start(*_WORKER, "daemon", "--lola", str(lola), "--api", str(api), *window)
            _wait_for(api, daemon, "daemon")
            share = -(-clients // processes)
            workers = [
                start(*_WORKER, "clients", "--api", str(api), *window, "--first", str(first),
                      "--clients", str(min(share, clients - first)))
                for first in range(0, clients, share)
            ]  # fmt: skip
            results = [_result(w, "clients", SETTLE + seconds + 120.0) for w in workers]
            merged: dict[str, Any] = {
                "latencies_ms": [x for r in results for x in r["latencies_ms"]],
                "cpu_s": sum(r["cpu_s"] for r in results),
            }
            for key in ("states", "dropped", "emits", "refused"):
                merged[key] = sum(r[key] for r in results)
            return _result(daemon, "daemon", 60.0), merged
        finally:
            for process in processes_started:
                if process.poll() is None:
                    process.kill()
                    process.wait()


def _result(process: subprocess.Popen, what: str, timeout: float) -> dict[str, Any]:
    out, err = process.communicate(timeout=timeout)
    if process.returncode != 0:
        raise RuntimeError(f"bench api: the {what} failed: {err[-2000:]}")
    return _last_json(out, what)


def run(quick: bool) -> BenchResult:
    """Measure with :data:`CLIENTS` clients and report against the issue's goals."""
    seconds = QUICK_SECONDS if quick else FULL_SECONDS
    daemon, clients = measure(CLIENTS, seconds)
    effect = np.array(daemon["effect_cycles"] or [np.nan], dtype=float)
    latency = np.array(clients["latencies_ms"] or [np.nan], dtype=float)
    written = np.array(daemon["publish_ms"] or [np.nan], dtype=float)
    figures = {
        "clients": float(daemon["clients"]),  # connected when the window opened
        "emit_to_effect_cycles_p99": float(np.percentile(effect, 99)),
        "emit_to_effect_cycles_max": float(np.max(effect)),
        "probe_emits": float(len(daemon["effect_cycles"])),
        "state_latency_ms_p50": float(np.percentile(latency, 50)),
        "state_latency_ms_p99": float(np.percentile(latency, 99)),
        "state_latency_ms_max": float(np.max(latency)),
        "state_written_ms_p99": float(np.percentile(written, 99)),
        "states_received": float(clients["states"]),
        "states_dropped": float(daemon["dropped_states"] + clients["dropped"]),
        "emits": float(clients["emits"]),
        "cycles": float(daemon["cycles"]),
        "cycle_overruns": float(daemon["cycle_overruns"]),
        "missed_cycles": float(daemon["missed_cycles"]),
        "rss_mb": float(daemon["rss_mb"]),
    }
    return BenchResult(
        name="api",
        figures=figures,
        units={
            "emit_to_effect_cycles_p99": "cycles",
            "emit_to_effect_cycles_max": "cycles",
            "state_latency_ms_p50": "ms",
            "state_latency_ms_p99": "ms",
            "state_latency_ms_max": "ms",
            "state_written_ms_p99": "ms",
            "rss_mb": "MB",
        },
        goals={
            "emit_to_effect_cycles_p99": Goal(1.0),
            "state_latency_ms_p99": Goal(12.0),
            "cycle_overruns": Goal(0.0),
            "clients": Goal(50.0, at_least=True),
        },
        notes=(
            f"{seconds:.0f} s with {CLIENTS} clients in {PROCESSES} processes, each subscribed to "
            "every cycle's state and emitting at 10 Hz; naosim in real time; "
            f"CPU s: daemon {daemon['cpu_s']:.1f}, clients {clients['cpu_s']:.1f}",
        ),
    )
