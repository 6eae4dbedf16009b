"""Client and server over real Unix sockets: lockstep, pieces, restarts, slow clients, deadlines.

The tests run on trio's virtual clock (``autojump_clock``): sockets are real, but deadlines,
12 ms ticks and backoff sleeps happen in virtual time, so a loaded machine cannot make a reply
"late" and the counters come out exact.
"""

from __future__ import annotations

import itertools
import os
import random
import socket

import numpy as np
import pytest
import trio
from lola_helpers import CountingBody, command, numbered

from lola_io.codec import encode_actuator, encode_sensor
from lola_io.connection import LolaConnection
from lola_io.errors import LolaConnectionError, LolaEncodeError
from lola_io.frames import ActuatorFrame
from lola_io.server import LolaServer
from lola_io.stream import actuator_reader


async def test_1000_lockstep_cycles_lose_nothing(sock_path, autojump_clock):
    body = CountingBody()
    server = LolaServer(body, sock_path)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        async with LolaConnection(sock_path, connect_timeout=5.0) as conn:
            seen = []
            async for frame in conn:
                seen.append(int(frame.position[0]))
                if len(seen) == 1000:
                    break
                await conn.send(command(len(seen) * 1e-3))
            counters = conn.counters.snapshot()
        nursery.cancel_scope.cancel()
    assert seen == list(range(1000))
    assert counters.received == 1000 and counters.sent == 999
    assert counters.skipped == counters.invalid == counters.resyncs == counters.late == 0
    # Every command reached the body, in order, and simulated time is 12 ms per frame.
    assert [round(c.position[0] * 1e3) for c in body.commands] == list(range(1, 1000))
    assert server.sim_time == pytest.approx(999 * 0.012)
    assert server.counters.commands == 999


async def serve_raw(sock_path, handler, *, task_status=trio.TASK_STATUS_IGNORED):
    """A hand-written LoLA peer: ``handler(stream)`` for each client (tests write odd bytes)."""
    sock = trio.socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    await sock.bind(sock_path)
    sock.listen(1)
    listener = trio.SocketListener(sock)
    task_status.started()
    try:
        async with listener:
            while True:
                stream = await listener.accept()
                async with stream:
                    await handler(stream)
    finally:
        os.unlink(sock_path)


async def wait_reply(stream, reader):
    while True:
        frame = reader.next_frame()
        if frame is not None:
            return frame
        reader.feed(await stream.receive_some(4096))


async def test_frames_written_in_random_pieces_arrive_whole(sock_path, autojump_clock):
    rnd = random.Random(3)

    async def handler(stream):
        reader = actuator_reader()
        for n in range(60):
            data = encode_sensor(numbered(n))
            cuts = sorted(rnd.sample(range(1, len(data)), rnd.randint(1, 12)))
            for start, end in zip([0, *cuts], [*cuts, len(data)], strict=True):
                await stream.send_all(data[start:end])
                await trio.sleep(0.0002)  # let the client read a part
            await wait_reply(stream, reader)

    async with trio.open_nursery() as nursery:
        await nursery.start(serve_raw, sock_path, handler)
        async with LolaConnection(sock_path, connect_timeout=5.0) as conn:
            seen = []
            async for frame in conn:
                seen.append(int(frame.position[0]))
                await conn.send(command())
                if len(seen) == 60:
                    break
            assert conn.counters.invalid == conn.counters.resyncs == 0
        nursery.cancel_scope.cancel()
    assert seen == list(range(60))


async def test_two_frames_in_one_write_newest_only_and_all(sock_path, autojump_clock):
    async def handler(stream):
        await stream.send_all(encode_sensor(numbered(1)) + encode_sensor(numbered(2)))
        await trio.sleep_forever()

    for newest_only, expected in ((True, [2]), (False, [1, 2])):
        async with trio.open_nursery() as nursery:
            await nursery.start(serve_raw, sock_path, handler)
            async with LolaConnection(sock_path, newest_only=newest_only) as conn:
                seen = []
                while len(seen) < len(expected):
                    seen.append(int((await conn.__anext__()).position[0]))
                assert conn.counters.skipped == (1 if newest_only else 0)
            nursery.cancel_scope.cancel()
        assert seen == expected


async def test_server_restart_mid_run_client_reconnects_and_goes_on(sock_path, autojump_clock):
    body = CountingBody()
    seen = []
    async with LolaConnection(sock_path, backoff=0.005) as conn:
        for run in range(2):
            async with trio.open_nursery() as nursery:
                await nursery.start(LolaServer(body, sock_path).serve)
                async for frame in conn:
                    seen.append(int(frame.position[0]))
                    await conn.send(command())
                    if len(seen) == 50 * (run + 1):
                        break
                nursery.cancel_scope.cancel()  # the "robot" goes away mid-run
        assert conn.counters.reconnects == 1
    # The body kept its state: the second server went on where the first stopped. The frame in
    # flight when the first server died may be seen again from the second: never one lost.
    assert seen[:50] == list(range(50))
    steps = [b - a for a, b in itertools.pairwise(seen)]
    assert set(steps) <= {0, 1} and steps.count(0) <= 1


