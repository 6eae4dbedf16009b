"""Which gait parameters a search moves, and within which bounds.

A search works in the unit cube: each searched parameter maps linearly from its bounds to
[0, 1], so CMA-ES's one step size fits parameters of different units (seconds, metres, rad per
rad/s). The bounds default to the gait's own validated ranges (``skills.walk.params``) and may
only narrow them: a search never writes a gait the walk would refuse.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import attrs
import numpy as np

from skills.walk.params import PARAMETER_RANGES, GaitParameters


class OptimiseError(ValueError):
    """Bad search input, reported before any work starts."""


#: Parameters searched when none are named: the ones that shape a fast forward walk and its
#: balance (the speed limits and safety thresholds are left to the user's gait file).
DEFAULT_PARAMETERS: tuple[str, ...] = (
    "step_period",
    "hip_height",
    "foot_lift",
    "lift_forward_gain",
    "com_offset",
    "com_offset_forward",
    "torso_lean",
    "torso_lean_forward",
    "gyro_pitch_ankle",
    "gyro_roll_hip",
    "tilt_pitch_ankle",
    "switch_min_phase",
)


@attrs.frozen
class SearchSpace:
    """Searched parameter names with their (lower, upper) bounds."""

    names: tuple[str, ...]
    lower: tuple[float, ...]
    upper: tuple[float, ...]

    @classmethod
    def of(
        cls,
        names: Sequence[str] | None = None,
        bounds: Mapping[str, tuple[float, float]] | None = None,
    ) -> SearchSpace:
        """A space over ``names`` (default :data:`DEFAULT_PARAMETERS`), each within the gait's
        validated range or the narrower ``bounds`` given for it."""
        names = tuple(DEFAULT_PARAMETERS if names is None else names)
        bounds = dict(bounds or {})
        if not names:
            raise OptimiseError("no parameters to search")
        for name in (*names, *bounds):
            if name not in PARAMETER_RANGES:
                raise OptimiseError(
                    f"unknown gait parameter {name!r} (known: {', '.join(PARAMETER_RANGES)})"
                )
        if len(set(names)) != len(names):
            raise OptimiseError(f"a parameter is named twice: {', '.join(names)}")
        stray = sorted(set(bounds) - set(names))
        if stray:
            raise OptimiseError(f"bounds given for {stray[0]!r}, which is not searched")
        lower, upper = [], []
        for name in names:
            low, high, unit, _ = PARAMETER_RANGES[name]
            lo, hi = bounds.get(name, (low, high))
            if not (math.isfinite(lo) and math.isfinite(hi) and low <= lo < hi <= high):
                raise OptimiseError(
                    f"bounds of {name} must satisfy {low:g} <= lower < upper <= {high:g} {unit} "
                    f"(the gait's validated range), got [{lo:g}, {hi:g}]"
                )
            lower.append(float(lo))
            upper.append(float(hi))
        return cls(names, tuple(lower), tuple(upper))

    @property
    def dimension(self) -> int:
        """How many parameters are searched."""
        return len(self.names)

    def to_unit(self, gait: GaitParameters) -> np.ndarray:
        """``gait``'s searched values in the unit cube (clipped to the bounds)."""
        values = np.array([getattr(gait, name) for name in self.names])
        lo, hi = np.array(self.lower), np.array(self.upper)
        return np.clip((values - lo) / (hi - lo), 0.0, 1.0)

    def values(self, unit: Sequence[float]) -> dict[str, float]:
        """The parameter values at a point of the unit cube (clipped into it)."""
        x = np.clip(np.asarray(unit, dtype=float), 0.0, 1.0)
        return {
            name: float(lo + (hi - lo) * xi)
            for name, lo, hi, xi in zip(self.names, self.lower, self.upper, x, strict=True)
        }

    def gait(self, unit: Sequence[float], base: GaitParameters) -> GaitParameters:
        """``base`` with the searched parameters set from a point of the unit cube."""
        return attrs.evolve(base, **self.values(unit))
