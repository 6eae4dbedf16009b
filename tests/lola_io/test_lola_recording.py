"""Recording both directions, reading recordings back, replaying them, and the record proxy."""

from __future__ import annotations

import io
import itertools

import msgpack
import pytest
import trio
from lola_helpers import CountingBody, command, numbered

from lola_io.body import BodyFinished
from lola_io.codec import encode_actuator, encode_sensor
from lola_io.connection import LolaConnection
from lola_io.errors import LolaConnectionError
from lola_io.proxy import RecordingProxy
from lola_io.recording import (
    ACTUATOR_DIRECTION,
    SENSOR_DIRECTION,
    Recorder,
    RecordingError,
    RecordingHeader,
    ReplayBody,
    read_recording,
)
from lola_io.server import LolaServer


def write_recording(path, frames: int, *, clock=None) -> None:
    ticks = itertools.count(100.0, 0.012)
    with Recorder.open(path, clock=clock or (lambda: next(ticks))) as recorder:
        for n in range(frames):
            recorder.sensor(encode_sensor(numbered(n)))
            recorder.actuator(encode_actuator(command(n)))


def test_recording_round_trip_keeps_bytes_times_and_directions(tmp_path):
    path = tmp_path / "run.lola"
    write_recording(path, 5)
    header, messages = read_recording(path)
    messages = list(messages)
    assert header == RecordingHeader()
    assert [m.direction for m in messages] == [SENSOR_DIRECTION, ACTUATOR_DIRECTION] * 5
    assert messages[0].time == 0.0
    assert messages[-1].time == pytest.approx(9 * 0.012)
    assert messages[2].payload == encode_sensor(numbered(1))
    assert messages[3].decode() == command(1)


def test_a_recording_cut_off_mid_message_ends_at_its_last_whole_message(tmp_path):
    path = tmp_path / "cut.lola"
    write_recording(path, 3)
    data = path.read_bytes()
    path.write_bytes(data[:-100])
    assert len(list(read_recording(path)[1])) == 5


@pytest.mark.parametrize(
    ("content", "match"),
    [
        (b"", "not a LoLA recording"),
        (msgpack.packb({"format": "something else"}), "not a LoLA recording"),
        (
            msgpack.packb({"format": "motiond-lola-recording", "version": 99, "period": 0.012}),
            "version 99",
        ),
    ],
)
def test_files_that_are_not_recordings_are_refused(tmp_path, content, match):
    path = tmp_path / "bad.lola"
    path.write_bytes(content)
    with pytest.raises(RecordingError, match=match):
        read_recording(path)


def test_a_corrupt_message_is_named(tmp_path):
    path = tmp_path / "bad.lola"
    buffer = io.BytesIO()
    Recorder(buffer, clock=lambda: 0.0)
    path.write_bytes(buffer.getvalue() + msgpack.packb([0.0, 7, b"x"]))
    with pytest.raises(RecordingError, match="message 0"):
        list(read_recording(path)[1])


def test_replay_body_serves_sensor_frames_in_order_then_finishes(tmp_path):
    path = tmp_path / "run.lola"
    write_recording(path, 4)
    body = ReplayBody(path)
    frames = [body.first_frame()] + [body.step(None, 0.012) for _ in range(3)]
    assert frames == [numbered(n) for n in range(4)]
    with pytest.raises(BodyFinished):
        body.step(command(), 0.012)
    looping = ReplayBody(path, loop=True)
    assert [int(looping.step(None, 0.012).position[0]) for _ in range(6)] == [0, 1, 2, 3, 0, 1]


async def test_server_replays_a_recording_and_stops_at_its_end(tmp_path, sock_path, autojump_clock):
    path = tmp_path / "run.lola"
    write_recording(path, 20)
    server = LolaServer(ReplayBody(path), sock_path)
    seen = []
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        async with LolaConnection(sock_path, connect_timeout=0.2) as conn:
            with pytest.raises(LolaConnectionError, match="no LoLA socket"):
                async for frame in conn:
                    seen.append(int(frame.position[0]))
                    await conn.send(command())
    assert seen == list(range(20))


async def test_proxy_records_both_directions_of_a_live_session(tmp_path, sock_path, autojump_clock):
    upstream = sock_path
    listen = sock_path + "p"
    record = tmp_path / "proxy.lola"
    body = CountingBody()
    with Recorder.open(record) as recorder:
        proxy = RecordingProxy(upstream, listen, recorder, max_sensor_frames=30)
        async with trio.open_nursery() as nursery:
            await nursery.start(LolaServer(body, upstream).serve)
            await nursery.start(proxy.serve)
            async with LolaConnection(listen) as conn:
                async for frame in conn:
                    await conn.send(command(float(frame.position[0])))
                    if frame.position[0] == 29:
                        break
            nursery.cancel_scope.cancel()
    messages = list(read_recording(record)[1])
    sensors = [m.decode() for m in messages if m.is_sensor]
    actuators = [m.decode() for m in messages if not m.is_sensor]
    assert sensors == [numbered(n) for n in range(30)]
    assert [a.position[0] for a in actuators] == list(range(len(actuators)))
    assert len(actuators) >= 29
    times = [m.time for m in messages]
    assert times == sorted(times)
