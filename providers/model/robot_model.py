"""The NAO robot model as data: joints, links, limits and foot geometry.

The numbers live in ``nao_model.json`` beside this module (copied from the NAO URDF the
project was seeded with); nothing reads outside the package at run time.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from types import MappingProxyType
from typing import Any

import attrs
import numpy as np

from lola_io.joints import JOINT_NAMES


@attrs.frozen
class JointSpec:
    """One joint of the URDF tree: revolute (with limits) or fixed (a frame)."""

    name: str
    type: str
    parent: str
    child: str
    origin_xyz: tuple[float, float, float]
    origin_rpy: tuple[float, float, float]
    axis: tuple[float, float, float] | None
    lower: float | None
    upper: float | None
    velocity: float | None
    effort: float | None
    mimic: str | None
    mimic_multiplier: float = 1.0


@attrs.frozen
class LinkSpec:
    """Mass properties of one link in its own frame."""

    name: str
    mass: float
    com: tuple[float, float, float]
    inertia: np.ndarray = attrs.field(eq=attrs.cmp_using(eq=np.array_equal))


@attrs.frozen
class FootGeometry:
    """NAOqi's foot: sole below the ankle-roll axis, and the sole box around the ankle (m)."""

    sole_height: float
    front: float
    rear: float
    inner: float
    outer: float


@attrs.frozen
class NaoModel:
    """The whole robot: joint tree, link masses, and LoLA-ordered limit arrays."""

    root: str
    joints: MappingProxyType
    links: MappingProxyType
    foot: FootGeometry
    lower: np.ndarray = attrs.field(eq=False)
    upper: np.ndarray = attrs.field(eq=False)
    velocity: np.ndarray = attrs.field(eq=False)
    effort: np.ndarray = attrs.field(eq=False)

    @property
    def total_mass(self) -> float:
        """Sum of every link mass, kg."""
        return sum(link.mass for link in self.links.values())

    def clamp(self, position: np.ndarray) -> np.ndarray:
        """Joint angles in LoLA order clamped into their limits (a new array)."""
        return np.clip(position, self.lower, self.upper)


def _joint(raw: dict[str, Any]) -> JointSpec:
    limit = raw.get("limit") or {}
    mimic = raw.get("mimic") or {}
    return JointSpec(
        name=raw["name"],
        type=raw["type"],
        parent=raw["parent"],
        child=raw["child"],
        origin_xyz=tuple(raw["xyz"]),
        origin_rpy=tuple(raw["rpy"]),
        axis=tuple(raw["axis"]) if raw.get("axis") and raw["type"] != "fixed" else None,
        lower=limit.get("lower"),
        upper=limit.get("upper"),
        velocity=limit.get("velocity"),
        effort=limit.get("effort"),
        mimic=mimic.get("joint"),
        mimic_multiplier=float(mimic.get("multiplier", 1.0)),
    )


def _link(name: str, raw: dict[str, Any]) -> LinkSpec:
    i = raw["inertia"]
    inertia = np.array(
        [
            [i["ixx"], i["ixy"], i["ixz"]],
            [i["ixy"], i["iyy"], i["iyz"]],
            [i["ixz"], i["iyz"], i["izz"]],
        ]
    )
    return LinkSpec(name=name, mass=raw["mass"], com=tuple(raw["com"]), inertia=inertia)


@functools.cache
def load_nao_model() -> NaoModel:
    """The NAO model shipped with the package (parsed once, then shared)."""
    text = resources.files("providers.model").joinpath("nao_model.json").read_text()
    raw = json.loads(text)
    joints = {j["name"]: _joint(j) for j in raw["joints"]}
    links = {name: _link(name, link) for name, link in raw["links"].items()}
    missing = [name for name in JOINT_NAMES if name not in joints]
    if missing:
        raise ValueError(f"nao_model.json lacks LoLA joints: {missing}")
    lola = [joints[name] for name in JOINT_NAMES]
    return NaoModel(
        root=raw["root"],
        joints=MappingProxyType(joints),
        links=MappingProxyType(links),
        foot=FootGeometry(**raw["foot"]),
        lower=np.array([j.lower for j in lola]),
        upper=np.array([j.upper for j in lola]),
        velocity=np.array([j.velocity for j in lola]),
        effort=np.array([j.effort for j in lola]),
    )
