"""Client subcommands on a running daemon: walk, move-to, kick, script, posture, stop,
freeze, unfreeze, status.

Each connects to the behaviour API (``--api PATH``, default ``$MOTIOND_API`` or
``/tmp/motiond-<uid>.sock``), does one thing and exits: 0 when done, 1 when the daemon
refused or could not be reached (its error printed plainly), 2 for bad arguments. A client's
tasks end with its connection, so ``walk`` without ``--for`` walks until interrupted (Ctrl-C
stops the walk: the feet come together), and ``freeze`` outlives it (``unfreeze`` releases).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

_PRIORITY = 10.0


class ClientCommand:
    """One subcommand: its arguments and the coroutine it runs with a connected robot."""

    def __init__(
        self,
        name: str,
        arguments: Callable[[argparse.ArgumentParser], None],
        run: Callable[[Any, argparse.Namespace], Awaitable[int | None]],
    ) -> None:
        self.name = name
        self._arguments = arguments
        self._run = run

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """The command's arguments, and ``--api``/``--priority``."""
        self._arguments(parser)
        parser.add_argument(
            "--api", metavar="PATH", default=None, help="the daemon's API socket (default: ours)"
        )
        parser.add_argument(
            "--priority",
            type=float,
            default=_PRIORITY,
            help="priority of what this command emits (default %(default)s)",
        )

    def main(self, args: argparse.Namespace) -> int:
        """Connect, run, report; the exit status."""
        import trio

        from motiond.api.protocol import ApiError
        from motiond.client import connect

        async def session() -> int:
            async with connect(args.api, name=f"cli-{self.name}", priority=args.priority) as r:
                return int(await self._run(r, args) or 0)

        try:
            return trio.run(session)
        except ApiError as error:
            print(f"motiond {self.name}: {error}", file=sys.stderr)
            return 1
        except (ValueError, TypeError) as error:
            print(f"motiond {self.name}: {error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print(f"motiond {self.name}: interrupted; the daemon withdraws this command's tasks")
            return 130


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def _print_pose(label: str, pose: list[float]) -> None:
    x, y, theta = pose
    print(f"{label}: x {x:+.3f} m  y {y:+.3f} m  theta {math.degrees(theta):+.1f} deg")


# ---------------------------------------------------------------------- walk


def _walk_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("forward", type=float, help="m/s")
    parser.add_argument("left", type=float, help="m/s")
    parser.add_argument("turn", type=float, help="rad/s")
    parser.add_argument(
        "--for",
        dest="duration",
        type=float,
        default=None,
        metavar="S",
        help="walk S seconds of robot time, stop and exit (default: until Ctrl-C)",
    )


async def _walk(robot: Any, args: argparse.Namespace) -> int:
    import trio

    if args.duration is not None and not (math.isfinite(args.duration) and args.duration > 0):
        raise ValueError(f"--for must be a positive number of seconds, got {args.duration}")
    start = await robot.get_state()
    await robot.move(args.forward, args.left, args.turn)
    if args.duration is None:
        print("walking; Ctrl-C stops")
        await trio.sleep_forever()
    walking = await robot.wait_robot_time(args.duration)
    await robot.stop_move()
    await robot.wait_until_move_is_finished(timeout=30.0)
    end = await robot.get_state()
    request = walking["walk"]["request"]
    print(f"clamped request: {request[0]:+.3f} m/s {request[1]:+.3f} m/s {request[2]:+.3f} rad/s")
    _print_pose("from", start["position"])
    _print_pose("to  ", end["position"])
    return 0


# ---------------------------------------------------------------------- move-to


def _move_to_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("x", type=float, help="m, forward of the robot")
    parser.add_argument("y", type=float, help="m, to its left")
    parser.add_argument("theta", type=float, help="rad, counter-clockwise")


async def _move_to(robot: Any, args: argparse.Namespace) -> int:
    start = await robot.get_state()
    reached = await robot.move_to(args.x, args.y, args.theta)
    end = await robot.get_state()
    _print_pose("from", start["position"])
    _print_pose("to  ", end["position"])
    print("reached" if reached else "NOT reached")
    return 0 if reached else 1


# ---------------------------------------------------------------------- kick


def _kick_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("x", type=float, help="m, the ball ahead of the robot")
    parser.add_argument("y", type=float, help="m, the ball to its left")
    parser.add_argument("--direction", type=float, default=0.0, help="deg, + left (default 0)")
    parser.add_argument("--power", type=float, default=1.0, help="0..1 (default 1)")
    parser.add_argument("--foot", default="auto", help="auto, left or right (default auto)")


async def _kick(robot: Any, args: argparse.Namespace) -> int:
    kick = await robot.kick(
        args.x, args.y, math.radians(args.direction), args.power, args.foot, timeout=60.0
    )
    reason = f" ({kick['reason']})" if kick["reason"] else ""
    print(f"{kick['outcome']} with the {kick['foot'] or 'no'} foot{reason}")
    return 0 if kick["outcome"] == "kicked" else 1


# ---------------------------------------------------------------------- script, posture


def _script_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", metavar="NAME|FILE", help="a shipped script or a YAML file")
    parser.add_argument("--speed", type=float, default=1.0, help="playback speed factor")


async def _script(robot: Any, args: argparse.Namespace) -> int:
    path = Path(args.script)
    if path.suffix.lower() in (".yaml", ".yml") or path.exists():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot read {path}: {error}") from None
        duration = await robot.play(yaml=text, label=path.stem, speed=args.speed)
    else:
        duration = await robot.play(args.script, speed=args.speed)
    state = await robot.get_state()
    print(f"played {args.script} ({duration:.2f} s); fall phase {state['fall']['phase']}")
    return 0


def _posture_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="Stand, StandInit, StandZero, Crouch or Sit")
    parser.add_argument("--speed", type=float, default=1.0, help="share of full speed, (0, 1]")


