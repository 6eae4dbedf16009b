"""The simulated NAO as a MuJoCo model, built in code from the project's NAO model data.

Naming contract (what the rest of naosim, and any ``--model`` file, relies on):

- a body per URDF link, named like the link (``torso``, ``LThigh``, ``l_ankle``, ...);
- a hinge per revolute URDF joint, named like the joint, including ``RHipYawPitch``, which an
  equality constraint ties to ``LHipYawPitch`` (one motor drives both on the real robot);
- a free joint ``root`` on the torso;
- a position actuator per hinge, named like its joint (its gain is rescaled every cycle by the
  commanded stiffness, see ``naosim.servo``);
- a site per fixed URDF frame, named like the frame's link (``l_sole``, ``r_sole``, ``gaze``,
  ``ImuTorsoAccelerometer_frame``, ``LFsrFL_frame``, ...);
- a plane geom ``floor`` and, when asked for, a free body ``ball`` with a sphere geom ``ball``.
"""

from __future__ import annotations

import mujoco
import numpy as np
from scipy.spatial.transform import Rotation

from providers.model import JointSpec, NaoModel, load_nao_model

# Figures of the public HULKs NAO V6 MuJoCo model (reference/lola.md).
SERVO_KP = 21.1  # N m / rad at stiffness 1
JOINT_DAMPING = 1.084  # N m s / rad
JOINT_ARMATURE = 0.045  # kg m^2
JOINT_FRICTIONLOSS = 0.03  # N m
TIMESTEP = 0.003  # s; four steps per LoLA cycle

#: Peak torque of the leg servos (hips, knees, ankles), N m. The NAO URDF's efforts (3.02 N m
#: for the pitch joints, 3.35 for the rolls) are near the motors' nominal, continuous torque;
#: with the 1.084 damping they made a leg joint that could not pass 2.8 rad/s, where a NAO's
#: reach 6.4 (pitch) and 4.2 rad/s (roll). Aldebaran's motor table (NAO H25 "Motors",
#: RE-Max 24: stall 59.5 mN m, 8,000 rpm; 130.85:1 pitch, 201.3:1 roll and hip yaw-pitch) gives
#: 7.78 and 11.97 N m at stall before gear losses. 5.0 N m, the public HULKs NAO model's force
#: range, keeps naosim's torque-speed line (5.0 - 1.084 w) under the pitch motors' own for any
#: gear efficiency from 0.65 up, and under the rolls' up to 3.5 rad/s (near their 4.16 rad/s
#: limit, where both give under 1 N m). docs/architecture.md "naosim" has the figures.
LEG_PEAK_TORQUE = 5.0
_LEG_JOINT_PARTS = ("Hip", "Knee", "Ankle")
# The HULKs model integrates with RK4; at the same 3 ms step RK4 costs 3.7x the time of
# implicitfast here (316 vs 86 us per step, measured with contacts), which alone would cap the
# simulator below 10x real time. implicitfast treats the joint damping implicitly, so it stays
# stable at 3 ms with these gains.
INTEGRATOR = mujoco.mjtIntegrator.mjINT_IMPLICITFAST

# MuJoCo rejects bodies whose mass or inertia is too small to integrate stably; the URDF's
# placeholder links (grippers, 2 mg) are raised to these floors, which moves the total mass by
# well under a gram.
MIN_MASS = 1e-3
MIN_INERTIA = 1e-7

#: Floor friction: the SPL field is artificial turf; a NAO sole on it behaves like ~1.0.
FLOOR_FRICTION = 1.0

#: The SPL ball: "a soft foam ball", 100 mm across, 44 g (SPL rules, "Ball"; RoboCup-SPL/Rules
#: rules/setup_environment.tex). Solid PU foam, so its moment of inertia is a solid sphere's,
#: ``BALL_INERTIA_SHARE`` m r^2 (a hollow shell's would be 2/3).
BALL_RADIUS = 0.05
BALL_MASS = 0.044
BALL_INERTIA_SHARE = 2.0 / 5.0

