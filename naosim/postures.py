"""Whole-body postures the simulator starts from (LoLA-ordered joint angles, rad)."""

from __future__ import annotations

import functools

import numpy as np

from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from providers.model import load_nao_model
from providers.model.leg_ik import solve_legs
from providers.model.transforms import translation

#: Height of the hip pitch axis above the sole in the standing posture, m.
STAND_HIP_HEIGHT = 0.185


def _set(q: np.ndarray, **angles: float) -> np.ndarray:
    for name, value in angles.items():
        q[JOINT_INDEX[name]] = value
    return q


def _arms_down(q: np.ndarray) -> np.ndarray:
    """Arms hanging beside the torso, elbows slightly bent (clear of the hips)."""
    return _set(
        q,
        LShoulderPitch=1.55,
        LShoulderRoll=0.12,
        LElbowYaw=-1.2,
        LElbowRoll=-0.45,
        RShoulderPitch=1.55,
        RShoulderRoll=-0.12,
        RElbowYaw=1.2,
        RElbowRoll=0.45,
    )


def standing(hip_height: float = STAND_HIP_HEIGHT) -> np.ndarray:
    """A NAO standing on both feet, knees bent, torso upright, arms down.

    The legs come from the project's leg IK: both soles flat, ``hip_height`` metres below the
    hip pitch axes and straight under the hips. Returns a new array each call.
    """
    return _standing(hip_height).copy()


@functools.lru_cache(maxsize=16)
def _standing(hip_height: float) -> np.ndarray:
    # Cached: scenarios and tests ask for it every cycle, and the IK is not free.
    model = load_nao_model()
    hip = model.joints["LHipYawPitch"].origin_xyz
    z = hip[2] - hip_height
    left = translation(0.0, hip[1], z)
    right = translation(0.0, -hip[1], z)
    solution = solve_legs(left, right)
    if not solution.reachable:
        raise ValueError(f"hip height {hip_height} m is out of the legs' reach")
    q = solution.apply(np.zeros(NUM_JOINTS))
    return model.clamp(_arms_down(q))


def lying() -> np.ndarray:
    """Legs straight, arms along the body (for lying on the front or the back)."""
    q = np.zeros(NUM_JOINTS)
    return load_nao_model().clamp(_set(q, LShoulderPitch=1.5, RShoulderPitch=1.5))


def sitting() -> np.ndarray:
    """Sitting on the floor: hips fully flexed, legs forward, arms braced behind."""
    q = np.zeros(NUM_JOINTS)
    _set(
        q,
        LHipPitch=-1.5,
        RHipPitch=-1.5,
        LKneePitch=0.3,
        RKneePitch=0.3,
        LAnklePitch=-0.3,
        RAnklePitch=-0.3,
        LShoulderPitch=2.0,
        RShoulderPitch=2.0,
        LShoulderRoll=0.25,
        RShoulderRoll=-0.25,
    )
    return load_nao_model().clamp(q)
