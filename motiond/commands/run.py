"""``motiond run``: the motion daemon on a LoLA socket."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``motiond run``."""
    parser.add_argument(
        "--lola", metavar="PATH", default="/tmp/robocup", help="LoLA socket (default %(default)s)"
    )
    parser.add_argument(
        "--api",
        metavar="PATH",
        default=None,
        help="the behaviour API's Unix socket (mode 0600; default $MOTIOND_API or "
        "/tmp/motiond-<uid>.sock)",
    )
    parser.add_argument(
        "--no-api", action="store_true", help="serve no behaviour API (in-process behaviours only)"
    )
    parser.add_argument(
        "--api-timeout",
        metavar="S",
        type=float,
        default=1.0,
        help="seconds of silence after which a client's tasks are withdrawn (default %(default)s)",
    )
    parser.add_argument(
        "--safe-sit-after",
        metavar="CYCLES",
        type=int,
        default=10,
        help="missed cycles (a stalled stream or a reconnection) after which the robot sits down "
        "and holds the sit until a client releases it (default %(default)s)",
    )
    parser.add_argument(
        "--gait",
        metavar="FILE",
        default=None,
        help="a YAML file of gait parameters overriding the shipped ones (skills/walk/gait.yaml)",
    )
    parser.add_argument(
        "--kick",
        metavar="FILE",
        default=None,
        help="a YAML file of kick parameters overriding the shipped ones (skills/kick/kick.yaml), "
        "e.g. the servo lines `motiond identify` prints",
    )
    parser.add_argument(
        "--rt-priority",
        metavar="N",
        type=int,
        default=0,
        help="run the process SCHED_FIFO at priority N (1..99; needs root or CAP_SYS_NICE; "
        "on a NAO use e.g. 20); 0 leaves scheduling alone (default)",
    )


def main(args: argparse.Namespace) -> int:
    """Run until SIGTERM or SIGINT; then sit, relax and exit 0."""
    import logging
    from functools import partial

    import trio

    from motiond.daemon import run_daemon

    if args.safe_sit_after < 1:
        print("motiond run: --safe-sit-after must be at least 1 cycle")
        return 2
    if not 0 <= args.rt_priority <= 99:
        print("motiond run: --rt-priority must be 0 (off) or 1..99")
        return 2
    from motiond.api.protocol import default_api_path
    from motiond.runtime import Runtime
    from skills.kick.params import load_kick_parameters
    from skills.walk import GaitError, load_gait

    if not args.api_timeout > 0:
        print("motiond run: --api-timeout must be above 0 s")
        return 2

    try:
        gait = load_gait(args.gait)
        kick = load_kick_parameters(args.kick) if args.kick is not None else None
    except GaitError as error:
        print(f"motiond run: {error}")
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    runtime = Runtime(safe_sit_after=args.safe_sit_after)
    runtime.walk.set_gait(gait)
    if kick is not None:
        runtime.kick.params = kick
    return trio.run(
        partial(
            run_daemon,
            args.lola,
            api_path=None if args.no_api else (args.api or default_api_path()),
            api_timeout=args.api_timeout,
            safe_sit_after=args.safe_sit_after,
            tune=True,
            rt_priority=args.rt_priority,
            runtime=runtime,
        )
    )