# Collision bitmasks: robot parts touch the floor, the ball and each other (bit 2), except the
# pairs in SELF_COLLISION_EXCLUDED.
_ROBOT_CONTYPE, _ROBOT_CONAFFINITY = 1 | 2, 2
_FOOT_CONTYPE, _FOOT_CONAFFINITY = _ROBOT_CONTYPE, _ROBOT_CONAFFINITY
_WORLD_CONTYPE, _WORLD_CONAFFINITY = 1, 1

#: Links whose shapes never touch each other. MuJoCo already skips a body and its parent; these
#: pairs meet across a joint's small intermediate links, where the primitive shapes overlap or
#: nearly touch in every posture the joint limits allow, and the limits, not a contact, are what
#: stops the real joint: the neck (torso and head), the hips (torso and thighs), the elbows
#: (upper and lower arm) and the shoulders (the upper arm's capsule reaches into the torso box
#: at the shoulder roll's inner limit, where a NAO's arm rests against its side).
SELF_COLLISION_EXCLUDED = (
    ("torso", "Head"),
    ("torso", "LThigh"),
    ("torso", "RThigh"),
    ("torso", "LBicep"),
    ("torso", "RBicep"),
    ("LBicep", "LForeArm"),
    ("RBicep", "RForeArm"),
)
#: Geom group of the robot's own shapes (sonar rays skip it).
ROBOT_GEOM_GROUP = 1

_RGBA_ROBOT = (0.85, 0.85, 0.88, 1.0)
_RGBA_FOOT = (0.3, 0.3, 0.35, 1.0)


def peak_torque(joint: JointSpec) -> float:
    """The servo's torque limit for ``joint``, N m (legs: :data:`LEG_PEAK_TORQUE`)."""
    if any(part in joint.name for part in _LEG_JOINT_PARTS):
        return LEG_PEAK_TORQUE
    return float(joint.effort)


def _quat(rpy: tuple[float, float, float]) -> list[float]:
    """URDF roll-pitch-yaw (fixed axes x, y, z) as a MuJoCo quaternion (w, x, y, z)."""
    x, y, z, w = Rotation.from_euler("xyz", rpy).as_quat()
    return [w, x, y, z]


def _set_inertial(body: mujoco.MjsBody, model: NaoModel, link: str) -> None:
    spec = model.links.get(link)
    if spec is None or spec.mass < MIN_MASS:
        body.mass = MIN_MASS
        body.ipos = list(spec.com) if spec is not None else [0.0, 0.0, 0.0]
        body.inertia = [MIN_INERTIA] * 3
        body.explicitinertial = True
        return
    body.mass = spec.mass
    body.ipos = list(spec.com)
    i = spec.inertia
    body.fullinertia = [i[0, 0], i[1, 1], i[2, 2], i[0, 1], i[0, 2], i[1, 2]]
    body.explicitinertial = True


def _children(model: NaoModel) -> dict[str, list[JointSpec]]:
    out: dict[str, list[JointSpec]] = {}
    for joint in model.joints.values():
        out.setdefault(joint.parent, []).append(joint)
    return out