async def _posture(robot: Any, args: argparse.Namespace) -> int:
    ok = await robot.go_to_posture(args.name, args.speed)
    print(f"{args.name}: {'reached' if ok else 'FELL'}")
    return 0 if ok else 1


# ---------------------------------------------------------------------- stop, freeze


async def _stop(robot: Any, args: argparse.Namespace) -> int:
    withdrawn = await robot.stop_all()
    print(f"stopped {withdrawn} walking task(s)")
    return 0


async def _freeze(robot: Any, args: argparse.Namespace) -> int:
    await robot.freeze()
    print("frozen: every joint limp until `motiond unfreeze`")
    return 0


async def _unfreeze(robot: Any, args: argparse.Namespace) -> int:
    await robot.unfreeze()
    print("unfrozen")
    return 0


# ---------------------------------------------------------------------- status


def _status_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--once", action="store_true", help="print once and exit")
    parser.add_argument("--every", type=int, default=10, help="cycles between refreshes")


def status_text(state: dict[str, Any], tree: dict[str, Any] | None) -> str:
    """The robot state and the Director tree as the status screen shows them."""
    w = state["walk"]
    f = state["fall"]
    g = state["getup"]
    c = state["counters"]
    x, y, theta = state["position"]
    lines = [
        f"t {state['t']:.2f} s  cycle {state['cycle']}  battery {100 * state['battery']:.0f} %",
        f"walk {w['phase']}  support {w['support']}  steps {w['steps']}  request "
        + " ".join(f"{v:+.3f}" for v in w["request"])
        + (f"  halted: {w['halted']}" if w["halted"] else "")
        + ("  killed" if w["killed"] else ""),
        f"position x {x:+.3f}  y {y:+.3f}  theta {math.degrees(theta):+.1f} deg",
        f"fall {f['phase']}"
        + (f" ({f['direction']})" if f["direction"] else "")
        + f"  get-up {'on' if g['auto'] else 'off'}"
        + (f" {g['routine']}/{g['phase']} attempt {g['attempts']}" if g["active"] else "")
        + ("  LIFTED" if state["lifted"] else ""),
        f"hot joints: {', '.join(state['hot_joints']) or 'none'}",
        f"daemon: {c['cycles']} cycles, {c['overruns']} overruns, {c['safety_faults']} safety "
        f"faults, {c['provider_errors'] + c['cycle_errors']} errors; API clients "
        f"{c.get('api', {}).get('clients', '?')}",
    ]
    if tree is not None:
        lines.append(tree["text"])
    return "\n".join(lines)


async def _status(robot: Any, args: argparse.Namespace) -> int:
    if args.once:
        print(status_text(await robot.get_state(), await robot.get_tree()))
        return 0
    tree = await robot.get_tree()
    async with robot.subscribe(max(1, args.every), tree=True) as messages:
        async for message in messages:
            if message["op"] == "tree":
                tree = message
                continue
            # Home the cursor and clear: the screen refreshes in place.
            sys.stdout.write("\x1b[H\x1b[2J" + status_text(message, tree) + "\n")
            sys.stdout.flush()
    return 0


walk = ClientCommand("walk", _walk_arguments, _walk)
move_to = ClientCommand("move-to", _move_to_arguments, _move_to)
kick = ClientCommand("kick", _kick_arguments, _kick)
script = ClientCommand("script", _script_arguments, _script)
posture = ClientCommand("posture", _posture_arguments, _posture)
stop = ClientCommand("stop", _no_arguments, _stop)
freeze = ClientCommand("freeze", _no_arguments, _freeze)
unfreeze = ClientCommand("unfreeze", _no_arguments, _unfreeze)
status = ClientCommand("status", _status_arguments, _status)
