"""IK tasks and providers: leg joints from sole poses, head joints from a point to look at.

- ``LegsIK(left_sole, right_sole)`` Needs ``Legs`` and solves both legs together with
  :func:`providers.model.solve_legs`, sharing the one hip yaw-pitch motor (``left_weight``
  says whose request wins). This is what a walk should emit.
- ``LeftLegIK(sole)`` Needs ``LeftLeg``, which owns LHipYawPitch: the left foot gets its exact
  solution, and because RHipYawPitch follows the same motor the right foot's yaw may change.
- ``RightLegIK(sole)`` Needs ``RightLeg``, which has no hip yaw-pitch of its own: the right
  leg is solved with the hip yaw-pitch fixed at its current command, so the sole position and
  normal are met and only the foot's yaw gives way if the motor disagrees.
- ``HeadIK(point)`` (also named ``LookAt``) Needs ``Head`` and aims the camera at ``point``
  (torso frame, m) with :func:`providers.model.look_at`.

Poses are 4x4 homogeneous matrices in the torso frame (what ``NaoKinematics.sole_poses``
returns). Each provider emits one group command and is Done when the group is; re-emitting the
task every cycle (a walk) takes the Director's fast path.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

from director import Context, Director, RunReason
from lola_io.joints import JOINT_INDEX, LEFT_LEG_JOINTS, RIGHT_LEG_JOINTS
from providers.actuation.servo_table import ServoTable
from providers.actuation.tasks import (
    Head,
    JointCommand,
    LeftLeg,
    Legs,
    RightLeg,
    _interpolation,
    check_duration,
    check_stiffness,
)
from providers.model import look_at, nao_leg_ik, solve_legs
from providers.model.head_ik import CAMERAS

_SUBTASK_DONE = RunReason.SUBTASK_DONE
_HYP = JOINT_INDEX["LHipYawPitch"]
_ORTHONORMAL_TOLERANCE = 1e-6


def _pose(value: Any) -> np.ndarray:
    pose = np.array(value, dtype=np.float64)
    if pose.shape != (4, 4):
        raise ValueError(f"a sole pose must be a 4x4 matrix, got shape {pose.shape}")
    # Plain float math: a walk builds one or two of these every cycle, and numpy's allclose
    # costs tens of microseconds where these few products cost a couple.
    r0, r1, r2, last = pose.tolist()
    if not math.isfinite(sum(r0) + sum(r1) + sum(r2) + sum(last)):
        raise ValueError(f"a sole pose must be finite, got {pose.tolist()}")
    if last != [0.0, 0.0, 0.0, 1.0]:
        raise ValueError(f"a pose's last row must be [0, 0, 0, 1], got {last}")
    rows = (r0[:3], r1[:3], r2[:3])
    for i, a in enumerate(rows):
        for k, b in enumerate(rows):
            dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
            if abs(dot - (i == k)) > _ORTHONORMAL_TOLERANCE:
                raise ValueError(f"a pose's rotation must be orthonormal, got {rows}")
    a, b, c = rows
    cross = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
    if cross[0] * c[0] + cross[1] * c[1] + cross[2] * c[2] < 0.0:
        raise ValueError(f"a pose's rotation must not be a reflection, got {rows}")
    pose.flags.writeable = False
    return pose


def _point(value: Any) -> np.ndarray:
    point = np.array(value, dtype=np.float64)
    if point.shape != (3,) or not np.all(np.isfinite(point)):
        raise ValueError(f"a point must be 3 finite coordinates (m), got {value!r}")
    point.flags.writeable = False
    return point


def _left_weight(value: Any) -> float:
    value = float(value)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"left_weight must be within [0, 1], got {value!r}")
    return value


def _camera(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value not in CAMERAS:
        raise ValueError(f"camera must be one of {sorted(CAMERAS)}, got {value!r}")


_ARRAY_EQ = attrs.cmp_using(eq=np.array_equal)


def _pose_field() -> Any:
    return attrs.field(converter=_pose, eq=_ARRAY_EQ)


@attrs.frozen
class _OneLegIK:
    """The fields of a one-leg IK task (each leg is its own task type, so its own group)."""

    sole: np.ndarray = _pose_field()
    stiffness: float = attrs.field(default=1.0, converter=check_stiffness, kw_only=True)
    duration: float = attrs.field(default=0.0, converter=check_duration, kw_only=True)
    interpolation: str = attrs.field(default="minimum_jerk", validator=_interpolation, kw_only=True)


@attrs.frozen
class LeftLegIK(_OneLegIK):
    """Put the left sole at ``sole`` (4x4, torso frame) in ``duration`` s."""


@attrs.frozen
class RightLegIK(_OneLegIK):
    """Put the right sole at ``sole`` (4x4, torso frame), hip yaw-pitch as commanded."""


@attrs.frozen
class LegsIK:
    """Put both soles at their poses (4x4, torso frame), sharing the hip yaw-pitch."""

    left_sole: np.ndarray = _pose_field()
    right_sole: np.ndarray = _pose_field()
    stiffness: float = attrs.field(default=1.0, converter=check_stiffness, kw_only=True)
    duration: float = attrs.field(default=0.0, converter=check_duration, kw_only=True)
    interpolation: str = attrs.field(default="minimum_jerk", validator=_interpolation, kw_only=True)
    left_weight: float = attrs.field(default=0.5, converter=_left_weight, kw_only=True)


@attrs.frozen
class HeadIK:
    """Aim ``camera`` ("top", "bottom", "head") at ``point`` (torso frame, m)."""

    point: np.ndarray = attrs.field(converter=_point, eq=_ARRAY_EQ)
    stiffness: float = attrs.field(default=1.0, converter=check_stiffness, kw_only=True)
    duration: float = attrs.field(default=0.0, converter=check_duration, kw_only=True)
    interpolation: str = attrs.field(default="minimum_jerk", validator=_interpolation, kw_only=True)
    camera: str = attrs.field(default="top", validator=_camera, kw_only=True)


#: Looking at a point is the head's IK; one type, so the two names arbitrate as one group.
LookAt = HeadIK


def solve_right_leg(sole: np.ndarray, hip_yaw_pitch: float) -> tuple[float, ...]:
    """The right leg's six angles (RHipYawPitch first) for ``sole`` with the shared hip
    yaw-pitch held at ``hip_yaw_pitch`` (the left leg owns the motor)."""
    angles, _ = nao_leg_ik().solve_one("right", sole, hip_yaw_pitch=hip_yaw_pitch, refine=False)
    return angles


def _command(names: tuple[str, ...], angles: Any, task: Any) -> JointCommand:
    return JointCommand(
        dict(zip(names, angles, strict=True)), task.stiffness, task.duration, task.interpolation
    )


def _ik_provider(group: type, solve: Any):
    def provide(ctx: Context) -> None:
        if ctx.reason is _SUBTASK_DONE:
            if ctx.uses(group).done:
                ctx.done()
            else:
                ctx.continue_()
            return
        ctx.emit(group(solve(ctx.task)))

    return provide


def register_ik(director: Director, servos: ServoTable, state: Any) -> None:
    """Register LegsIK, LeftLegIK, RightLegIK and HeadIK providers on ``director``."""
    legs = (*LEFT_LEG_JOINTS, *RIGHT_LEG_JOINTS)

    # refine=False: inside the 12 ms cycle an out-of-reach sole gets the clamped closed-form
    # answer (finite, within limits) in ~60 us, not the milliseconds-long closest-pose search.
    def legs_ik(task: LegsIK) -> JointCommand:
        s = solve_legs(task.left_sole, task.right_sole, left_weight=task.left_weight, refine=False)
        return _command(legs, (*s.left, *s.right[1:]), task)

    def left_leg_ik(task: LeftLegIK) -> JointCommand:
        # The mirrored foot asks for the same hip yaw-pitch, so the left foot is exact.
        angles, _ = nao_leg_ik().solve_one("left", task.sole, refine=False)
        return _command(LEFT_LEG_JOINTS, angles, task)

    def right_leg_ik(task: RightLegIK) -> JointCommand:
        hyp = servos.target(_HYP)
        angles = solve_right_leg(task.sole, hyp if math.isfinite(hyp) else 0.0)
        return _command(RIGHT_LEG_JOINTS, angles[1:], task)

    def head_ik(task: HeadIK) -> JointCommand:
        angles = look_at(task.point, task.camera)
        return _command(("HeadYaw", "HeadPitch"), (angles.yaw, angles.pitch), task)

    director.provide(LegsIK, _ik_provider(Legs, legs_ik), needs=Legs, name="LegsIK")
    director.provide(LeftLegIK, _ik_provider(LeftLeg, left_leg_ik), needs=LeftLeg, name="LeftLegIK")
    director.provide(
        RightLegIK, _ik_provider(RightLeg, right_leg_ik), needs=RightLeg, name="RightLegIK"
    )
    director.provide(HeadIK, _ik_provider(Head, head_ik), needs=Head, name="HeadIK")
