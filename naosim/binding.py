"""Where the LoLA joints, the IMU, the feet and the floor live inside a MuJoCo model.

This is the naming contract for ``motiond sim --model FILE``. A NAO MJCF is accepted when:

- it has a floating base: a free joint (named ``root``, or the first free joint in the model);
  the body carrying it is the torso;
- every leg joint (``LHipYawPitch``, ``LHipRoll`` ... ``RAnkleRoll``, see
  ``lola_io.joints.LEFT_LEG_JOINTS``/``RIGHT_LEG_JOINTS``) is a hinge named like the LoLA joint,
  driven by a position actuator that is either named like the joint or targets it. A model missing
  any of them is refused, with every missing name listed;
- other LoLA joints (head, arms, hands) are optional: a missing one reads as its neutral value
  (0 clamped into the NAO's limits) and its commands are ignored;
- ``RHipYawPitch``, when present, is driven with the ``LHipYawPitch`` command (one motor on the
  real robot); the model should tie the two with an equality constraint;
- the IMU is the site ``ImuTorsoAccelerometer_frame`` (or a site ``imu``); failing both, the
  torso body frame;
- the feet are the sites ``l_sole``/``r_sole``; failing those, the bodies that carry
  ``LAnkleRoll``/``RAnkleRoll``. Contacts on the ankle-roll bodies and their descendants load the
  FSRs, whose cells sit where the sites ``LFsrFL_frame`` ... ``RFsrRR_frame`` are, or else at the
  NAO's published offsets from the ankle-roll body;
- the floor is the geom ``floor`` or else the first plane; an optional free body ``ball`` is the
  ball; sonar sites ``LSonar_frame``/``RSonar_frame`` are optional (sonar reads its maximum).
"""

from __future__ import annotations

from pathlib import Path

import attrs
import mujoco
import numpy as np

from lola_io.joints import FSR_NAMES, JOINT_NAMES, LEFT_LEG_JOINTS, RIGHT_LEG_JOINTS
from providers.model import load_nao_model

LEG_JOINTS: tuple[str, ...] = LEFT_LEG_JOINTS + RIGHT_LEG_JOINTS

#: FSR cell name → URDF frame name (the site naosim's own model carries).
FSR_SITES = {
    "LFootFrontLeft": "LFsrFL_frame",
    "LFootFrontRight": "LFsrFR_frame",
    "LFootRearLeft": "LFsrRL_frame",
    "LFootRearRight": "LFsrRR_frame",
    "RFootFrontLeft": "RFsrFL_frame",
    "RFootFrontRight": "RFsrFR_frame",
    "RFootRearLeft": "RFsrRL_frame",
    "RFootRearRight": "RFsrRR_frame",
}


class ModelContractError(ValueError):
    """A MuJoCo model that does not follow naosim's naming contract."""


def _id(mj: mujoco.MjModel, kind: mujoco.mjtObj, name: str) -> int:
    return int(mujoco.mj_name2id(mj, kind, name))


@attrs.frozen
class FootBinding:
    """One foot: its frame, the bodies whose contacts load it, and its 4 FSR cells."""

    frame_type: mujoco.mjtObj
    frame_id: int
    ankle_body: int
    bodies: frozenset[int]
    #: (4, 2) cell positions (x, y) in the ankle body frame: FL, FR, RL, RR.
    cells: np.ndarray = attrs.field(eq=False)

    #: (rear x, right y, front - rear, left - right) of the cell rectangle, m.
    cell_box: tuple[float, float, float, float] = attrs.field(init=False)

    @cell_box.default
    def _cell_box(self) -> tuple[float, float, float, float]:
        fl, fr, rl, rr = self.cells.tolist()
        rear_x, right_y = (rl[0] + rr[0]) / 2.0, (fr[1] + rr[1]) / 2.0
        front_x, left_y = (fl[0] + fr[0]) / 2.0, (fl[1] + rl[1]) / 2.0
        return rear_x, right_y, front_x - rear_x, left_y - right_y


