"""Static joint torques of the legs: what each leg joint must exert to hold the robot still in
a posture, given how the body's weight is shared between the feet.

A NAO's servos are position controllers of finite stiffness: a joint under a load ``tau``
settles ``tau / k`` short of its command (``k`` the servo's stiffness, N m/rad). Knowing the
load, a motion can command that much further and reach the posture it planned. The load on
a leg joint holds everything on the foot's side of it (the links from the joint down to the
sole) against gravity and against the ground's reaction under that foot, a vertical force of
the foot's share of the robot's weight acting on the vertical through the centre of mass
(shifted by the foot's offset from the feet's weighted middle, so the two reactions together
act through the centre of mass, as they must for the body to stay still).

Checked against naosim's servos in the walk-ready stand (each joint's ``kp * (command -
measured)``): the pitch joints within 0.03 N m, naosim's friction loss. On two feet the rolls
also hold however hard the feet squeeze the floor between them, which statics cannot know
(0.05 N m there).
"""

from __future__ import annotations

import numpy as np

from lola_io.joints import LEFT_LEG_JOINTS, RIGHT_LEG_JOINTS
from providers.model.kinematics import NaoKinematics, nao_kinematics

GRAVITY = 9.81  # m/s^2

#: Stiffness of a NAO leg servo at stiffness 1 (N m/rad): the public HULKs NAO V6 MuJoCo
#: model's actuator gain, which naosim uses too (reference/lola.md). A real NAO's has not
#: been identified here; a motion scales its compensation by a gain of its own.
SERVO_STIFFNESS = 21.1

#: The six joints of each leg from the hip down (the right hip yaw-pitch is the left's motor).
LEG_CHAINS = (LEFT_LEG_JOINTS, ("RHipYawPitch", *RIGHT_LEG_JOINTS))


class LegStatics:
    """Static torques (N m) of the twelve leg joints of one robot model."""

    def __init__(self, kinematics: NaoKinematics | None = None) -> None:
        self._kin = kin = kinematics or nao_kinematics()
        model = kin.model
        self._mass = kin.total_mass
        links, axes, masses, coms, soles = [], [], [], [], []
        for chain, sole in zip(LEG_CHAINS, kin.sole_names, strict=True):
            children = [model.joints[name].child for name in chain]
            links += [kin.link_index[c] for c in children]
            axes += [model.joints[name].axis for name in chain]
            masses += [model.links[c].mass for c in children]
            coms += [[*model.links[c].com, 1.0] for c in children]
            soles.append(kin.link_index[sole])
        self._links = np.array(links)
        axes_ = np.array(axes, dtype=np.float64)
        self._axes = axes_ / np.linalg.norm(axes_, axis=1, keepdims=True)
        self._masses = np.array(masses).reshape(2, 6)
        self._coms = np.array(coms)
        self._soles = soles

    def torques(self, position: np.ndarray, left_share: float, loaded: bool = True) -> np.ndarray:
        """The torques (N m, about each joint's axis, on the foot's side) that hold the legs
        of a robot at ``position`` (25 joint angles, LoLA order) still: left leg's six, then
        the right's (its hip yaw-pitch first).

        ``left_share`` in [0, 1]: the share of the robot's weight on the left foot.
        ``loaded``: whether the feet carry the robot at all (a lifted robot's legs hold only
        themselves)."""
        poses = self._kin.link_poses(position)
        com = self._kin.center_of_mass(position)
        soles = poses[self._soles]
        shares = np.array([left_share, 1.0 - left_share])
        # Up is the soles' normal (they stand flat), weighted like the load.
        up = shares @ soles[:, :3, 2]
        up /= np.linalg.norm(up)
        frames = poses[self._links]
        joints = frames[:, :3, 3].reshape(2, 6, 3)
        axes = np.einsum("nij,nj->ni", frames[:, :3, :3], self._axes)
        centres = np.einsum("nij,nj->ni", frames[:, :3, :], self._coms).reshape(2, 6, 3)
        # Each joint holds the links below it: reverse cumulative sums of mass and moment.
        masses = self._masses
        below_mass = np.cumsum(masses[:, ::-1], axis=1)[:, ::-1]
        below_moment = np.cumsum((masses[..., None] * centres)[:, ::-1], axis=1)[:, ::-1]
        arm = below_moment - below_mass[..., None] * joints
        moment = _cross(arm, -GRAVITY * up)
        if loaded:
            # Where each foot's reaction acts: on the vertical through the centre of mass,
            # offset by the foot's place, so that the two together act through it.
            middle = shares @ soles[:, :3, 3]
            reaction = com + soles[:, :3, 3] - middle  # (2, 3)
            weight = (self._mass * GRAVITY) * shares
            moment += _cross(reaction[:, None, :] - joints, up) * weight[:, None, None]
        return -np.einsum("ni,ni->n", axes, moment.reshape(12, 3))


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a x b`` for a stack of vectors ``a`` (..., 3) and one vector ``b`` (3,): numpy's
    cross costs ten times this at these sizes."""
    out = np.empty_like(a)
    out[..., 0] = a[..., 1] * b[2] - a[..., 2] * b[1]
    out[..., 1] = a[..., 2] * b[0] - a[..., 0] * b[2]
    out[..., 2] = a[..., 0] * b[1] - a[..., 1] * b[0]
    return out


_STATICS: LegStatics | None = None


def nao_leg_statics() -> LegStatics:
    """The packaged NAO's leg statics, built once."""
    global _STATICS
    if _STATICS is None:
        _STATICS = LegStatics()
    return _STATICS
