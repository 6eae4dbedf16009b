"""``motiond bench kinematics``: what the robot model costs per call.

- ``fk_us``: every link pose (44 frames) from the 25 LoLA angles;
- ``com_us``: the whole-body centre of mass;
- ``leg_ik_us``: both legs' angles for two sole poses (one ``solve_legs`` call, the walk
  engine's per-cycle call), on reachable targets taken from a walking-like posture;
- ``leg_ik_unreachable_us``: the same when a joint limit binds and the refinement runs;
- ``leg_ik_unreachable_norefine_us``: that target with ``refine=False`` (clamped closed form);
- ``head_ik_us``: head angles to look at a point with the top camera.

Each figure is the median over many short samples of 10 calls (~0.1-1 ms each), so a sample
that the OS pre-empts for another process is an outlier the median ignores, rather than a
slowdown spread over every sample; cache and frequency effects of a busy machine still count.
"""

from __future__ import annotations

import numpy as np

from motiond.bench.timing import BenchResult, Goal, median_time


def run(quick: bool) -> BenchResult:
    """Time forward kinematics, centre of mass and the two IKs."""
    from lola_io.joints import JOINT_INDEX, NUM_JOINTS
    from providers.model import nao_head_ik, nao_kinematics, nao_leg_ik
    from providers.model.transforms import pose_from_xyz_rpy

    kin, legs, head = nao_kinematics(), nao_leg_ik(), nao_head_ik()
    q = np.zeros(NUM_JOINTS)
    for name, value in {
        "LHipYawPitch": -0.1,
        "LHipPitch": -0.5,
        "LKneePitch": 1.0,
        "LAnklePitch": -0.5,
        "RHipRoll": 0.05,
        "RHipPitch": -0.4,
        "RKneePitch": 0.9,
        "RAnklePitch": -0.45,
        "LShoulderPitch": 1.4,
        "RShoulderPitch": 1.4,
        "LElbowRoll": -0.4,
        "RElbowRoll": 0.4,
    }.items():
        q[JOINT_INDEX[name]] = value
    left, right = kin.sole_poses(q)
    stretched = left @ pose_from_xyz_rpy(0.0, 0.0, -0.1, roll=1.0)
    ball = np.array([0.6, 0.2, -0.3])

    repeat, number = (101, 10) if quick else (2001, 10)
    fk = median_time(lambda: kin.link_poses(q), repeat=repeat, number=number)
    com = median_time(lambda: kin.center_of_mass(q), repeat=repeat, number=number)
    leg = median_time(lambda: legs.solve(left, right), repeat=repeat, number=number)
    far = median_time(lambda: legs.solve(stretched, right), repeat=max(5, repeat // 50), number=1)
    clamped = median_time(
        lambda: legs.solve(stretched, right, refine=False), repeat=repeat, number=number
    )
    look = median_time(lambda: head.look_at(ball), repeat=repeat, number=number)
    return BenchResult(
        name="kinematics",
        figures={
            "fk_us": fk * 1e6,
            "com_us": com * 1e6,
            "leg_ik_us": leg * 1e6,
            "leg_ik_unreachable_us": far * 1e6,
            "leg_ik_unreachable_norefine_us": clamped * 1e6,
            "head_ik_us": look * 1e6,
        },
        units={
            "fk_us": "us",
            "com_us": "us",
            "leg_ik_us": "us",
            "leg_ik_unreachable_us": "us",
            "leg_ik_unreachable_norefine_us": "us",
            "head_ik_us": "us",
        },
        goals={"leg_ik_us": Goal(50.0), "com_us": Goal(50.0)},
        notes=("median of 10-call samples, one call each, CPython, this process",),
    )
