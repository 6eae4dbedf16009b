"""``motiond demo``: the main job, on the simulated NAO."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``motiond demo``."""


def main(args: argparse.Namespace) -> int:
    """Until the simulator and the runtime exist, say which parts are ready."""
    from motiond.readiness import report

    print(report())
    return 0
