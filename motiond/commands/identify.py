"""``motiond identify``: measure a lifted robot's servos for the kick's feed-forward.

Talks to LoLA directly (stop the daemon first): with the robot upright in the air (on a stand,
or held) and its feet free, it stiffens one leg into a bent posture over 2 s, moves each of its
five joints in turn by a small sum of sines (0.1 rad at most), and prints what it measured:
each joint's velocity and acceleration leads and the actuation delay, and the lines to put in a
kick parameters file (``kick.yaml``'s ``servo_delay``, ``servo_velocity_lead``,
``servo_accel_lead``). It refuses to start, and stops, when the feet carry load; at the end it
leaves the leg stiff where it started moving (LoLA keeps the last command). See
``motiond.servo_identification``.
"""

from __future__ import annotations

import argparse
import json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``motiond identify``."""
    parser.add_argument(
        "--lola", metavar="PATH", default="/tmp/robocup", help="LoLA socket (default %(default)s)"
    )
    parser.add_argument(
        "--leg", choices=("left", "right"), default="right", help="the leg to move (default right)"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=6.0,
        metavar="S",
        help="seconds of motion per joint, 2..60 (default %(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object last")


def main(args: argparse.Namespace) -> int:
    """Run one session on the LoLA socket; print the fits. Exit 1 if the robot was not
    lifted or LoLA went away, 2 on a bad argument."""
    import trio

    from lola_io.connection import LolaConnection
    from lola_io.errors import LolaConnectionError
    from motiond.servo_identification import NotLifted, ServoIdentification

    try:
        session = ServoIdentification(args.leg, seconds=args.seconds)
    except ValueError as error:
        print(f"motiond identify: {error}")
        return 2

    async def run() -> NotLifted | None:
        async with LolaConnection(args.lola, connect_timeout=5.0) as connection:
            async for frame in connection:
                try:
                    command = session.step(frame)
                except NotLifted as error:
                    # Nothing more is sent: LoLA keeps the last command, the leg holds.
                    return error
                if command is not None:
                    await connection.send(command)
                if session.done:
                    return None
        return None

    print(f"motiond identify: moving the {args.leg} leg for about {session.duration:.0f} s")
    try:
        stopped = trio.run(run)
    except (LolaConnectionError, OSError) as error:
        print(f"motiond identify: LoLA at {args.lola}: {error}")
        return 1
    if stopped is not None:
        print(f"motiond identify: stopped: {stopped}")
        return 1
    report = session.report()
    print(f"{'joint':<12} {'delay':>5} {'v lead s':>9} {'a lead s2':>10} {'a':>6} {'fit mrad':>9}")
    for fit in report.fits:
        print(
            f"{fit.joint:<12} {fit.delay:>5d} {fit.velocity_lead:>9.4f} {fit.accel_lead:>10.5f} "
            f"{fit.gravity_share:>6.3f} {1000 * fit.residual:>9.2f}"
        )
    kick = report.kick_parameters()
    print("for a kick parameters file:")
    print(f"servo_delay: {kick['servo_delay']}")
    print(f"servo_velocity_lead: {kick['servo_velocity_lead']:.4f}")
    print(f"servo_accel_lead: {kick['servo_accel_lead']:.5f}")
    if args.json:
        print(
            json.dumps(
                {
                    "leg": report.leg,
                    "joints": {
                        f.joint: {
                            "delay": f.delay,
                            "velocity_lead": f.velocity_lead,
                            "accel_lead": f.accel_lead,
                            "gravity_share": f.gravity_share,
                            "residual": f.residual,
                        }
                        for f in report.fits
                    },
                    "kick": kick,
                }
            )
        )
    return 0