def _add_collision_shapes(
    body: mujoco.MjsBody, link: str, model: NaoModel, *, collisions: bool
) -> None:
    """Primitive shapes sized from the NAO's outline, so a fall lands like a fall."""
    foot = model.foot

    def geom(kind, size, pos=(0, 0, 0), fromto=None, is_foot=False, name=""):
        g = body.add_geom(name=name)
        g.type = kind
        g.size = list(size) + [0.0] * (3 - len(size))
        if fromto is not None:
            g.fromto = list(fromto)
        else:
            g.pos = list(pos)
        g.group = ROBOT_GEOM_GROUP
        g.rgba = list(_RGBA_FOOT if is_foot else _RGBA_ROBOT)
        if collisions:
            g.contype = _FOOT_CONTYPE if is_foot else _ROBOT_CONTYPE
            g.conaffinity = _FOOT_CONAFFINITY if is_foot else _ROBOT_CONAFFINITY
        else:
            g.contype = g.conaffinity = 0
        # Mass comes from the URDF inertials, never from these shapes.
        g.mass = 0.0
        return g

    box, capsule, sphere = (
        mujoco.mjtGeom.mjGEOM_BOX,
        mujoco.mjtGeom.mjGEOM_CAPSULE,
        mujoco.mjtGeom.mjGEOM_SPHERE,
    )
    side = 1.0 if link.startswith(("L", "l_")) else -1.0
    if link == "torso":
        geom(box, (0.045, 0.065, 0.085), pos=(-0.01, 0.0, 0.035), name="torso_geom")
    elif link == "Head":
        geom(sphere, (0.065,), pos=(-0.005, 0.0, 0.058), name="head_geom")
    elif link in ("LThigh", "RThigh"):
        geom(capsule, (0.034,), fromto=(0, 0, -0.015, 0, 0, -0.085))
    elif link in ("LTibia", "RTibia"):
        geom(capsule, (0.032,), fromto=(0, 0, -0.015, 0, 0, -0.088))
    elif link in ("l_ankle", "r_ankle"):
        thickness = 0.012
        length = foot.front + foot.rear
        width = foot.inner + foot.outer
        centre_x = (foot.front - foot.rear) / 2.0
        centre_y = side * (foot.outer - foot.inner) / 2.0
        centre_z = -foot.sole_height + thickness / 2.0
        geom(
            box,
            (length / 2.0, width / 2.0, thickness / 2.0),
            pos=(centre_x, centre_y, centre_z),
            is_foot=True,
            name=f"{link[0]}_foot",
        )
    elif link in ("LBicep", "RBicep"):
        geom(capsule, (0.028,), fromto=(0.01, 0, 0, 0.09, side * 0.01, 0))
    elif link in ("LForeArm", "RForeArm"):
        geom(capsule, (0.025,), fromto=(0.0, 0, 0, 0.05, 0, 0))
    elif link in ("l_wrist", "r_wrist"):
        geom(capsule, (0.022,), fromto=(0.0, 0, 0, 0.06, 0, -0.01))


def build_spec(
    model: NaoModel | None = None, *, ball: bool = False, collisions: bool = True
) -> mujoco.MjSpec:
    """The NAO (and a floor, and optionally an SPL ball) as an editable ``mujoco.MjSpec``.

    ``collisions=False`` keeps every shape but lets nothing touch anything (a kinematic
    check, or a robot hanging in the air); the floor is still there to look at.
    """
    model = model or load_nao_model()
    spec = mujoco.MjSpec()
    spec.modelname = "nao"
    spec.compiler.inertiafromgeom = mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_FALSE
    spec.compiler.degree = False
    spec.option.timestep = TIMESTEP
    spec.option.integrator = INTEGRATOR
    spec.option.cone = mujoco.mjtCone.mjCONE_PYRAMIDAL

    floor = spec.worldbody.add_geom(name="floor")
    floor.type = mujoco.mjtGeom.mjGEOM_PLANE
    floor.size = [0.0, 0.0, 0.05]
    floor.friction = [FLOOR_FRICTION, 0.005, 0.0001]
    # The floor's friction wins every contact, so set_floor_friction means what it says.
    floor.priority = 1
    floor.contype, floor.conaffinity = _WORLD_CONTYPE, _WORLD_CONAFFINITY
    floor.rgba = [0.2, 0.55, 0.25, 1.0]
    light = spec.worldbody.add_light()
    light.pos = [0.0, 0.0, 3.0]
    light.dir = [0.0, 0.0, -1.0]

    children = _children(model)
    torso = spec.worldbody.add_body(name=model.root)
    torso.pos = [0.0, 0.0, 0.4]
    torso.add_freejoint(name="root")
    _set_inertial(torso, model, model.root)
    _add_collision_shapes(torso, model.root, model, collisions=collisions)

    hinges: list[JointSpec] = []
    stack = [(torso, model.root)]
    while stack:
        parent_body, parent_link = stack.pop()
        for joint in children.get(parent_link, []):
            if joint.type == "fixed":
                site = parent_body.add_site(name=joint.child)
                site.pos = list(joint.origin_xyz)
                site.quat = _quat(joint.origin_rpy)
                site.size = [0.005, 0.0, 0.0]
                site.group = 3
                continue
            body = parent_body.add_body(name=joint.child)
            body.pos = list(joint.origin_xyz)
            body.quat = _quat(joint.origin_rpy)
            _set_inertial(body, model, joint.child)
            hinge = body.add_joint(name=joint.name)
            hinge.type = mujoco.mjtJoint.mjJNT_HINGE
            hinge.axis = list(joint.axis)
            hinge.range = [joint.lower, joint.upper]
            hinge.limited = mujoco.mjtLimited.mjLIMITED_TRUE
            # MuJoCo 4 takes damping as polynomial coefficients; the first is the linear one.
            hinge.damping = [JOINT_DAMPING, 0.0, 0.0]
            hinge.armature = JOINT_ARMATURE
            hinge.frictionloss = JOINT_FRICTIONLOSS
            hinges.append(joint)
            _add_collision_shapes(body, joint.child, model, collisions=collisions)
            stack.append((body, joint.child))

    if collisions:
        for first, second in SELF_COLLISION_EXCLUDED:
            exclude = spec.add_exclude()
            exclude.bodyname1, exclude.bodyname2 = first, second

    for joint in hinges:
        if joint.mimic is not None:
            tie = spec.add_equality(name=f"{joint.name}_mimic")
            tie.type = mujoco.mjtEq.mjEQ_JOINT
            tie.objtype = mujoco.mjtObj.mjOBJ_JOINT
            tie.name1 = joint.name
            tie.name2 = joint.mimic
            tie.data[:5] = [0.0, joint.mimic_multiplier, 0.0, 0.0, 0.0]

    for joint in sorted(hinges, key=lambda j: j.name):
        act = spec.add_actuator(name=joint.name, target=joint.name)
        act.trntype = mujoco.mjtTrn.mjTRN_JOINT
        act.set_to_position(kp=SERVO_KP)
        act.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
        effort = peak_torque(joint)
        act.forcerange = [-effort, effort]
        act.ctrllimited = mujoco.mjtLimited.mjLIMITED_FALSE

    if ball:
        add_ball(spec)
    return spec


