"""Named gaits, NAOqi's move config, and the blend from one gait to another.

- **Named gaits**: ``default`` is the shipped gait (``gait.yaml``); every ``gaits/NAME.yaml``
  is a gait file (keys overriding the shipped gait, as ``load_gait`` reads) shipped with the
  walk: ``careful``, ``precise`` and ``sprint`` (see their headers). :func:`shipped_gaits`
  loads them.
- **NAOqi's move config** (ALMotion's keys, in a move call): :func:`apply_move_config` maps
  ``MaxStepX``, ``MaxStepY``, ``MaxStepTheta``, ``MaxStepFrequency``, ``StepHeight``,
  ``TorsoWx`` and ``TorsoWy`` onto a gait. Each value is checked against ALMotion's own
  minimum and maximum first (the error names the key), then the gait it makes against the
  gait's ranges. One of this walk's steps is half a gait cycle of ``step_period`` s, so:
  a forward step of ``MaxStepX`` m is ``max_forward = MaxStepX / period``; a sideways step
  opens the feet from their separation (0.1 m) to ``MaxStepY``, and the walk opens them by
  ``2 · left · period``, so ``max_left = (MaxStepY - 0.1) / (2 · period)``; a turn per step of
  ``MaxStepTheta`` is ``max_turn = MaxStepTheta / (2 · period)`` (a leading turn, as the
  sideways step); ``MaxStepFrequency`` (0..1) shortens the period from the slowest
  (``period / (2/3)``) to the gait's own; ``StepHeight`` is ``foot_lift``; ``TorsoWy`` is
  ``torso_lean``. This walk never leans the torso sideways, so ``TorsoWx`` may only be 0.
- **Per foot** (move and moveToward): a key prefixed ``Left`` or ``Right`` applies to the
  steps that foot makes (:func:`apply_foot_move_config`): their period, lift and largest
  step come from that foot's gait (``Walk.left_gait``, ``Walk.right_gait``), everything else
  (the lean, the balance, the velocity limits) from the common one. The torso cannot lean
  per foot here, so ``LeftTorsoWy`` is refused.
- **Blending** (Northern Bites' MetaGait): :func:`blend` is every parameter interpolated;
  the generator blends from the gait it walks with to a new one over two steps.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from importlib import resources
from typing import Any

import attrs

from skills.walk.params import PARAMETER_RANGES, GaitError, GaitParameters, between, load_gait

#: ALMotion's move-config keys: (minimum, maximum) as its gait table gives them.
NAOQI_RANGES: Mapping[str, tuple[float, float]] = {
    "MaxStepX": (0.001, 0.080),
    "MaxStepY": (0.101, 0.160),
    "MaxStepTheta": (0.001, 0.524),
    "MaxStepFrequency": (0.0, 1.0),
    "StepHeight": (0.005, 0.040),
    "TorsoWx": (-0.122, 0.122),
    "TorsoWy": (-0.122, 0.122),
}
#: NAOqi's separation of the feet (its FootSeparation), m.
FOOT_SEPARATION = 0.1
#: The slowest step frequency, as a share of a gait's (``Walk.frequency`` and
#: ``MaxStepFrequency`` 0).
MIN_FREQUENCY_SHARE = 2.0 / 3.0


def frequency_share(frequency: float) -> float:
    """The share of the gait's step frequency that ``frequency`` (0..1) asks for."""
    return MIN_FREQUENCY_SHARE + (1.0 - MIN_FREQUENCY_SHARE) * frequency


def apply_move_config(gait: GaitParameters, config: Mapping[str, Any]) -> GaitParameters:
    """``gait`` with NAOqi's move-config ``config`` applied (see the module docstring)."""
    if not isinstance(config, Mapping):
        raise GaitError(None, config, "a move config is a mapping of NAOqi key to value")
    values: dict[str, float] = {}
    for key, value in config.items():
        if key not in NAOQI_RANGES and _foot_key(key) is not None:
            raise GaitError(key, value, "a per-foot key: only move and moveToward take them")
        if key not in NAOQI_RANGES:
            known = ", ".join(NAOQI_RANGES)
            raise GaitError(key, value, f"not a move-config key this walk maps (keys: {known})")
        low, high = NAOQI_RANGES[key]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise GaitError(key, value, "must be a number")
        if not (math.isfinite(value) and low <= value <= high):
            raise GaitError(key, value, f"must be within [{low:g}, {high:g}] (NAOqi's range)")
        values[key] = float(value)
    if values.get("TorsoWx", 0.0) != 0.0:
        raise GaitError("TorsoWx", values["TorsoWx"], "this walk never leans sideways: only 0")
    changes: dict[str, float] = {}
    period = gait.step_period
    if "MaxStepFrequency" in values:
        share = frequency_share(values["MaxStepFrequency"])
        period = changes["step_period"] = gait.step_period / share
        # Every step is that much slower: the period's increments by speed stretch with it.
        for key in ("period_side_increase", "period_turn_decrease", "period_forward_increase"):
            changes[key] = getattr(gait, key) / share
    if "MaxStepX" in values:
        changes["max_forward"] = values["MaxStepX"] / period
    if "MaxStepY" in values:
        changes["max_left"] = (values["MaxStepY"] - FOOT_SEPARATION) / (2.0 * period)
    if "MaxStepTheta" in values:
        changes["max_turn"] = values["MaxStepTheta"] / (2.0 * period)
    if "StepHeight" in values:
        changes["foot_lift"] = values["StepHeight"]
    if "TorsoWy" in values:
        changes["torso_lean"] = values["TorsoWy"]
    try:
        return attrs.evolve(gait, **changes)
    except GaitError as error:
        naoqi = {
            "step_period": "MaxStepFrequency",
            "max_forward": "MaxStepX",
            "max_left": "MaxStepY",
            "max_turn": "MaxStepTheta",
            "foot_lift": "StepHeight",
            "torso_lean": "TorsoWy",
        }.get(error.key or "", "?")
        raise GaitError(
            naoqi, values.get(naoqi), f"gives {error.key} {error.value!r}: {error.problem}"
        ) from None


