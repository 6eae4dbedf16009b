"""The client commands, each in a subprocess, against a running daemon (naosim, lockstep)."""

from __future__ import annotations

import subprocess
import sys

import trio

from motiond.cli import build_parser
from motiond.simulated import simulated_daemon


async def _motiond(*args: str) -> subprocess.CompletedProcess:
    return await trio.run_process(
        [sys.executable, "-m", "motiond.cli", *args],
        capture_stdout=True,
        capture_stderr=True,
        check=False,
    )


async def test_the_command_line_drives_a_running_daemon(tmp_path):
    api = str(tmp_path / "api.sock")
    script = tmp_path / "Nod.yaml"
    script.write_text(
        "- duration: 400\n  targets:\n    - {id: HeadPitch, position: 0.3, stiffness: 1.0}\n"
        "- duration: 400\n  targets:\n    - {id: HeadPitch, position: 0.0, stiffness: 1.0}\n"
    )
    async with simulated_daemon(start="Sit", api_path=api) as sim:
        done = await _motiond("posture", "StandInit", "--api", api)
        assert done.returncode == 0, done.stderr
        assert b"StandInit: reached" in done.stdout
        done = await _motiond("walk", "0.15", "0", "0", "--for", "2", "--api", api)
        assert done.returncode == 0, done.stderr
        assert b"clamped request: +0.150" in done.stdout
        assert sim.body.truth().torso_position[0] > 0.15 and not sim.body.truth().fallen
        # A ball out of reach: refused with the reason, and nothing moves.
        done = await _motiond("kick", "0.5", "-0.05", "--api", api)
        assert done.returncode == 1 and b"refused" in done.stdout, done.stdout
        assert b"out of reach" in done.stdout
        done = await _motiond("script", str(script), "--api", api)
        assert done.returncode == 0 and b"played" in done.stdout, done.stderr
        done = await _motiond("status", "--once", "--api", api)
        assert done.returncode == 0 and b"walk standing" in done.stdout, done.stdout
        assert b"director  revision" in done.stdout
        done = await _motiond("freeze", "--api", api)
        assert done.returncode == 0
        await sim.runtime.wait(0.1)
        assert max(sim.runtime.last_frame.stiffness) == 0.0  # the freeze outlived its command
        done = await _motiond("unfreeze", "--api", api)
        assert done.returncode == 0
        done = await _motiond("stop", "--api", api)
        assert done.returncode == 0 and b"stopped 0" in done.stdout
        # Errors from the daemon are printed plainly, with a non-zero exit.
        done = await _motiond("posture", "Handstand", "--api", api)
        assert done.returncode == 2 and b"unknown posture 'Handstand'" in done.stderr
        done = await _motiond("script", "NoSuchScript", "--api", api)
        assert done.returncode == 1 and b"no script 'NoSuchScript'" in done.stderr
        done = await _motiond("walk", "nan", "0", "0", "--for", "1", "--api", api)
        assert done.returncode == 2 and b"finite" in done.stderr
    done = await _motiond("status", "--once", "--api", str(tmp_path / "nobody.sock"))
    assert done.returncode == 1 and b"cannot connect to motiond" in done.stderr


def test_every_client_command_is_registered():
    parser = build_parser()
    for words in (
        ["walk", "0.1", "0", "0", "--for", "1"],
        ["move-to", "1", "0", "0"],
        ["kick", "0.19", "-0.05", "--direction", "20", "--power", "0.5"],
        ["script", "Stand"],
        ["posture", "Sit"],
        ["stop"],
        ["freeze"],
        ["unfreeze"],
        ["status", "--once"],
        ["plot", "x.csv"],
    ):
        assert parser.parse_args(words).command == words[0]
