"""``motiond bench NAME [--quick] [--json]``."""

from __future__ import annotations

import argparse

from motiond.bench import BENCHES, run_bench


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``motiond bench``."""
    parser.add_argument("name", help=f"which benchmark ({', '.join(sorted(BENCHES))})")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (smoke run)")
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object with the figures, last"
    )
    parser.add_argument(
        "--model",
        metavar="FILE",
        help="walk, kick, getup, sequences: a NAO MJCF to run on (`motiond sim --model`);"
        " kick: with a ball",
    )
    parser.add_argument(
        "--gait", metavar="FILE", help="walk: a YAML file of gait parameters to walk with"
    )
    parser.add_argument(
        "--perturb",
        metavar="N",
        type=int,
        default=0,
        help="walk, getup, navigate, kick, sequences: N randomly perturbed NAOs (masses, CoMs,"
        " servos, friction, delay)",
    )


def main(args: argparse.Namespace) -> int:
    """Run the named benchmark and print its figures."""
    return run_bench(
        args.name,
        quick=args.quick,
        as_json=args.json,
        model=args.model,
        perturb=args.perturb,
        gait=args.gait,
    )
