"""``motiond record`` and ``motiond replay`` as a user runs them (separate processes)."""

from __future__ import annotations

import itertools
import sys

import trio
from lola_helpers import CountingBody, command, numbered

from lola_io.codec import encode_actuator, encode_sensor
from lola_io.connection import LolaConnection
from lola_io.errors import LolaConnectionError
from lola_io.recording import Recorder, read_recording
from lola_io.server import LolaServer
from motiond.cli import build_parser

MOTIOND = [sys.executable, "-m", "motiond.cli"]


def test_record_and_replay_flags():
    parser = build_parser()
    args = parser.parse_args(["record", "out.lola", "--lola", "/a", "--listen", "/b"])
    assert (args.file, args.lola, args.listen, args.frames) == ("out.lola", "/a", "/b", None)
    args = parser.parse_args(["replay", "in.lola", "--socket", "/c", "--lockstep", "--loop"])
    assert (args.socket, args.lockstep, args.loop) == ("/c", True, True)


async def test_motiond_replay_serves_the_recording(tmp_path, sock_path):
    path = tmp_path / "run.lola"
    ticks = itertools.count(0.0, 0.012)
    with Recorder.open(path, clock=lambda: next(ticks)) as recorder:
        for n in range(25):
            recorder.sensor(encode_sensor(numbered(n)))
            recorder.actuator(encode_actuator(command()))
    seen = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(
            trio.run_process,
            [*MOTIOND, "replay", str(path), "--socket", sock_path, "--lockstep"],
        )
        async with LolaConnection(sock_path, connect_timeout=20.0) as conn:
            try:
                async for frame in conn:
                    seen.append(int(frame.position[0]))
                    await conn.send(command())
                    conn.connect_timeout = 0.3  # started: once gone, it is gone for good
            except LolaConnectionError:
                pass  # the replay ended and its socket is gone
    assert seen == list(range(25))


async def test_motiond_record_proxies_and_records(tmp_path, sock_path):
    record = tmp_path / "rec.lola"
    listen = sock_path + "r"
    async with trio.open_nursery() as nursery:
        await nursery.start(LolaServer(CountingBody(), sock_path).serve)
        process = [*MOTIOND, "record", str(record), "--lola", sock_path, "--listen", listen]
        async with trio.open_nursery() as recording:
            recording.start_soon(trio.run_process, [*process, "--frames", "40"])
            async with LolaConnection(listen, connect_timeout=20.0) as conn:
                async for frame in conn:
                    await conn.send(command())
                    if frame.position[0] >= 39:
                        break
        # The recorder stopped by itself after 40 frames (it was not killed).
        nursery.cancel_scope.cancel()
    header, messages = read_recording(record)
    sensors = [m for m in messages if m.is_sensor]
    assert header.source.endswith(sock_path)
    assert [int(m.decode().position[0]) for m in sensors] == list(range(40))
