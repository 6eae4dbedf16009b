"""Forward kinematics and centre of mass of the NAO, from the 25 LoLA joint angles.

Every pose is a 4x4 homogeneous matrix in the **torso frame** (see ``transforms``). The URDF
tree is read once from :func:`load_nao_model` and laid out as five serial chains hanging off
the torso (head, left arm, left leg, right leg, right arm), each padded to the longest chain
with identity links. One call then costs a handful of batched numpy operations instead of a
Python loop over 26 joints: one Rodrigues evaluation for all joints at once, then one
``matmul`` per chain depth for all chains at once.

``RHipYawPitch`` is not a LoLA joint: it follows ``LHipYawPitch`` (times the URDF mimic
multiplier), as the one shared motor does on the robot.

Fixed URDF frames (soles, FSRs, IMU, cameras, sonars, gaze) are links too, posed from their
parent; their masses are merged into the moving body that carries them for the centre of mass.
"""

from __future__ import annotations

import functools
import math
from types import MappingProxyType

import numpy as np

from lola_io.joints import JOINT_INDEX, JOINT_NAMES, NUM_JOINTS
from providers.model.robot_model import JointSpec, NaoModel, load_nao_model
from providers.model.transforms import make_pose, rotation_from_rpy, skew

__all__ = ["NaoKinematics", "nao_kinematics"]


