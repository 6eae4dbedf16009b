"""Outside hands on the robot, not robot physics: a referee's grip on the torso.

A referee lifts a NAO by its torso, holds it in the air and puts it down. The hand here is a
stiff spring and damper pulling the robot's centre of mass towards a point and turning the
torso's z axis back to vertical, applied as an outside force on the torso once per cycle, so
the limbs hang from it as they would from a real grip.
"""

from __future__ import annotations

import math

import mujoco
import numpy as np

#: The grip's natural frequency (Hz), well damped; its gains scale with the robot's mass so
#: any NAO model is held the same way.
GRIP_HZ = 5.0
#: Torque (N m per unit of tilt, N m s/rad) that keeps the held torso upright and unspun.
UPRIGHT_GAIN = 20.0
SPIN_DAMPING = 2.0


def hold_by_hand(
    model: mujoco.MjModel, data: mujoco.MjData, torso: int, mass: float, hand: np.ndarray
) -> None:
    """Set the torso's outside force and torque for a grip holding the robot's centre of mass
    (``mass`` kg, the subtree of body ``torso``) at the world point ``hand``."""
    omega = 2 * math.pi * GRIP_HZ
    k, c = mass * omega**2, 2.0 * mass * omega
    velocity = np.empty(6)
    mujoco.mj_objectVelocity(
        model, data, mujoco.mjtObj.mjOBJ_BODY, torso, velocity, 0
    )  # world frame: rotational then linear
    force = k * (hand - data.subtree_com[torso]) - c * velocity[3:]
    force -= mass * model.opt.gravity  # the hand carries the robot's weight
    rot = data.xmat[torso].reshape(3, 3)
    upright = np.cross(rot[:, 2], [0.0, 0.0, 1.0])
    data.xfrc_applied[torso, :3] = force
    data.xfrc_applied[torso, 3:] = UPRIGHT_GAIN * upright - SPIN_DAMPING * velocity[:3]