def add_ball(spec: mujoco.MjSpec, pos: tuple[float, float, float] = (1.0, 0.0, BALL_RADIUS)):
    """Add an SPL ball (0.10 m, 44 g, free body ``ball``) to ``spec``."""
    body = spec.worldbody.add_body(name="ball")
    body.pos = list(pos)
    body.add_freejoint(name="ball_root")
    g = body.add_geom(name="ball")
    g.type = mujoco.mjtGeom.mjGEOM_SPHERE
    g.size = [BALL_RADIUS, 0.0, 0.0]
    g.mass = BALL_MASS
    body.mass = BALL_MASS
    # Explicitly at the centre: left unset, MjSpec 4.0 put the ball's inertial frame at the
    # body's position a second time (1 m off), which spun the ball up from nothing.
    body.ipos = [0.0, 0.0, 0.0]
    body.iquat = [1.0, 0.0, 0.0, 0.0]
    # Solid foam (the SPL rules' "soft foam ball"): I = 2/5 m r^2.
    body.inertia = [BALL_INERTIA_SHARE * BALL_MASS * BALL_RADIUS**2] * 3
    body.explicitinertial = True
    g.contype, g.conaffinity = _WORLD_CONTYPE, _WORLD_CONAFFINITY
    # Against the robot. The floor's friction wins the floor's contact (priority 1) and has no
    # rolling resistance: the turf's is a force naosim applies (naosim/turf.py).
    g.friction = [0.6, 0.005, 0.0005]
    g.condim = 6
    g.rgba = [0.95, 0.95, 0.95, 1.0]
    return body


def build_model(
    model: NaoModel | None = None, *, ball: bool = False, collisions: bool = True
) -> mujoco.MjModel:
    """The compiled NAO ``mujoco.MjModel`` (see :func:`build_spec`)."""
    return build_spec(model, ball=ball, collisions=collisions).compile()


def neutral_qpos(mj: mujoco.MjModel) -> np.ndarray:
    """Model's reference configuration (``qpos0``) as a fresh array."""
    return np.array(mj.qpos0, dtype=np.float64)
