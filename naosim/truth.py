"""Ground truth of the simulated world (what no sensor tells the daemon) and its CSV log."""

from __future__ import annotations

import math
from pathlib import Path
from typing import IO

import attrs
import mujoco
import numpy as np

from naosim.binding import ModelBinding, subtree

#: ``fallen``: torso centre below this height (m) ...
FALLEN_HEIGHT = 0.20
#: ... or torso z axis tilted from vertical by more than this (rad).
FALLEN_TILT = math.radians(60.0)

#: The truth log's columns: torso pose, fall flag and ball first; the centre of mass and the
#: soles (position and yaw) were added at the end, so readers that go by name keep working.
TRUTH_LOG_COLUMNS = (
    "t",
    "x",
    "y",
    "z",
    "roll",
    "pitch",
    "yaw",
    "fallen",
    "ball_x",
    "ball_y",
    "com_x",
    "com_y",
    "com_z",
    "lfoot_x",
    "lfoot_y",
    "lfoot_z",
    "lfoot_yaw",
    "rfoot_x",
    "rfoot_y",
    "rfoot_z",
    "rfoot_yaw",
)


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

    def csv_values(self) -> tuple[float | int, ...]:
        """The values of one truth-log row, in ``TRUTH_LOG_COLUMNS`` order (``fallen`` 0 or 1)."""
        # Python floats (tolist) format about twice as fast as numpy scalars; this runs every
        # cycle of a logged simulation.
        return (
            self.t,
            *self.torso_position.tolist(),
            *self.torso_rpy.tolist(),
            int(self.fallen),
            *self.ball[:2].tolist(),
            *self.com.tolist(),
            *self.left_sole_position.tolist(),
            float(self.left_sole_rpy[2]),
            *self.right_sole_position.tolist(),
            float(self.right_sole_rpy[2]),
        )

    def csv_row(self) -> list[str]:
        """One truth-log row as strings (see ``TRUTH_LOG_COLUMNS``)."""
        return (_ROW_FORMAT % self.csv_values()).split(",")


#: One row's text: every value with 6 decimals but ``fallen`` (0 or 1). One ``%`` for the whole
#: row costs a third of csv.writer over 21 formatted strings (~7 against ~21 us per cycle).
_ROW_FORMAT = ",".join("%d" if c == "fallen" else "%.6f" for c in TRUTH_LOG_COLUMNS)
#: csv.writer's line ending, which the log has always had.
_LINE_END = "\r\n"


class TruthLog:
    """A CSV file with a header and one ground-truth row per LoLA frame."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._file: IO[str] = self.path.open("w", newline="")
        self._file.write(",".join(TRUTH_LOG_COLUMNS) + _LINE_END)

    def write(self, truth: GroundTruth) -> None:
        """Append one row."""
        self._file.write(_ROW_FORMAT % truth.csv_values() + _LINE_END)

    def close(self) -> None:
        """Flush and close the file."""
        self._file.close()

    def __enter__(self) -> TruthLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_truth(data: mujoco.MjData, binding: ModelBinding, time: float) -> GroundTruth:
    """The ground truth of the robot ``binding`` names in ``data``, at ``time`` (s)."""
    d, b = data, binding
    rot = d.xmat[b.torso_body].reshape(3, 3)
    feet = []
    for foot in (b.left_foot, b.right_foot):
        if foot.frame_type == mujoco.mjtObj.mjOBJ_SITE:
            pos, mat = d.site_xpos[foot.frame_id], d.site_xmat[foot.frame_id]
        else:
            pos, mat = d.xpos[foot.frame_id], d.xmat[foot.frame_id]
        feet.append((pos.copy(), rpy_from_matrix(mat.reshape(3, 3))))
    ball = np.full(3, np.nan) if b.ball_body < 0 else d.xpos[b.ball_body].copy()
    return GroundTruth(
        t=time,
        torso_position=d.xpos[b.torso_body].copy(),
        torso_rpy=rpy_from_matrix(rot),
        com=d.subtree_com[b.torso_body].copy(),
        left_sole_position=feet[0][0],
        left_sole_rpy=feet[0][1],
        right_sole_position=feet[1][0],
        right_sole_rpy=feet[1][1],
        ball=ball,
        tilt=math.acos(max(-1.0, min(1.0, rot[2, 2]))),
    )


def lowest_robot_point(model: mujoco.MjModel, data: mujoco.MjData, torso: int) -> float:
    """Lowest z of the collision shapes of the robot whose root body is ``torso`` (boxes,
    capsules, spheres exactly); of all its shapes when none collides (a model built with
    ``collisions=False``)."""
    m, d = model, data
    robot = subtree(m, torso)
    shapes = [g for g in range(m.ngeom) if m.geom_bodyid[g] in robot]
    colliding = [g for g in shapes if m.geom_contype[g] != 0 or m.geom_conaffinity[g] != 0]
    lowest = math.inf
    for g in colliding or shapes:
        pos, rot, size = d.geom_xpos[g], d.geom_xmat[g].reshape(3, 3), m.geom_size[g]
        kind = m.geom_type[g]
        if kind == mujoco.mjtGeom.mjGEOM_SPHERE:
            low = pos[2] - size[0]
        elif kind == mujoco.mjtGeom.mjGEOM_CAPSULE:
            low = pos[2] - abs(rot[2, 2]) * size[1] - size[0]
        elif kind == mujoco.mjtGeom.mjGEOM_BOX:
            low = pos[2] - float(np.abs(rot[2, :]) @ size)
        else:
            low = pos[2] - m.geom_rbound[g]
        lowest = min(lowest, low)
    return lowest
