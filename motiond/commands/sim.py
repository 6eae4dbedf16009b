"""``motiond sim``: the simulated NAO serving a LoLA socket."""

from __future__ import annotations

import argparse
import signal
import sys

#: Where a real NAO's LoLA listens; the simulator uses the same path by default.
DEFAULT_SOCKET = "/tmp/robocup"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``motiond sim``."""
    parser.add_argument("--socket", default=DEFAULT_SOCKET, help="Unix socket path to serve")
    parser.add_argument(
        "--realtime",
        action="store_true",
        help="one frame every 12 ms of wall time (default: lockstep, as fast as the client)",
    )
    parser.add_argument("--model", metavar="FILE", help="another NAO MJCF (see naosim.binding)")
    parser.add_argument(
        "--truth-log", metavar="FILE", help="CSV of ground truth, one row per frame"
    )
    parser.add_argument(
        "--start",
        choices=("standing", "front", "back", "sitting", "lifted"),
        default="standing",
        help="how the robot starts (default: standing)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the sensor noise")
    parser.add_argument("--ball", action="store_true", help="add an SPL ball 1 m ahead")
    parser.add_argument(
        "--delay", type=int, default=3, metavar="CYCLES", help="actuation delay (default 3)"
    )
    parser.add_argument(
        "--render", metavar="DIR", help="save offscreen PNG pictures into DIR (needs OpenGL)"
    )
    parser.add_argument(
        "--render-every", type=int, default=25, metavar="N", help="a picture every N frames"
    )


def main(args: argparse.Namespace) -> int:
    """Build the body and serve it until interrupted."""
    if args.render:
        from naosim.render import prefer_headless_gl

        prefer_headless_gl()
    import trio

    from lola_io.server import LolaServer
    from naosim.binding import ModelContractError, load_model_file
    from naosim.body import NaoSimBody

    if args.delay < 0:
        print(f"motiond sim: --delay must be >= 0, got {args.delay}", file=sys.stderr)
        return 2
    try:
        mj_model = load_model_file(args.model) if args.model else None
        body = NaoSimBody(
            mj_model,
            ball=args.ball,
            truth_log=args.truth_log,
            start=args.start,
            seed=args.seed,
            delay_cycles=args.delay,
        )
    except (ModelContractError, FileNotFoundError, ValueError) as exc:
        print(f"motiond sim: {exc}", file=sys.stderr)
        return 2
    served = body
    if args.render:
        from naosim.render import RenderingBody

        served = RenderingBody(body, args.render, every=args.render_every)
    server = LolaServer(served, args.socket, realtime=args.realtime)
    mode = "real time" if args.realtime else "lockstep"

    async def serve_until_signalled() -> None:
        # SIGINT/SIGTERM end the run cleanly, so the truth log is complete and the socket gone.
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:
                await nursery.start(server.serve)
                print(
                    f"motiond sim: serving a simulated NAO ({args.start}, {mode}) on {args.socket}",
                    flush=True,
                )
                async for signum in signals:
                    print(f"motiond sim: stopped by {signal.Signals(signum).name}", flush=True)
                    nursery.cancel_scope.cancel()
                    break

    try:
        trio.run(serve_until_signalled)
    finally:
        body.close()
    return 0