#: NAOqi's per-foot prefixes: "LeftStepHeight" is StepHeight for the left foot's steps.
FOOT_PREFIXES = ("Left", "Right")
#: Keys that shape a foot's steps, so may be given per foot; the torso leans the same on both.
FOOT_KEYS = ("MaxStepX", "MaxStepY", "MaxStepTheta", "MaxStepFrequency", "StepHeight")


@attrs.frozen
class FootGaits:
    """A move config with per-foot keys applied: the gait, and the left and right foot's own
    steps (None where the config names no key for that foot)."""

    gait: GaitParameters
    left: GaitParameters | None = None
    right: GaitParameters | None = None


def _foot_key(key: Any) -> tuple[str, str] | None:
    """(prefix, key) of a per-foot key ("LeftStepHeight"), else None."""
    for prefix in FOOT_PREFIXES:
        if isinstance(key, str) and key.startswith(prefix):
            return prefix, key[len(prefix) :]
    return None


def apply_foot_move_config(gait: GaitParameters, config: Mapping[str, Any]) -> FootGaits:
    """NAOqi's move config with keys for both feet and keys prefixed ``Left`` or ``Right``
    for one foot (move and moveToward's form): the common keys make the gait, a foot's keys
    make its steps' gait over it. Errors name the key as given."""
    if not isinstance(config, Mapping):
        raise GaitError(None, config, "a move config is a mapping of NAOqi key to value")
    common: dict[str, Any] = {}
    feet: dict[str, dict[str, Any]] = {prefix: {} for prefix in FOOT_PREFIXES}
    for key, value in config.items():
        foot = _foot_key(key)
        if foot is None:
            common[key] = value
            continue
        prefix, name = foot
        if name not in FOOT_KEYS:
            raise GaitError(key, value, f"per foot only {', '.join(FOOT_KEYS)} (the torso is one)")
        feet[prefix][name] = value
    base = apply_move_config(gait, common)
    steps = []
    for prefix, keys in feet.items():
        try:
            steps.append(apply_move_config(base, keys) if keys else None)
        except GaitError as error:
            raise GaitError(f"{prefix}{error.key}", error.value, error.problem) from None
    return FootGaits(base, steps[0], steps[1])


def move_config(gait: GaitParameters) -> dict[str, float]:
    """The gait as NAOqi's move config (what :func:`apply_move_config` reads back)."""
    period = gait.step_period
    return {
        "MaxStepX": gait.max_forward * period,
        "MaxStepY": FOOT_SEPARATION + 2.0 * gait.max_left * period,
        "MaxStepTheta": gait.max_turn * 2.0 * period,
        "MaxStepFrequency": 1.0,
        "StepHeight": gait.foot_lift,
        "TorsoWx": 0.0,
        "TorsoWy": gait.torso_lean,
    }


def blend(a: GaitParameters, b: GaitParameters, share: float) -> GaitParameters:
    """Every parameter ``share`` (0..1) of the way from ``a`` to ``b`` (within both ranges,
    so within the allowed one)."""
    share = min(1.0, max(0.0, share))
    if share == 0.0:
        return a
    if share == 1.0:
        return b
    return GaitParameters(
        **{name: between(getattr(a, name), getattr(b, name), share) for name in PARAMETER_RANGES}
    )


class GaitChange:
    """A change of gait under way: every parameter moves a little every cycle from ``start``
    to ``target`` over two of the longer period's steps (no posture jumps: Northern Bites'
    MetaGait)."""

    def __init__(self, start: GaitParameters, target: GaitParameters) -> None:
        self.start, self.target = start, target
        self._t = 0.0
        self._duration = 2.0 * max(start.step_period, target.step_period)

    def advance(self, dt: float) -> GaitParameters:
        """The gait ``dt`` further on (``target`` once the change is over)."""
        self._t += dt
        if self.done:
            return self.target
        return blend(self.start, self.target, self._t / self._duration)

    @property
    def done(self) -> bool:
        """Whether the gait has become ``target``."""
        return self._t >= self._duration


@functools.cache
def shipped_gaits() -> Mapping[str, GaitParameters]:
    """The named gaits shipped with the walk: ``default`` and every ``gaits/*.yaml``."""
    gaits = {"default": load_gait()}
    folder = resources.files("skills.walk").joinpath("gaits")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            with resources.as_file(entry) as path:
                gaits[entry.name[: -len(".yaml")]] = load_gait(path)
    return gaits


__all__ = [
    "FOOT_KEYS",
    "FOOT_PREFIXES",
    "FOOT_SEPARATION",
    "MIN_FREQUENCY_SHARE",
    "NAOQI_RANGES",
    "FootGaits",
    "GaitChange",
    "apply_foot_move_config",
    "apply_move_config",
    "blend",
    "frequency_share",
    "move_config",
    "shipped_gaits",
]
