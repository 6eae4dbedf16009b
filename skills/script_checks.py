"""Field checks shared by the script readers: each failure is a :class:`ScriptError`.

The readers (YAML and rUNSWift ``.pos``) know where a value came from (file, frame, field);
these helpers know what a valid value is, so both formats reject the same things with the same
words.
"""

from __future__ import annotations

import difflib
import math
from typing import Any

import attrs

from lola_io.joints import JOINT_INDEX, JOINT_NAMES
from providers.model import NaoModel
from skills.keyframes import ScriptError

#: How far (rad) a position may lie outside a joint's limits and still be accepted (it is then
#: stored exactly on the limit). Files written in degrees cannot hit a limit exactly: -2° is
#: 1.5e-8 rad above LElbowRoll's upper limit of -0.0349066 rad.
LIMIT_SLACK = 1e-6


@attrs.frozen
class Where:
    """Where a value sits in a script file, for error messages."""

    source: str
    frame: int | None
    field: str | None

    def error(self, problem: str) -> ScriptError:
        """A :class:`ScriptError` about this place."""
        return ScriptError(self.source, self.frame, self.field, problem)

    def at(self, field: str) -> Where:
        """The same frame, another field."""
        return Where(self.source, self.frame, field)


def number(value: Any, where: Where) -> float:
    """``value`` as a finite float, or a ScriptError naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise where.error(f"expected a number, got {value!r}")
    result = float(value)
    if not math.isfinite(result):
        raise where.error(f"expected a finite number, got {value!r}")
    return result


def parse_number(token: str, where: Where) -> float:
    """A finite float read from text (``.pos`` columns), or a ScriptError naming ``where``."""
    try:
        result = float(token)
    except ValueError:
        raise where.error(f"expected a number, got {token!r}") from None
    if not math.isfinite(result):
        raise where.error(f"expected a finite number, got {token!r}")
    return result


def joint_name(value: Any, where: Where) -> str:
    """``value`` as a LoLA joint name, or a ScriptError that suggests the likely one."""
    if not isinstance(value, str):
        raise where.error(f"expected a LoLA joint name, got {value!r}")
    if value in JOINT_INDEX:
        return value
    if value == "RHipYawPitch":
        hint = "one motor drives both hip yaw-pitch joints; LoLA calls it LHipYawPitch"
    else:
        close = difflib.get_close_matches(value, JOINT_NAMES, n=3)
        hint = f"did you mean {' or '.join(close)}?" if close else "joints are LoLA names"
    raise where.error(f"unknown joint {value!r} ({hint})")


def position(name: str, value: float, model: NaoModel, where: Where) -> float:
    """``value`` checked against the joint's limits (within :data:`LIMIT_SLACK`)."""
    i = JOINT_INDEX[name]
    lower, upper = float(model.lower[i]), float(model.upper[i])
    if value < lower - LIMIT_SLACK or value > upper + LIMIT_SLACK:
        raise where.error(
            f"{value:.6g} rad is outside {name}'s limits [{lower:.6g}, {upper:.6g}] rad"
        )
    return min(max(value, lower), upper)


def stiffness(value: float, where: Where) -> float:
    """``value`` checked to be a stiffness in [0, 1]."""
    if not 0.0 <= value <= 1.0:
        raise where.error(f"stiffness must be within [0, 1], got {value:.6g}")
    return value


def duration_ms(value: float, where: Where) -> float:
    """A duration in milliseconds checked and converted to seconds."""
    if value < 0.0:
        raise where.error(f"duration must not be negative, got {value:.6g} ms")
    return value / 1000.0