@attrs.frozen
class ModelBinding:
    """Indices into one compiled model for everything naosim reads or drives."""

    #: per LoLA joint: qpos address, dof address, actuator id (-1 where the model lacks it).
    qpos_adr: np.ndarray = attrs.field(eq=False)
    dof_adr: np.ndarray = attrs.field(eq=False)
    actuator: np.ndarray = attrs.field(eq=False)
    #: actuators driven with the LHipYawPitch command besides its own (RHipYawPitch).
    mimic_actuators: tuple[int, ...]
    neutral: np.ndarray = attrs.field(eq=False)
    root_qpos: int
    root_dof: int
    torso_body: int
    imu_type: mujoco.mjtObj
    imu_id: int
    left_foot: FootBinding
    right_foot: FootBinding
    floor_geom: int
    ball_body: int
    ball_qpos: int
    sonar_sites: tuple[int, int]

    @property
    def present(self) -> np.ndarray:
        """Boolean mask of the LoLA joints the model has."""
        return self.qpos_adr >= 0


def _actuator_for(mj: mujoco.MjModel, joint_id: int, name: str) -> int:
    act = _id(mj, mujoco.mjtObj.mjOBJ_ACTUATOR, name)
    if act >= 0:
        return act
    for a in range(mj.nu):
        drives_joint = mj.actuator_trntype[a] == mujoco.mjtTrn.mjTRN_JOINT
        if drives_joint and mj.actuator_trnid[a, 0] == joint_id:
            return a
    return -1


def subtree(mj: mujoco.MjModel, root: int) -> frozenset[int]:
    """The body ``root`` and every body below it."""
    out = {root}
    for b in range(root + 1, mj.nbody):
        if int(mj.body_parentid[b]) in out:
            out.add(b)
    return frozenset(out)


def _foot(mj: mujoco.MjModel, side: str, ankle_joint: int) -> FootBinding:
    ankle_body = int(mj.jnt_bodyid[ankle_joint])
    sole = _id(mj, mujoco.mjtObj.mjOBJ_SITE, f"{side.lower()}_sole")
    if sole >= 0:
        frame_type, frame_id = mujoco.mjtObj.mjOBJ_SITE, sole
    else:
        frame_type, frame_id = mujoco.mjtObj.mjOBJ_BODY, ankle_body
    nao = load_nao_model()
    cells = []
    for cell in FSR_NAMES:
        if not cell.startswith(side):
            continue
        site_name = FSR_SITES[cell]
        site = _id(mj, mujoco.mjtObj.mjOBJ_SITE, site_name)
        if site >= 0 and int(mj.site_bodyid[site]) == ankle_body:
            cells.append(mj.site_pos[site][:2].copy())
        else:
            fixed = next(j for j in nao.joints.values() if j.child == site_name)
            cells.append(np.array(fixed.origin_xyz[:2]))
    return FootBinding(
        frame_type=frame_type,
        frame_id=frame_id,
        ankle_body=ankle_body,
        bodies=subtree(mj, ankle_body),
        cells=np.array(cells),
    )


