"""Writing a message to a trio socket stream without a scheduling point when it fits at once.

``SocketStream.send_all`` always yields to the scheduler, even when the kernel takes the whole
message at once, as it virtually always does for a LoLA frame (under 1 KB into a Unix socket
buffer of ~200 KB). In a lockstep round trip those yields are a good part of the cost, so the
message is written directly first, and only what the kernel did not take goes through
``send_all``.
"""

from __future__ import annotations

import os

import trio


async def write_message(
    stream: trio.SocketStream, payload: bytes, *, timeout: float | None = None
) -> None:
    """Write all of ``payload``, giving up after ``timeout`` s if the peer stops reading.

    Errors are those of ``send_all`` (``trio.BrokenResourceError``, ...) and
    ``trio.TooSlowError`` for the timeout, after which the stream is unusable.
    """
    try:
        written = os.write(stream.socket.fileno(), payload)
    except BlockingIOError:
        written = 0
    except OSError as exc:
        raise trio.BrokenResourceError(f"socket connection broken: {exc}") from exc
    if written < len(payload):
        # The rare slow path carries the timer, so the usual write costs no cancel scope.
        with trio.fail_after(float("inf") if timeout is None else timeout):
            await stream.send_all(payload[written:])
