"""Ground truth of the simulated world (what no sensor tells the daemon) and its CSV log."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import IO

import attrs
import numpy as np

#: ``fallen``: torso centre below this height (m) ...
FALLEN_HEIGHT = 0.20
#: ... or torso z axis tilted from vertical by more than this (rad).
FALLEN_TILT = math.radians(60.0)

TRUTH_LOG_COLUMNS = ("t", "x", "y", "z", "roll", "pitch", "yaw", "fallen", "ball_x", "ball_y")


def rpy_from_matrix(r: np.ndarray) -> np.ndarray:
    """Roll, pitch, yaw (fixed axes x, y, z, i.e. R = Rz Ry Rx) of a rotation matrix, rad."""
    roll = math.atan2(r[2, 1], r[2, 2])
    pitch = math.atan2(-r[2, 0], math.hypot(r[2, 1], r[2, 2]))
    yaw = math.atan2(r[1, 0], r[0, 0])
    return np.array([roll, pitch, yaw])


def _vec(length: int):
    return attrs.field(
        converter=lambda v: np.asarray(v, dtype=np.float64),
        eq=attrs.cmp_using(eq=np.array_equal),
        validator=lambda inst, att, v: _check_shape(att.name, v, length),
    )


def _check_shape(name: str, value: np.ndarray, length: int) -> None:
    if value.shape != (length,):
        raise ValueError(f"GroundTruth.{name}: expected {length} values, got shape {value.shape}")


@attrs.frozen
class GroundTruth:
    """The world at one instant: torso pose, centre of mass, feet, ball, and whether it fell.

    Poses are world-frame positions (m) and roll/pitch/yaw (rad). ``ball`` is NaN without a ball.
    """

    t: float
    torso_position: np.ndarray = _vec(3)
    torso_rpy: np.ndarray = _vec(3)
    com: np.ndarray = _vec(3)
    left_sole_position: np.ndarray = _vec(3)
    left_sole_rpy: np.ndarray = _vec(3)
    right_sole_position: np.ndarray = _vec(3)
    right_sole_rpy: np.ndarray = _vec(3)
    ball: np.ndarray = _vec(3)
    tilt: float = 0.0

    @property
    def fallen(self) -> bool:
        """Torso centre below 0.20 m, or torso tilted more than 60 degrees."""
        return bool(self.torso_position[2] < FALLEN_HEIGHT or self.tilt > FALLEN_TILT)

    def csv_row(self) -> list[str]:
        """One truth-log row (see ``TRUTH_LOG_COLUMNS``)."""
        x, y, z = self.torso_position
        roll, pitch, yaw = self.torso_rpy
        values = [self.t, x, y, z, roll, pitch, yaw]
        row = [f"{v:.6f}" for v in values]
        row.append("1" if self.fallen else "0")
        row.extend(f"{v:.6f}" for v in self.ball[:2])
        return row


class TruthLog:
    """A CSV file with a header and one ground-truth row per LoLA frame."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._file: IO[str] = self.path.open("w", newline="")
        self._writer = csv.writer(self._file)
        self._writer.writerow(TRUTH_LOG_COLUMNS)

    def write(self, truth: GroundTruth) -> None:
        """Append one row."""
        self._writer.writerow(truth.csv_row())

    def close(self) -> None:
        """Flush and close the file."""
        self._file.close()

    def __enter__(self) -> TruthLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