class NaoKinematics:
    """Forward kinematics, link poses and whole-body centre of mass of one robot model.

    Build it once (``nao_kinematics()`` caches the packaged NAO's) and call it every cycle.
    Methods take joint angles in LoLA order, shape ``(25,)``, or a batch ``(..., 25)``.
    """

    def __init__(self, model: NaoModel | None = None) -> None:
        self.model = model or load_nao_model()
        children: dict[str, list[JointSpec]] = {}
        for joint in self.model.joints.values():
            children.setdefault(joint.parent, []).append(joint)
        root = self.model.root

        chains = _serial_chains(root, children)
        self._depth = depth = max(len(chain) for chain in chains)
        self._chains = n_chains = len(chains)
        n_slots = depth * n_chains

        # Chain slots are laid out depth-major (slot = depth * n_chains + chain) so that one
        # depth of every chain is a contiguous (chains, 4, 4) block for matmul. Padding slots
        # are identities driven by joint 0 with a zero axis.
        # A slot's transform is origin @ Rot(axis, q) = [R0 + R0 K^2 + sin q R0 K - cos q R0 K^2
        # | xyz]: a fixed blend of three 4x4 blocks with weights (1, sin q, cos q). cos q is
        # computed as sin(q + pi/2) so one sin, one multiply and two adds build every slot.
        self._q_index = np.zeros(n_slots, dtype=np.intp)
        self._q_scale = np.ones(n_slots)
        self._const = np.tile(np.eye(4).ravel(), (n_slots, 1))
        self._trig_blocks = np.zeros((2 * n_slots, 16))
        moving: list[tuple[str, int]] = []
        for ci, chain in enumerate(chains):
            for di, joint in enumerate(chain):
                slot = di * n_chains + ci
                driver = joint.mimic or joint.name
                if driver not in JOINT_INDEX:
                    raise ValueError(f"joint {joint.name!r} is driven by no LoLA joint")
                self._q_index[slot] = JOINT_INDEX[driver]
                self._q_scale[slot] = joint.mimic_multiplier if joint.mimic else 1.0
                axis = np.asarray(joint.axis, dtype=np.float64)
                # URDF axes are given to six digits (0.707106); MuJoCo normalises, so do we.
                k = skew(axis / np.linalg.norm(axis))
                r0 = rotation_from_rpy(*joint.origin_rpy)
                const = make_pose(r0 + r0 @ k @ k, joint.origin_xyz)
                self._const[slot] = const.ravel()
                self._trig_blocks[slot, :12] = np.hstack([r0 @ k, np.zeros((3, 1))]).ravel()
                self._trig_blocks[n_slots + slot, :12] = np.hstack(
                    [-(r0 @ k @ k), np.zeros((3, 1))]
                ).ravel()
                moving.append((joint.child, slot))
        self._trig_index = np.concatenate([self._q_index, self._q_index])
        self._trig_phase = np.repeat([0.0, np.pi / 2], n_slots)[:, None]
        self._scaled = bool(np.any(self._q_scale != 1.0))

        # Link table: the torso, the moving bodies, then the fixed frames.
        names = [root] + [name for name, _ in moving]
        slot_of = {name: slot for name, slot in moving}
        self._moving_slots = np.array([slot for _, slot in moving], dtype=np.intp)
        fixed_parent, fixed_offset = [], []
        bodies = {root, *slot_of}
        for name, parent, offset in _fixed_frames(root, children, bodies):
            fixed_parent.append(names.index(parent))
            names.append(name)
            fixed_offset.append(offset)
        self._fixed_parent = np.array(fixed_parent, dtype=np.intp)
        self._fixed_offset = np.array(fixed_offset).reshape(-1, 4, 4)
        self.link_names: tuple[str, ...] = tuple(names)
        self.link_index = MappingProxyType({name: i for i, name in enumerate(names)})

        # Mass of each body as a homogeneous first moment (m * com, m) in its own frame, with
        # fixed frames' masses folded into the body carrying them.
        # In link-table order, not the set's: a set's order follows the string hash, and the
        # total mass's last bit with it (an IK at a straight knee then took either branch).
        moment = {name: np.zeros(4) for name in names if name in bodies}
        for name in names:
            link = self.model.links.get(name)
            if link is None or link.mass == 0.0:
                continue
            owner, offset = name, np.eye(4)
            if name not in bodies:
                owner, offset = _carrier(name, root, children, bodies)
            moment[owner] += link.mass * (offset @ np.array([*link.com, 1.0]))
        self.total_mass = float(sum(m[3] for m in moment.values()))
        # The centre of mass is linear in the slot poses: com = W @ poses.ravel() + c. W puts
        # each slot's moment under the rows 0..2 of its pose, pre-divided by the total mass.
        self._com_weights = np.zeros((3, n_slots, 4, 4))
        for name, slot in moving:
            for i in range(3):
                self._com_weights[i, slot, i, :] = moment[name] / self.total_mass
        self._com_weights = self._com_weights.reshape(3, n_slots * 16)
        self._com_offset = moment[root][:3] / self.total_mass

        # Scratch buffers and their views for the single-configuration path, made once: at
        # this size slicing an array costs as much as the arithmetic on it.
        self._trig = np.empty((1, 2 * n_slots, 1))
        self._tmp = np.empty((1, 2, n_slots, 16))
        self._a = np.empty((1, n_slots, 16))
        self._t = np.empty((1, depth, n_chains, 4, 4))
        self._take_index = self._trig_index[:, None]
        self._one_trig = self._trig[0]
        self._one_tmp = self._tmp.reshape(-1, 16)
        self._one_tmp_parts = (self._tmp[0, 0], self._tmp[0, 1])
        self._one_a = self._a[0]
        a_blocks = self._a.reshape(depth, n_chains, 4, 4)
        self._one_a_depth = [a_blocks[d] for d in range(depth)]
        self._one_t_depth = [self._t[0, d] for d in range(depth)]
        self._one_t_flat = self._t.reshape(-1)
        self._com_weights = np.ascontiguousarray(self._com_weights)
        self.sole_names = ("l_sole", "r_sole")

    def _chain_poses(self, position: np.ndarray) -> np.ndarray:
        """Pose of every chain slot, shape ``(..., depth, chains, 4, 4)``; may be a buffer."""
        q = _checked(position)
        if q.ndim == 1 and not self._scaled:
            self._one_chain_poses(q)
            return self._t[0]
        batch = q.shape[:-1]
        q = q.reshape(-1, NUM_JOINTS)
        n = q.shape[0]
        if n == 1:
            trig, tmp, a, t = self._trig, self._tmp, self._a, self._t
        else:
            trig = np.empty((n, *self._trig.shape[1:]))
            tmp = np.empty((n, *self._tmp.shape[1:]))
            a = np.empty((n, *self._a.shape[1:]))
            t = np.empty((n, *self._t.shape[1:]))
        angles = q[:, self._trig_index, None]
        if self._scaled:
            angles *= np.concatenate([self._q_scale, self._q_scale])[:, None]
        np.add(angles, self._trig_phase, out=trig)
        np.sin(trig, out=trig)
        np.multiply(trig, self._trig_blocks, out=tmp.reshape(n, -1, 16))
        np.add(self._const, tmp[:, 0], out=a)
        np.add(a, tmp[:, 1], out=a)
        a = a.reshape(t.shape)
        t[:, 0] = a[:, 0]
        for d in range(1, self._depth):
            np.matmul(t[:, d - 1], a[:, d], out=t[:, d])
        return t.reshape(*batch, *t.shape[1:])

    def _one_chain_poses(self, q: np.ndarray) -> None:
        """:meth:`_chain_poses` for one configuration, into ``self._t`` via prebuilt views."""
        trig = self._one_trig
        np.take(q, self._take_index, out=trig)
        np.add(trig, self._trig_phase, out=trig)
        np.sin(trig, out=trig)
        np.multiply(trig, self._trig_blocks, out=self._one_tmp)
        a = self._one_a
        sin_part, cos_part = self._one_tmp_parts
        np.add(self._const, sin_part, out=a)
        np.add(a, cos_part, out=a)
        a_depth, t_depth = self._one_a_depth, self._one_t_depth
        np.copyto(t_depth[0], a_depth[0])
        for d in range(1, self._depth):
            np.matmul(t_depth[d - 1], a_depth[d], out=t_depth[d])

    def link_poses(self, position: np.ndarray) -> np.ndarray:
        """Every link's pose in the torso frame, shape ``(..., n_links, 4, 4)`` (a new array).

        Rows follow :attr:`link_names`; look one up with ``link_index[name]``.
        """
        t = self._chain_poses(position)
        batch = t.shape[:-4]
        flat = t.reshape(*batch, -1, 4, 4)
        out = np.empty((*batch, len(self.link_names), 4, 4))
        out[..., 0, :, :] = np.eye(4)
        n_moving = len(self._moving_slots)
        out[..., 1 : 1 + n_moving, :, :] = flat[..., self._moving_slots, :, :]
        out[..., 1 + n_moving :, :, :] = out[..., self._fixed_parent, :, :] @ self._fixed_offset
        return out

    def link_pose(self, position: np.ndarray, link: str) -> np.ndarray:
        """One link's pose in the torso frame (4x4). Unknown names raise ``KeyError``."""
        if link not in self.link_index:
            raise KeyError(f"no link {link!r}; known: {', '.join(self.link_names)}")
        return self.link_poses(position)[..., self.link_index[link], :, :]

    def sole_poses(self, position: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Left and right sole frames in the torso frame (the frames the leg IK takes)."""
        poses = self.link_poses(position)
        il, ir = (self.link_index[name] for name in self.sole_names)
        return poses[..., il, :, :], poses[..., ir, :, :]

    def center_of_mass(self, position: np.ndarray) -> np.ndarray:
        """Whole-body centre of mass in the torso frame (m), shape ``(..., 3)``."""
        q = _checked(position)
        if q.ndim == 1 and not self._scaled:
            self._one_chain_poses(q)
            return np.dot(self._com_weights, self._one_t_flat) + self._com_offset
        t = self._chain_poses(q)
        flat = t.reshape(*t.shape[:-4], -1)
        return flat @ self._com_weights.T + self._com_offset


def _checked(position) -> np.ndarray:
    """Joint angles as float64 ``(..., 25)``; wrong shapes and NaN or infinite angles raise."""
    q = np.asarray(position, dtype=np.float64)
    if q.shape[-1:] != (NUM_JOINTS,):
        raise ValueError(f"joint angles must have shape (..., {NUM_JOINTS}), got {q.shape}")
    # One sum is finite exactly when every angle is (a NaN or an infinity spoils it).
    if not math.isfinite(float(q.sum())):
        bad = [JOINT_NAMES[i] for i in np.nonzero(~np.isfinite(q))[-1]]
        raise ValueError(f"joint angles must be finite; not finite: {sorted(set(bad))}")
    return q


@functools.cache
def nao_kinematics() -> NaoKinematics:
    """The kinematics of the packaged NAO model (built once, then shared)."""
    return NaoKinematics(load_nao_model())


def _serial_chains(root: str, children: dict[str, list[JointSpec]]) -> list[list[JointSpec]]:
    """The revolute joints as serial chains from the root; the tree must branch only there."""
    chains = []
    for first in children.get(root, []):
        if first.type == "fixed":
            continue
        chain = [first]
        while True:
            nxt = [j for j in children.get(chain[-1].child, []) if j.type != "fixed"]
            if not nxt:
                break
            if len(nxt) > 1:
                raise ValueError(f"link {chain[-1].child!r} branches; only the root may")
            chain.append(nxt[0])
        chains.append(chain)
    if not chains:
        raise ValueError("the model has no revolute joints")
    for chain in chains:
        for joint in chain:
            if joint.type != "revolute" or joint.axis is None:
                raise ValueError(f"joint {joint.name!r} is not a revolute joint with an axis")
    return chains


def _fixed_frames(root: str, children: dict[str, list[JointSpec]], bodies: set[str]):
    """``(frame, carrying body, 4x4 offset from it)`` for every fixed frame, depth first."""
    out = []
    stack = [(name, name, np.eye(4)) for name in sorted(bodies)]
    while stack:
        link, body, offset = stack.pop()
        for joint in children.get(link, []):
            if joint.type != "fixed":
                continue
            pose = offset @ make_pose(rotation_from_rpy(*joint.origin_rpy), joint.origin_xyz)
            out.append((joint.child, body, pose))
            stack.append((joint.child, body, pose))
    return out


def _carrier(frame: str, root: str, children: dict[str, list[JointSpec]], bodies: set[str]):
    """The moving body that carries fixed ``frame``, and the frame's pose in it."""
    for name, body, offset in _fixed_frames(root, children, bodies):
        if name == frame:
            return body, offset
    raise ValueError(f"link {frame!r} hangs from no body")
