"""The ``motiond`` command line.

Each subcommand lives in its own module under ``motiond.commands`` with two functions,
``add_arguments(parser)`` and ``main(args) -> int`` (or is an object with those two methods,
named ``module:object``: the small client commands share ``motiond.commands.client``).
Modules keep heavy imports (MuJoCo, the runtime) inside ``main`` so that ``motiond --help``
stays instant.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: subcommand → (module, one-line help). Later issues add their commands here.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("motiond.commands.demo", "simulated NAO + daemon: run the demo course and report"),
    "bench": ("motiond.commands.bench", "run a benchmark and print its figures"),
    "sim": ("motiond.commands.sim", "the simulated NAO (MuJoCo) serving a LoLA socket"),
    "record": ("motiond.commands.record", "record LoLA traffic (a proxy before the daemon)"),
    "replay": ("motiond.commands.replay", "serve a LoLA recording as a LoLA socket"),
    "run": ("motiond.commands.run", "the motion daemon on a LoLA socket (SIGTERM: sit, relax)"),
    "identify": ("motiond.commands.identify", "measure a lifted robot's servos for the kick"),
    "optimise": ("motiond.commands.optimise", "search the gait's parameters in naosim (CMA-ES)"),
    "plot": ("motiond.commands.plot", "plot a truth log or a LoLA recording to PNG"),
    "walk": ("motiond.commands.client:walk", "walk at a velocity (m/s, m/s, rad/s)"),
    "move-to": ("motiond.commands.client:move_to", "walk to a pose relative to the robot"),
    "kick": ("motiond.commands.client:kick", "kick the ball at (x, y) m from the robot"),
    "script": ("motiond.commands.client:script", "play a shipped script or a YAML file"),
    "posture": ("motiond.commands.client:posture", "go to a posture (Stand, StandInit, Sit..)"),
    "stop": ("motiond.commands.client:stop", "stop every client's walk (feet together)"),
    "freeze": ("motiond.commands.client:freeze", "every joint limp now, until unfreeze"),
    "unfreeze": ("motiond.commands.client:unfreeze", "release a freeze"),
    "status": ("motiond.commands.client:status", "the robot state and Director tree, live"),
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="motiond", description="Motion daemon for NAO-class humanoid robots."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (target, help_text) in COMMANDS.items():
        module_name, _, attribute = target.partition(":")
        module = importlib.import_module(module_name)
        if attribute:
            module = getattr(module, attribute)
        command = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(command)
        command.set_defaults(_module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``motiond`` console script."""
    args = build_parser().parse_args(argv)
    return int(args._module.main(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
