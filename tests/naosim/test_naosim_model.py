"""The MuJoCo NAO built from the project's model data."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

from lola_io.joints import JOINT_INDEX, JOINT_NAMES, LEFT_LEG_JOINTS, RIGHT_LEG_JOINTS
from naosim.model_builder import (
    BALL_MASS,
    JOINT_DAMPING,
    LEG_PEAK_TORQUE,
    MIN_MASS,
    build_model,
    build_spec,
)
from providers.model import load_nao_model
from skills.script_files import shipped_script


def _names(m: mujoco.MjModel, kind: mujoco.mjtObj, count: int) -> set[str]:
    return {mujoco.mj_id2name(m, kind, i) for i in range(count)}


def test_every_urdf_link_joint_and_frame_is_named_like_the_urdf():
    nao = load_nao_model()
    m = build_model()
    bodies = _names(m, mujoco.mjtObj.mjOBJ_BODY, m.nbody)
    joints = _names(m, mujoco.mjtObj.mjOBJ_JOINT, m.njnt)
    sites = _names(m, mujoco.mjtObj.mjOBJ_SITE, m.nsite)
    actuators = _names(m, mujoco.mjtObj.mjOBJ_ACTUATOR, m.nu)
    revolute = [j for j in nao.joints.values() if j.type == "revolute"]
    fixed = [j for j in nao.joints.values() if j.type == "fixed"]
    assert {j.child for j in revolute} | {nao.root} <= bodies
    assert {j.name for j in revolute} | {"root"} == joints
    assert {j.child for j in fixed} == sites
    assert set(JOINT_NAMES) | {"RHipYawPitch"} == actuators
    for name in ("l_sole", "r_sole", "gaze", "ImuTorsoAccelerometer_frame", "LFsrFL_frame"):
        assert name in sites


def test_mass_matches_the_model_data_up_to_the_placeholder_clamp():
    nao = load_nao_model()
    m = build_model()
    clamped = sum(
        MIN_MASS - link.mass
        for name, link in nao.links.items()
        if link.mass < MIN_MASS and name in _names(m, mujoco.mjtObj.mjOBJ_BODY, m.nbody)
    )
    robot = m.body_subtreemass[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, "torso")]
    moving = sum(
        link.mass
        for name, link in nao.links.items()
        if name in _names(m, mujoco.mjtObj.mjOBJ_BODY, m.nbody)
    )
    assert robot == pytest.approx(moving + clamped, abs=1e-9)
    # The fixed frames' grams are all that is left out.
    assert robot == pytest.approx(nao.total_mass, abs=0.005)


LEG_JOINT_NAMES = frozenset(LEFT_LEG_JOINTS + RIGHT_LEG_JOINTS)


def test_leg_servos_stay_under_aldebarans_motor_line():
    """The leg torque-speed line is no stronger than a NAO leg motor with 65 % gear efficiency.

    Aldebaran's table (RE-Max 24): stall 7.78 N m and 6.40 rad/s no-load through 130.85:1
    (pitch); 11.97 N m and 4.16 rad/s through 201.3:1 (rolls, hip yaw-pitch), before gear losses.
    """
    for stall, no_load, up_to in ((7.78, 6.40, 6.40), (11.97, 4.16, 3.5)):
        speed = np.linspace(0.0, up_to, 50)
        motor = 0.65 * stall * (1.0 - speed / no_load)
        sim = np.maximum(LEG_PEAK_TORQUE - JOINT_DAMPING * speed, 0.0)
        assert np.all(sim <= motor + 1e-9)


def test_joint_limits_axes_and_servo_figures_come_from_the_model():
    nao = load_nao_model()
    m = build_model()
    for name in JOINT_NAMES:
        spec = nao.joints[name]
        j = m.joint(name)
        assert j.range.tolist() == pytest.approx([spec.lower, spec.upper])
        assert m.jnt_axis[j.id] == pytest.approx(np.array(spec.axis) / np.linalg.norm(spec.axis))
        act = m.actuator(name)
        effort = LEG_PEAK_TORQUE if name in LEG_JOINT_NAMES else spec.effort
        assert act.forcerange.tolist() == pytest.approx([-effort, effort])
        assert m.dof_damping[j.dofadr[0]] == pytest.approx(1.084)
        assert m.dof_armature[j.dofadr[0]] == pytest.approx(0.045)


def test_hip_yaw_pitch_joints_are_tied():
    m = build_model(collisions=False)
    assert m.neq == 1
    d = mujoco.MjData(m)
    # Drive only the left one (right motor off); the right must follow through the constraint.
    right_motor = m.actuator("RHipYawPitch").id
    m.actuator_gainprm[right_motor, 0] = m.actuator_biasprm[right_motor, 1] = 0.0
    d.ctrl[m.actuator("LHipYawPitch").id] = -0.4
    m.opt.gravity[:] = 0.0
    for _ in range(300):
        mujoco.mj_step(m, d)
    left = d.qpos[m.joint("LHipYawPitch").qposadr[0]]
    right = d.qpos[m.joint("RHipYawPitch").qposadr[0]]
    assert left < -0.2
    assert right == pytest.approx(left, abs=0.01)


def test_ball_is_an_spl_ball():
    m = build_model(ball=True)
    ball = m.body("ball")
    assert ball.mass[0] == pytest.approx(BALL_MASS)
    assert m.geom("ball").size[0] == pytest.approx(0.05)
    # Solid foam, not a hollow shell: a kicked ball keeps 5/7 of its speed once it rolls, not 3/5.
    assert ball.inertia == pytest.approx([0.4 * BALL_MASS * 0.05**2] * 3)


def test_collisions_off_means_no_contact_at_all():
    m = build_model(collisions=False)
    d = mujoco.MjData(m)
    d.qpos[2] = 0.1  # torso well into the floor
    mujoco.mj_forward(m, d)
    assert d.ncon == 0
    spec = build_spec()
    assert spec.compile().nbody == m.nbody


def _self_contacts(pose: dict[str, float]) -> set[tuple[str, str]]:
    """The robot's own shapes in contact at ``pose`` (joint angles over StandInit's), held in
    the air."""
    m = build_model()
    d = mujoco.MjData(m)
    d.qpos[2] = 1.0
    stand = shipped_script("StandInit").final_pose().position
    for name, i in JOINT_INDEX.items():
        d.qpos[m.joint(name).qposadr[0]] = pose.get(name, stand[i])
    d.qpos[m.joint("RHipYawPitch").qposadr[0]] = pose.get(
        "LHipYawPitch", stand[JOINT_INDEX["LHipYawPitch"]]
    )
    mujoco.mj_forward(m, d)
    body = m.geom_bodyid
    names = {
        tuple(sorted((m.body(body[c.geom[0]]).name, m.body(body[c.geom[1]]).name)))
        for c in d.contact[: d.ncon]
    }
    return names


def test_the_robot_s_limbs_collide_with_each_other_and_the_torso():
    # StandInit touches nothing of itself (the neck, hips, shoulders and elbows are excluded).
    assert _self_contacts({}) == set()
    # Legs crossed at the hip rolls' inner limits meet each other.
    crossed = _self_contacts({"LHipRoll": -0.379, "RHipRoll": 0.379})
    assert ("LThigh", "RThigh") in crossed
    # A hanging arm whose elbow bends sideways (elbow yaw 0) runs its forearm into the torso.
    assert ("RForeArm", "torso") in _self_contacts(
        {"RShoulderPitch": 1.5, "RShoulderRoll": 0.0, "RElbowYaw": 0.0, "RElbowRoll": 1.54}
    )
