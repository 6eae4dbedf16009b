"""``motiond plot FILE``: a PNG of a run, from a truth log or a LoLA recording.

A truth log (``motiond sim --truth-log``, ``motiond demo --truth-log``; a CSV whose header
starts ``t,x,y,z``) gives the top view, torso height and tilt, and the CoM against the feet. A
LoLA recording (``motiond record``) gives joint targets against measured angles and the FSR
load. ``--kind auto`` tells them apart by the file's first bytes. The PNG goes next to FILE
unless ``--out``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: How a truth log's first line starts (``naosim.truth.TRUTH_LOG_COLUMNS``).
_TRUTH_HEADER = b"t,x,y,z"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``motiond plot``."""
    parser.add_argument("file", help="a truth log (CSV) or a LoLA recording")
    parser.add_argument("--out", metavar="PNG", help="where to write the plot (default FILE.png)")
    parser.add_argument(
        "--joints",
        metavar="A,B,...",
        help="recordings: the joints to draw, LoLA names (default: the leg joints)",
    )
    parser.add_argument(
        "--kind",
        choices=("auto", "truth", "recording"),
        default="auto",
        help="what FILE is (default %(default)s: decided by its content)",
    )


def main(args: argparse.Namespace) -> int:
    """Write the plot and print its path: 0, or 2 with one line saying what went wrong."""
    from lola_io.recording import RecordingError
    from motiond.plots import PlotError, plot_recording, plot_truth, read_truth_log

    path = Path(args.file)
    out = Path(args.out) if args.out else path.with_suffix(".png")
    joints = [name.strip() for name in args.joints.split(",")] if args.joints else None
    try:
        if not path.is_file():
            raise PlotError(f"{path}: no such file")
        if not out.parent.is_dir():
            raise PlotError(f"{out}: no such directory to write to")
        kind = args.kind if args.kind != "auto" else _kind_of(path)
        if kind == "truth":
            if joints is not None:
                raise PlotError("--joints is for LoLA recordings, and this is a truth log")
            written = plot_truth(read_truth_log(path), out, title=path.name)
        else:
            written = plot_recording(path, out, joints=joints)
    except RecordingError as exc:
        hint = "" if args.kind == "recording" else " (nor a truth log: no t,x,y,z header)"
        return _fail(f"{exc}{hint}")
    except (PlotError, OSError, UnicodeDecodeError) as exc:
        return _fail(str(exc))
    print(written)
    return 0


def _kind_of(path: Path) -> str:
    with path.open("rb") as f:
        return "truth" if f.read(len(_TRUTH_HEADER)) == _TRUTH_HEADER else "recording"


def _fail(message: str) -> int:
    print(f"motiond plot: {message}", file=sys.stderr)
    return 2