def bind(mj: mujoco.MjModel) -> ModelBinding:
    """Resolve the naming contract (module docstring) on ``mj``.

    Raises:
        ModelContractError: no floating base, or leg joints/actuators missing (all listed).
    """
    nao = load_nao_model()
    n = len(JOINT_NAMES)
    qpos_adr = np.full(n, -1, dtype=np.int64)
    dof_adr = np.full(n, -1, dtype=np.int64)
    actuator = np.full(n, -1, dtype=np.int64)
    missing_joints, missing_actuators = [], []
    joint_ids = {}
    for i, name in enumerate(JOINT_NAMES):
        j = _id(mj, mujoco.mjtObj.mjOBJ_JOINT, name)
        if j < 0 or mj.jnt_type[j] != mujoco.mjtJoint.mjJNT_HINGE:
            if name in LEG_JOINTS:
                missing_joints.append(name)
            continue
        joint_ids[name] = j
        qpos_adr[i] = mj.jnt_qposadr[j]
        dof_adr[i] = mj.jnt_dofadr[j]
        actuator[i] = _actuator_for(mj, j, name)
        if actuator[i] < 0 and name in LEG_JOINTS:
            missing_actuators.append(name)
    if missing_joints or missing_actuators:
        parts = []
        if missing_joints:
            parts.append(f"leg joints missing: {', '.join(missing_joints)}")
        if missing_actuators:
            parts.append(f"leg joints without a position actuator: {', '.join(missing_actuators)}")
        raise ModelContractError("model refused, " + "; ".join(parts))

    free = [j for j in range(mj.njnt) if mj.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE]
    root = _id(mj, mujoco.mjtObj.mjOBJ_JOINT, "root")
    if root < 0 or mj.jnt_type[root] != mujoco.mjtJoint.mjJNT_FREE:
        robot_free = [j for j in free if mj.body(int(mj.jnt_bodyid[j])).name != "ball"]
        if not robot_free:
            raise ModelContractError("model refused: no floating base (free joint) for the torso")
        root = robot_free[0]
    torso = int(mj.jnt_bodyid[root])

    mimic = []
    rhyp = _id(mj, mujoco.mjtObj.mjOBJ_JOINT, "RHipYawPitch")
    if rhyp >= 0:
        act = _actuator_for(mj, rhyp, "RHipYawPitch")
        if act >= 0:
            mimic.append(act)

    imu = _id(mj, mujoco.mjtObj.mjOBJ_SITE, "ImuTorsoAccelerometer_frame")
    if imu < 0:
        imu = _id(mj, mujoco.mjtObj.mjOBJ_SITE, "imu")
    imu_type = mujoco.mjtObj.mjOBJ_SITE if imu >= 0 else mujoco.mjtObj.mjOBJ_BODY
    imu_id = imu if imu >= 0 else torso

    floor = _id(mj, mujoco.mjtObj.mjOBJ_GEOM, "floor")
    if floor < 0:
        planes = [g for g in range(mj.ngeom) if mj.geom_type[g] == mujoco.mjtGeom.mjGEOM_PLANE]
        floor = planes[0] if planes else -1
    ball = _id(mj, mujoco.mjtObj.mjOBJ_BODY, "ball")
    ball_qpos = -1
    if ball >= 0 and mj.body_jntnum[ball] == 1:
        ball_qpos = int(mj.jnt_qposadr[mj.body_jntadr[ball]])
    else:
        ball = -1

    return ModelBinding(
        qpos_adr=qpos_adr,
        dof_adr=dof_adr,
        actuator=actuator,
        mimic_actuators=tuple(mimic),
        neutral=nao.clamp(np.zeros(n)),
        root_qpos=int(mj.jnt_qposadr[root]),
        root_dof=int(mj.jnt_dofadr[root]),
        torso_body=torso,
        imu_type=imu_type,
        imu_id=imu_id,
        left_foot=_foot(mj, "L", joint_ids["LAnkleRoll"]),
        right_foot=_foot(mj, "R", joint_ids["RAnkleRoll"]),
        floor_geom=floor,
        ball_body=ball,
        ball_qpos=ball_qpos,
        sonar_sites=(
            _id(mj, mujoco.mjtObj.mjOBJ_SITE, "LSonar_frame"),
            _id(mj, mujoco.mjtObj.mjOBJ_SITE, "RSonar_frame"),
        ),
    )


def load_model_file(path: str | Path) -> mujoco.MjModel:
    """Compile a NAO MJCF from ``path`` (checked against the contract by :func:`bind`)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no MJCF model at {path}")
    try:
        return mujoco.MjModel.from_xml_path(str(path))
    except ValueError as exc:
        raise ModelContractError(f"{path}: MuJoCo could not load it: {exc}") from exc
