"""``motiond record FILE``: record LoLA traffic between the robot and the daemon.

The recorder is a proxy: it listens on ``--listen`` (default ``/tmp/robocup-record``), and for
each daemon that connects there it connects to the LoLA socket ``--lola`` (default
``/tmp/robocup``) and forwards both directions untouched while writing every message with its
time to FILE. Point the daemon at the proxy (``motiond run --lola /tmp/robocup-record``).
It stops on Ctrl-C, after ``--frames`` sensor frames, or after ``--duration`` seconds.

To record the daemon's own connection instead, give ``LolaConnection`` a
``lola_io.recording.Recorder`` as ``recorder=``.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``motiond record``."""
    parser.add_argument("file", help="recording to write (a msgpack stream, replaced if present)")
    parser.add_argument(
        "--lola", default="/tmp/robocup", help="the robot's LoLA socket (default %(default)s)"
    )
    parser.add_argument(
        "--listen",
        default="/tmp/robocup-record",
        help="socket the daemon connects to instead (default %(default)s)",
    )
    parser.add_argument("--frames", type=int, default=None, help="stop after N sensor frames")
    parser.add_argument("--duration", type=float, default=None, help="stop after S seconds")


def main(args: argparse.Namespace) -> int:
    """Run the recording proxy until stopped; print what was recorded."""
    import trio

    from lola_io.proxy import RecordingProxy
    from lola_io.recording import Recorder, RecordingHeader

    if args.frames is not None and args.frames <= 0:
        print("motiond record: --frames must be positive")
        return 2

    async def run(recorder: Recorder) -> RecordingProxy:
        proxy = RecordingProxy(args.lola, args.listen, recorder, max_sensor_frames=args.frames)
        with trio.move_on_after(args.duration if args.duration is not None else float("inf")):
            async with trio.open_nursery() as nursery:
                await nursery.start(proxy.serve)
                print(f"motiond record: daemon socket {args.listen} -> LoLA {args.lola}")
        return proxy

    header = RecordingHeader(source=f"proxy of {args.lola}")
    with Recorder.open(args.file, header=header) as recorder:
        try:
            proxy = trio.run(run, recorder)
        except KeyboardInterrupt:
            print("motiond record: interrupted")
            proxy = None
        print(f"motiond record: {recorder.messages} messages written to {args.file}")
    if proxy is not None:
        counts = proxy.counters
        print(
            f"  sessions {counts.sessions}, sensor {counts.sensor_frames}, "
            f"actuator {counts.actuator_frames}, unrecorded {counts.unrecorded}"
        )
    return 0
