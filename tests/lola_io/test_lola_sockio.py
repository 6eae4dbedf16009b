"""Direct writes: whole messages at once, the slow path when the peer lags, and its timeout."""

from __future__ import annotations

import pytest
import trio

from lola_io.sockio import write_message


def stream_pair() -> tuple[trio.SocketStream, trio.SocketStream]:
    a, b = trio.socket.socketpair()
    return trio.SocketStream(a), trio.SocketStream(b)


async def read_exactly(stream: trio.SocketStream, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        data += await stream.receive_some(size - len(data))
    return bytes(data)


async def test_a_message_larger_than_the_socket_buffer_arrives_whole():
    writer, reader = stream_pair()
    payload = bytes(range(256)) * 20_000  # 5 MB: the kernel takes only part at once
    async with writer, reader, trio.open_nursery() as nursery:
        nursery.start_soon(write_message, writer, payload)
        assert await read_exactly(reader, len(payload)) == payload


async def test_a_peer_that_stops_reading_times_the_write_out():
    writer, reader = stream_pair()
    async with writer, reader:
        with pytest.raises(trio.TooSlowError):
            await write_message(writer, b"x" * 10_000_000, timeout=0.05)


async def test_a_closed_peer_is_a_broken_resource():
    writer, reader = stream_pair()
    await reader.aclose()
    with pytest.raises(trio.BrokenResourceError):
        await write_message(writer, b"frame")
    await writer.aclose()
