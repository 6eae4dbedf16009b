"""The daemon's cycle against a hand-written LoLA server that misbehaves, over a real socket.

The server sends garbage, truncated and split frames, drops the connection and comes back;
every reply must decode, be within the joint limits, and the daemon must keep running. Runs on
trio's virtual clock (``autojump_clock``): the sockets are real, the 12 ms pacing is not.
"""

from __future__ import annotations

import socket
import tempfile
from pathlib import Path

import attrs
import numpy as np
import trio

from lola_io.codec import encode_sensor
from lola_io.connection import LolaConnection
from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.stream import actuator_reader
from motiond.runtime import DEFAULT_SAFE_SIT_AFTER, Runtime
from motiond.simulated import start_pose
from providers.model import load_nao_model
from skills.script import Script
from skills.script_files import shipped_script

PERIOD = 0.012


def standing_frame() -> bytes:
    """A robot standing in StandInit, both feet loaded."""
    frame = SensorFrame.neutral(start_pose("StandInit"))
    return encode_sensor(attrs.evolve(frame, fsr=np.full(8, 1.2)))


class FakeLola:
    """A LoLA server that follows a list of sessions of (bytes, pause) sends."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.replies: list[ActuatorFrame] = []
        self.whole_frames = 0
        self._reader = actuator_reader()

    async def serve(
        self,
        sessions: list[list[tuple[bytes, float]]],
        gaps: list[float],
        *,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Serve one client per session, pausing ``gaps[i]`` after session ``i``."""
        sock = trio.socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        await sock.bind(self.path)
        sock.listen(1)
        listener = trio.SocketListener(sock)
        task_status.started()
        try:
            for session, gap in zip(sessions, gaps, strict=True):
                stream = await listener.accept()
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._collect, stream)
                    for data, pause in session:
                        await stream.send_all(data)
                        await trio.sleep(pause)
                    await trio.sleep(0.05)
                    nursery.cancel_scope.cancel()
                await stream.aclose()
                self._reader.clear()
                await trio.sleep(gap)
        finally:
            await listener.aclose()

    async def _collect(self, stream: trio.SocketStream) -> None:
        while data := await stream.receive_some(1 << 16):
            self._reader.feed(data)
            while (frame := self._reader.next_frame()) is not None:  # raises if invalid
                self.replies.append(frame)


def _frames(n: int, payload: bytes) -> list[tuple[bytes, float]]:
    return [(payload, PERIOD)] * n


async def test_garbage_truncated_split_frames_and_a_reconnect(autojump_clock):
    # pytest's tmp_path can exceed the 107 bytes a Unix socket path may have.
    with tempfile.TemporaryDirectory(prefix="motiond-", dir="/tmp") as socket_dir:
        await _misbehaving_server(str(Path(socket_dir) / "lola.sock"))


async def _misbehaving_server(path: str) -> None:
    frame = standing_frame()
    rng = np.random.default_rng(7)
    split = [(frame[:100], 0.003), (frame[100:101], 0.003), (frame[101:], PERIOD - 0.006)]
    session = [
        *_frames(20, frame),
        (rng.bytes(300), PERIOD),
        (b"\xff" * 40 + b"\x81\xa3abc\x93\x01", PERIOD),
        *_frames(10, frame),
        (frame[: len(frame) // 2], PERIOD),  # truncated, then the stream goes on
        *_frames(10, frame),
        *(split * 5),
        (frame[:-1] + b"\xc1", PERIOD),  # a reserved byte where a float should end
        *_frames(10, frame),
    ]
    outage = 2 * DEFAULT_SAFE_SIT_AFTER * PERIOD
    sessions = [session, _frames(30, frame)]
    server = FakeLola(path)
    runtime = Runtime()
    runtime.emit(Script(shipped_script("StandInit")), priority=5.0)
    model = load_nao_model()
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve, sessions, [outage, 0.0])
        async with LolaConnection(path) as conn:
            nursery.start_soon(runtime.run, conn)
            # Virtual time: the whole exchange takes about 1.5 s of it.
            await trio.sleep(5.0)
            nursery.cancel_scope.cancel()

    whole = 20 + 10 + 10 + 5 + 10 + 30
    # Each disruption may cost the frame it damages and, at most, the one behind it.
    assert whole - 6 <= len(server.replies) <= whole + 1
    for reply in server.replies:
        assert np.all(np.isfinite(reply.position)) and np.all(np.isfinite(reply.stiffness))
        assert np.all(reply.position >= model.lower - 1e-6)
        assert np.all(reply.position <= model.upper + 1e-6)
        assert np.all((reply.stiffness >= 0.0) & (reply.stiffness <= 1.0))
    assert conn.counters.resyncs + conn.counters.invalid >= 2
    assert runtime.counters.cycle_errors == 0
    # The outage was longer than safe_sit_after cycles: the daemon sat the robot down.
    assert runtime.counters.safe_sits == 1
    assert runtime.counters.missed_cycles >= 2 * DEFAULT_SAFE_SIT_AFTER
    playing = runtime.director.active(Script)
    assert playing is not None and playing.script.name == "Sit"
