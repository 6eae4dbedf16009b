"""``motiond replay FILE``: serve a recording's sensor frames as a LoLA socket.

A daemon connected to ``--socket`` sees the recorded robot (its commands are read and ignored).
Frames come every 12 ms (``--lockstep``: as soon as the daemon answers). The server stops at
the end of the recording unless ``--loop``.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``motiond replay``."""
    parser.add_argument("file", help="a recording made by 'motiond record'")
    parser.add_argument(
        "--socket", default="/tmp/robocup", help="LoLA socket to serve (default %(default)s)"
    )
    parser.add_argument(
        "--lockstep", action="store_true", help="next frame when the reply arrives, not every 12 ms"
    )
    parser.add_argument("--loop", action="store_true", help="start over at the end")


def main(args: argparse.Namespace) -> int:
    """Serve the recording; print how many frames went out."""
    import trio

    from lola_io.recording import RecordingError, ReplayBody
    from lola_io.server import LolaServer

    try:
        body = ReplayBody(args.file, loop=args.loop)
    except (OSError, RecordingError) as exc:
        print(f"motiond replay: {exc}")
        return 1
    server = LolaServer(body, args.socket, realtime=not args.lockstep, period=body.header.period)

    async def run() -> None:
        async with trio.open_nursery() as nursery:
            await nursery.start(server.serve)
            print(f"motiond replay: serving {args.file} on {args.socket}", flush=True)

    try:
        trio.run(run)
    except KeyboardInterrupt:
        print("motiond replay: interrupted")
    counts = server.counters
    print(
        f"motiond replay: {counts.frames_sent} frames sent to {counts.clients} client(s), "
        f"{body.invalid} recorded frames invalid"
    )
    return 0
