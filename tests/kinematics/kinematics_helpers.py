"""The independent judge of the kinematics: MuJoCo's own kinematics of the simulated NAO.

The reference is ``naosim.model_builder.build_spec`` (the simulated robot, built with
``mujoco.MjSpec`` from the same ``load_nao_model()`` numbers), with two edits so that its
masses are exactly the model's: naosim raises the 2 mg gripper links to 1 g (MuJoCo integrates
them more stably) and keeps the fixed FSR frames as massless sites. Here the grippers get their
2 mg back and each FSR frame with mass becomes a welded body of that mass; nothing else is
touched. The torso's free joint is put at the identity pose, so MuJoCo's world frame is the
torso frame.
"""

from __future__ import annotations

import mujoco
import numpy as np
from hypothesis import strategies as st

from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from naosim.model_builder import build_spec
from providers.model import load_nao_model

# A tiny but valid inertia for the 2 mg links; it cannot move a centre of mass.
_TINY_INERTIA = 1e-12


class MujocoReference:
    """MuJoCo link poses and subtree centre of mass for LoLA joint angles."""

    def __init__(self) -> None:
        model = load_nao_model()
        spec = build_spec(model, collisions=False)
        for body in spec.bodies:
            link = model.links.get(body.name)
            if link is not None and body.name != "world" and body.mass != link.mass:
                body.mass = link.mass
                body.ipos = list(link.com)
                body.inertia = [_TINY_INERTIA] * 3
                body.fullinertia = [np.nan] * 6
                body.explicitinertial = True
        for site in list(spec.sites):
            link = model.links.get(site.name)
            if link is None or link.mass == 0.0:
                continue
            parent = site.parent
            weight = parent.add_body(name=f"{site.name}_mass")
            weight.pos = list(site.pos)
            weight.quat = list(site.quat)
            weight.mass = link.mass
            weight.ipos = list(link.com)
            weight.inertia = [_TINY_INERTIA] * 3
            weight.explicitinertial = True
        self.mj = spec.compile()
        self.data = mujoco.MjData(self.mj)
        self.hinges = []
        for name, joint in model.joints.items():
            if joint.type != "revolute":
                continue
            driver = joint.mimic or name
            adr = self.mj.jnt_qposadr[mujoco.mj_name2id(self.mj, mujoco.mjtObj.mjOBJ_JOINT, name)]
            self.hinges.append((adr, JOINT_INDEX[driver], joint.mimic_multiplier))
        self.total_mass = float(self.mj.body_subtreemass[self._body("torso")])

    def _body(self, name: str) -> int:
        return mujoco.mj_name2id(self.mj, mujoco.mjtObj.mjOBJ_BODY, name)

    def set(self, position: np.ndarray) -> None:
        """Pose the model at LoLA angles (RHipYawPitch follows LHipYawPitch) and run FK."""
        qpos = self.data.qpos
        qpos[:] = 0.0
        qpos[3] = 1.0  # free joint: torso at the origin, identity quaternion
        for adr, index, scale in self.hinges:
            qpos[adr] = scale * position[index]
        mujoco.mj_kinematics(self.mj, self.data)
        mujoco.mj_comPos(self.mj, self.data)

    def pose(self, name: str) -> np.ndarray:
        """4x4 pose of a body or site after :meth:`set`."""
        out = np.eye(4)
        body = self._body(name)
        if body >= 0:
            out[:3, :3] = self.data.xmat[body].reshape(3, 3)
            out[:3, 3] = self.data.xpos[body]
            return out
        site = mujoco.mj_name2id(self.mj, mujoco.mjtObj.mjOBJ_SITE, name)
        if site < 0:
            raise KeyError(name)
        out[:3, :3] = self.data.site_xmat[site].reshape(3, 3)
        out[:3, 3] = self.data.site_xpos[site]
        return out

    def center_of_mass(self) -> np.ndarray:
        """Whole-body centre of mass (the torso's subtree) after :meth:`set`."""
        return self.data.subtree_com[self._body("torso")].copy()


def joint_angles(lower: np.ndarray | None = None, upper: np.ndarray | None = None):
    """Hypothesis strategy: 25 LoLA angles uniformly inside the limits (or given bounds)."""
    model = load_nao_model()
    lo = model.lower if lower is None else lower
    hi = model.upper if upper is None else upper
    unit = st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=NUM_JOINTS, max_size=NUM_JOINTS)
    # Clipped: lo + 1.0 * (hi - lo) can round past hi, and an angle a hair outside its limit
    # is not "inside the limits".
    return unit.map(lambda u: np.clip(lo + np.asarray(u) * (hi - lo), lo, hi))
