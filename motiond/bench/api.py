"""``motiond bench api``: the behaviour API under load, three processes as on a robot.

naosim serves LoLA in real time (12 ms a cycle, ``motiond sim --realtime --start standing``);
the daemon with its API server runs in a second process; N clients (50; every one subscribed
to every cycle's state and emitting at 10 Hz) run in a third (`motiond.bench.api_workers`).

Figures:
- ``emit_to_effect_cycles_p99``: cycles from the arrival of the probe client's emission to the
  first actuator frame that carries it (the frame's HeadYaw target turns towards the new one;
  the probe is the only client on the head, the 49 others command the arms).
- ``state_latency_ms_p99``: from the end of a cycle (its reply sent) to a client's receipt of
  that cycle's state, over every state of every client.
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

import numpy as np

from motiond.bench.timing import BenchResult, Goal

CLIENTS = 50
FULL_SECONDS = 20.0
QUICK_SECONDS = 6.0
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


def measure(clients: int, seconds: float) -> tuple[dict, dict]:
    """Run the three processes; (the daemon's JSON, the clients' JSON)."""
    with tempfile.TemporaryDirectory(prefix="motiond-bench-api-", dir="/tmp") as tmp:
        lola, api = Path(tmp) / "lola.sock", Path(tmp) / "api.sock"
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        api_args = ("--api", str(api), "--seconds")
        sim = subprocess.Popen(
            [*_SIM, "--socket", str(lola)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        daemon = None
        try:
            _wait_for(lola, sim, "simulator")
            daemon = subprocess.Popen(
                [*_WORKER, "daemon", "--lola", str(lola), *api_args, str(seconds + 1.0)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
            _wait_for(api, daemon, "daemon")
            done = subprocess.run(
                [*_WORKER, "clients", *api_args, str(seconds), "--clients", str(clients)],
                capture_output=True,
                text=True,
                env=env,
                check=False,
            )
            if done.returncode != 0:
                raise RuntimeError(f"bench api: the clients failed: {done.stderr[-2000:]}")
            out, err = daemon.communicate(timeout=seconds + 60.0)
            if daemon.returncode != 0:
                raise RuntimeError(f"bench api: the daemon failed: {err[-2000:]}")
            return _last_json(out, "daemon"), _last_json(done.stdout, "clients")
        finally:
            for process in (daemon, sim):
                if process is not None and process.poll() is None:
                    process.kill()
                    process.wait()


def run(quick: bool) -> BenchResult:
    """Measure with :data:`CLIENTS` clients and report against the issue's goals."""
    seconds = QUICK_SECONDS if quick else FULL_SECONDS
    daemon, clients = measure(CLIENTS, seconds)
    effect = np.array(daemon["effect_cycles"] or [np.nan], dtype=float)
    latency = np.array(clients["latencies_ms"] or [np.nan], dtype=float)
    figures = {
        "clients": float(CLIENTS),
        "emit_to_effect_cycles_p99": float(np.percentile(effect, 99)),
        "emit_to_effect_cycles_max": float(np.max(effect)),
        "probe_emits": float(len(daemon["effect_cycles"])),
        "state_latency_ms_p50": float(np.percentile(latency, 50)),
        "state_latency_ms_p99": float(np.percentile(latency, 99)),
        "state_latency_ms_max": float(np.max(latency)),
        "states_received": float(clients["states"]),
        "states_dropped": float(daemon["api"]["dropped_states"] + clients["dropped"]),
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
            "rss_mb": "MB",
        },
        goals={
            "emit_to_effect_cycles_p99": Goal(1.0),
            "state_latency_ms_p99": Goal(12.0),
            "cycle_overruns": Goal(0.0),
            "clients": Goal(50.0, at_least=True),
        },
        notes=(
            f"{seconds:.0f} s with {CLIENTS} clients, each subscribed to every cycle's state "
            "and emitting at 10 Hz; naosim real time, daemon and clients in separate processes",
        ),
    )
