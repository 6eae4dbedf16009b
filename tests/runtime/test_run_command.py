"""``motiond run`` in a subprocess against a LoLA server: started under a standing robot it
holds it, stiffening smoothly; SIGTERM sits the robot down, relaxes it, and exits 0."""

from __future__ import annotations

import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import trio

from lola_io.joints import JOINT_INDEX, JOINT_NAMES
from lola_io.server import LolaServer
from naosim.kinematic_body import KinematicBody
from skills.script_files import shipped_script


async def test_holds_a_standing_robot_then_sigterm_sits_relaxes_and_exits():
    with tempfile.TemporaryDirectory(prefix="motiond-", dir="/tmp") as socket_dir:
        path = str(Path(socket_dir) / "lola.sock")
        api = str(Path(socket_dir) / "api.sock")
        body = KinematicBody(initial_position=shipped_script("StandInit").final_pose().position)
        server = LolaServer(body, path)  # lockstep: robot time advances with the daemon
        stiffness_seen = []
        step = body.step

        def watched_step(command, dt):
            if command is not None:
                stiffness_seen.append(float(np.max(command.stiffness)))
            return step(command, dt)

        body.step = watched_step
        async with trio.open_nursery() as nursery:
            await nursery.start(server.serve)
            process = await trio.lowlevel.open_process(
                [sys.executable, "-m", "motiond.cli", "run", "--lola", path, "--api", api],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            try:
                with trio.fail_after(60):
                    while server.counters.frames_sent < 40:
                        await trio.sleep(0.01)
                    # Standing on its feet: held from the first frame, stiffening in steps from
                    # the (limp) stiffness the body reports, not jerked to full stiffness at once.
                    ramp = stiffness_seen[:30]
                    assert 0.0 < ramp[0] < 0.5 and ramp == sorted(ramp) and max(ramp) > 0.99
                    process.send_signal(signal.SIGTERM)
                    returncode = await process.wait()
            finally:
                if process.returncode is None:  # a failed check must not leave a daemon behind
                    process.kill()
            stderr = b""
            assert process.stderr is not None
            while chunk := await process.stderr.receive_some(1 << 16):
                stderr += chunk
            nursery.cancel_scope.cancel()
    assert returncode == 0, stderr.decode()
    assert max(stiffness_seen) > 0.5  # the Sit was played stiff ...
    assert stiffness_seen[-1] == 0.0  # ... and Relax left every joint limp
    sit = shipped_script("Sit").final_pose().position
    legs = [JOINT_INDEX[name] for name in JOINT_NAMES if "Hip" in name or "Knee" in name]
    np.testing.assert_allclose(body.position[legs], sit[legs], atol=0.05)
    text = stderr.decode()
    assert "SIGTERM" in text and "stopped after" in text