async def test_slow_client_counts_late_and_skipped_and_survives(sock_path, autojump_clock):
    # Virtual time (trio's MockClock): the 12 ms ticks and 30 ms "work" are exact.
    server = LolaServer(CountingBody(), sock_path, realtime=True)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        async with LolaConnection(sock_path, safe_frame=command(0.5)) as conn:
            handled = 0
            async for _ in conn:
                await trio.sleep(0.03)  # a 30 ms pipeline against 12 ms frames
                await conn.send(command(0.1))
                handled += 1
                if handled == 10:
                    break
            counters = conn.counters.snapshot()
        nursery.cancel_scope.cancel()
    assert counters.late == handled  # every reply came after its 8 ms deadline
    assert counters.skipped >= handled - 1  # 2.5 frames per 30 ms: one or two go unused
    assert counters.received == counters.skipped + handled
    assert counters.invalid == counters.resyncs == counters.reconnects == 0
    # The safe frame stood in for every late reply; the late replies stayed off the wire.
    assert counters.sent == handled and server.counters.commands == handled


async def test_realtime_server_sends_a_frame_every_12_ms(sock_path, autojump_clock):
    server = LolaServer(CountingBody(), sock_path, realtime=True)
    arrivals = []
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        async with LolaConnection(sock_path) as conn:
            async for frame in conn:
                arrivals.append((trio.current_time(), int(frame.position[0])))
                await conn.send(command())
                if len(arrivals) == 20:
                    break
        nursery.cancel_scope.cancel()
    times, numbers = zip(*arrivals, strict=True)
    assert numbers == tuple(range(20))
    assert np.allclose(np.diff(times), 0.012)
    assert server.counters.missed == 0 and server.counters.overruns == 0


async def test_deadline_sends_the_safe_frame_and_a_late_reply_stays_off_the_wire(
    sock_path, autojump_clock
):
    body = CountingBody()
    server = LolaServer(body, sock_path)  # lockstep: it only goes on when a reply arrives
    safe = command(0.5)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        async with LolaConnection(sock_path, reply_deadline=0.005, safe_frame=safe) as conn:
            await conn.__anext__()
            await trio.sleep(0.02)  # miss the deadline: the safe frame answers
            assert conn.counters.late == 1
            assert not await conn.send(command(0.25))  # too late for this frame
            await conn.__anext__()
            assert await conn.send(command(0.75))
            await conn.__anext__()
        nursery.cancel_scope.cancel()
    assert [c.position[0] for c in body.commands] == [0.5, 0.75]
    assert conn.counters.sent == 2


async def test_without_a_safe_frame_a_late_reply_still_goes_out(sock_path, autojump_clock):
    body = CountingBody()
    async with trio.open_nursery() as nursery:
        await nursery.start(LolaServer(body, sock_path).serve)
        async with LolaConnection(sock_path) as conn:
            await conn.__anext__()
            await trio.sleep(0.02)  # past the 8 ms deadline, with nothing safe to send yet
            assert await conn.send(command(1.0))  # late, but the only reply: it goes out
            await conn.__anext__()
            await trio.sleep(0.02)  # late again: now the last command is the safe frame
            assert not await conn.send(command(2.0))
            await conn.__anext__()
            assert conn.counters.late == 2 and conn.counters.sent == 2
        nursery.cancel_scope.cancel()
    assert [c.position[0] for c in body.commands] == [1.0, 1.0]


async def test_unencodable_command_raises_and_sends_nothing(sock_path, autojump_clock):
    body = CountingBody()
    async with trio.open_nursery() as nursery:
        await nursery.start(LolaServer(body, sock_path).serve)
        async with LolaConnection(sock_path) as conn:
            await conn.__anext__()
            with pytest.raises(LolaEncodeError):
                await conn.send(ActuatorFrame.limp(np.full(25, np.nan)))
            assert await conn.send(command(0.125))
            await conn.__anext__()
        nursery.cancel_scope.cancel()
    assert body.commands[0].position[0] == 0.125


async def test_invalid_frames_from_the_robot_are_counted_and_skipped(sock_path, autojump_clock):
    async def handler(stream):
        bad = bytearray(encode_sensor(numbered(1)))
        bad[bad.index(b"\xa8Position") + 13 : bad.index(b"\xa8Position") + 17] = b"\x7f\xc0\0\0"
        await stream.send_all(bytes(bad) + b"\x00\x01noise" + encode_sensor(numbered(2)))
        await trio.sleep_forever()

    async with trio.open_nursery() as nursery:
        await nursery.start(serve_raw, sock_path, handler)
        async with LolaConnection(sock_path) as conn:
            frame = await conn.__anext__()
            assert int(frame.position[0]) == 2
            assert conn.counters.invalid == 1 and conn.counters.resyncs == 1
            assert conn.last_error is not None and conn.last_error.key == "Position"
        nursery.cancel_scope.cancel()


async def test_no_socket_within_the_connect_timeout(sock_path, autojump_clock):
    async with LolaConnection(sock_path, connect_timeout=0.05) as conn:
        with pytest.raises(LolaConnectionError, match="no LoLA socket"):
            await conn.__anext__()


async def test_one_client_at_a_time(sock_path, autojump_clock):
    server = LolaServer(CountingBody(), sock_path)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        async with LolaConnection(sock_path) as first:
            await first.__anext__()
            second = await trio.open_unix_socket(sock_path)
            assert await second.receive_some(100) == b""  # turned away
            await second.aclose()
            assert server.counters.refused == 1
        nursery.cancel_scope.cancel()


def test_payload_sizes_used_by_the_tests_are_the_real_ones():
    assert len(encode_sensor(numbered(0))) == 896
    assert len(encode_actuator(command())) == 786
