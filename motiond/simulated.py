"""The daemon and the simulated NAO in one trio nursery, over a real LoLA socket.

Used by ``motiond demo`` and the end-to-end tests. The simulator serves LoLA in lockstep (the
next sensor frame goes out when the reply to the last one arrives), so the run is as fast as
the machine allows and every figure is in simulated time; with ``realtime`` it keeps LoLA's
12 ms pace instead. This module imports MuJoCo; the daemon itself (``motiond.runtime``) never
does.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

import attrs
import numpy as np
import trio

from lola_io.body import Body
from lola_io.connection import LolaConnection
from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.server import LolaServer
from motiond.api.server import ApiServer
from motiond.runtime import Runtime
from naosim.body import NaoSimBody
from naosim.truth import TruthLog
from skills.script_files import shipped_script

# In lockstep nothing is late in robot time; a generous reply deadline keeps a slow cycle on a
# loaded machine (the first ones, a GC pause) from being answered by the fallback frame.
_LOCKSTEP_REPLY_DEADLINE = 2.0


@attrs.define
class SimulatedDaemon:
    """What :func:`simulated_daemon` runs: the body, its server, the connection, the runtime."""

    body: NaoSimBody
    server: LolaServer
    conn: LolaConnection
    runtime: Runtime
    socket_path: str
    #: The behaviour API server, when one was asked for (``api_path``).
    api: ApiServer | None = None


class _TruthLogged:
    """A NaoSim served as a LoLA body, writing one truth-log row per cycle (and the start)."""

    def __init__(self, served: Body, sim: NaoSimBody, log: TruthLog) -> None:
        self._served = served
        self._sim = sim
        self._log = log
        log.write(sim.truth())

    def first_frame(self) -> SensorFrame:
        return self._served.first_frame()

    def step(self, command: ActuatorFrame | None, dt: float) -> SensorFrame:
        frame = self._served.step(command, dt)
        self._log.write(self._sim.truth())
        return frame


def start_pose(name: str) -> np.ndarray:
    """The final joint angles of shipped script ``name`` (LoLA order): a script's posture."""
    return shipped_script(name).final_pose().position


@contextlib.asynccontextmanager
async def simulated_daemon(
    *,
    start: str = "Sit",
    truth_log: str | Path | None = None,
    realtime: bool = False,
    seed: int = 0,
    runtime: Runtime | None = None,
    scenario: str | None = None,
    api_path: str | Path | None = None,
    api_timeout: float = 1.0,
    render: str | Path | None = None,
    render_every: int = 25,
    ball: bool = False,
) -> AsyncIterator[SimulatedDaemon]:
    """naosim reset to shipped script ``start``'s posture (or to naosim's ``scenario``:
    standing, front, back, sitting, as ``motiond sim --start`` does), and the daemon's cycle
    running on it.

    The runtime (a new one unless given) is running when the block starts; tasks emitted
    before entering (on a given runtime) are applied in the very first cycle, which is how a
    caller keeps the robot stiff from its first frame. With ``api_path`` the behaviour API
    is served there too (``api_timeout``: the clients' liveness timeout, wall seconds). With
    ``render`` a picture every ``render_every`` cycles goes into that directory (when MuJoCo
    can render; see ``naosim.render``). With ``ball`` naosim has an SPL ball (1 m ahead;
    ``body.place_ball`` moves it). Leaving the block stops all of them.
    """
    runtime = runtime if runtime is not None else Runtime()
    with tempfile.TemporaryDirectory(prefix="motiond-", dir="/tmp") as socket_dir:
        path = str(Path(socket_dir) / "lola.sock")
        with NaoSimBody(seed=seed, ball=ball) as body, contextlib.ExitStack() as logs:
            if scenario is not None:
                body.reset(scenario)
            else:
                body.reset_pose(start_pose(start))
            served: Body = body
            if render is not None:
                from naosim.render import RenderingBody

                served = RenderingBody(body, render, every=render_every)
            if truth_log is not None:
                # Opened after the reset, so the log starts in the posture the run starts from
                # (NaoSimBody's own log would start with its default standing scenario).
                log = logs.enter_context(TruthLog(truth_log))
                served = _TruthLogged(served, body, log)
            server = LolaServer(served, path, realtime=realtime)
            deadline = 0.008 if realtime else _LOCKSTEP_REPLY_DEADLINE
            async with trio.open_nursery() as nursery:
                await nursery.start(server.serve)
                conn = LolaConnection(path, reply_deadline=deadline, connect_timeout=5.0)
                async with conn:
                    await nursery.start(partial(runtime.run, conn, clock_gaps=realtime))
                    api = None
                    if api_path is not None:
                        api = ApiServer(runtime, api_path, timeout=api_timeout)
                        await nursery.start(api.serve)
                    try:
                        yield SimulatedDaemon(body, server, conn, runtime, path, api)
                    finally:
                        nursery.cancel_scope.cancel()
