"""Inverse kinematics of both NAO legs under the one shared hip yaw-pitch motor.

**Targets** are the poses of the *sole frames* (``l_sole``, ``r_sole``: 0.04519 m below the
ankle-roll axis, x forward along the foot) in the **torso frame**, as 4x4 matrices: exactly
what :meth:`NaoKinematics.sole_poses` returns, so ``solve(*kin.sole_poses(q))`` gives back
``q``'s legs.

**Method.** The NAO leg is a 6-joint chain whose hip joints meet in one point and whose ankle
joints meet in another, so it is solved in closed form (as B-Human and rUNSWift do): rotate the
ankle pose into the frame in which the 45° hip yaw-pitch axis is plain z, get the knee from
the law of cosines, the ankle from the hip's position seen from the ankle, and the hip angles
from what rotation is left.

**The shared hip yaw-pitch.** LHipYawPitch and RHipYawPitch are one motor. Each foot's own
closed-form solution asks for a value; the two requests are blended with ``left_weight`` (0.5:
the mean; 1.0: the left foot gets exactly what it asked for, e.g. when it is the support
foot), and clamped into the joint's limits. With that value fixed, each leg is solved again for
its other five joints so that the sole *position* and the sole *normal* (the foot's z axis:
flat stays flat) are met exactly, and only the foot's yaw about its own normal absorbs the
disagreement. When the two requests agree (any pair of sole poses of a real configuration) the
result is the exact solution for both feet.

**Unreachable targets** never produce a NaN: the knee's cosine is clamped (a target too far
stretches the leg towards it), every angle is clamped into its limits, and when a limit binds
at most ``REFINE_STEPS`` damped least-squares steps (``leg_reach``) move the five free joints
towards the pose closest to the target in the metric ``|dp|^2 + (ROTATION_WEIGHT * angle)^2``.
The result says whether both feet reached their targets, and how far each ended from it.

The hot path is plain float math (a numpy call costs about a microsecond; this code makes one
per target, ``tolist``, unless a limit binds).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from lola_io.joints import LEFT_LEG_JOINTS, RIGHT_LEG_JOINTS
from providers.model import leg_reach
from providers.model.leg_reach import ROTATION_WEIGHT
from providers.model.leg_solution import LegSolution
from providers.model.robot_model import NaoModel, load_nao_model

__all__ = [
    "POSITION_TOLERANCE",
    "ROTATION_TOLERANCE",
    "ROTATION_WEIGHT",
    "LegIK",
    "LegSolution",
    "nao_leg_ik",
    "solve_legs",
]

#: A foot within this distance (m) and angle (rad) of its target counts as reached.
POSITION_TOLERANCE = 1e-6
ROTATION_TOLERANCE = 1e-6

_SQRT_HALF = math.sqrt(0.5)
# Hip yaw-pitch within this (rad) of a foot's own request leaves that foot exact (its error is
# of the same order, far below ROTATION_TOLERANCE).
_EXACT_HYP = 1e-9
_TWO_SQRT_TWO = 2.0 * math.sqrt(2.0)
_QUARTER_TURN = math.pi / 4.0
_RIGHT_LEG = ("RHipYawPitch", *RIGHT_LEG_JOINTS)
_LIMIT_SLACK = 1e-9  # rad


class LegIK:
    """Closed-form leg inverse kinematics for one NAO model (see the module docstring)."""

    def __init__(self, model: NaoModel | None = None) -> None:
        model = model or load_nao_model()
        j = model.joints
        self.thigh = -_check_z_offset(j["LKneePitch"].origin_xyz, "LKneePitch")
        self.tibia = -_check_z_offset(j["LAnklePitch"].origin_xyz, "LAnklePitch")
        self.sole_height = model.foot.sole_height
        hip_left = j["LHipYawPitch"].origin_xyz
        hip_right = j["RHipYawPitch"].origin_xyz
        self._hip = {1: tuple(hip_left), -1: tuple(hip_right)}
        for side, names in ((1, LEFT_LEG_JOINTS), (-1, _RIGHT_LEG)):
            _check_leg(model, names, side, self._hip[side])
        self._lower = {
            1: tuple(j[n].lower for n in LEFT_LEG_JOINTS),
            -1: tuple(j[n].lower for n in _RIGHT_LEG),
        }
        self._upper = {
            1: tuple(j[n].upper for n in LEFT_LEG_JOINTS),
            -1: tuple(j[n].upper for n in _RIGHT_LEG),
        }
        # One motor: the tighter of the two hip yaw-pitch ranges binds both.
        self._hyp_lower = max(self._lower[1][0], self._lower[-1][0])
        self._hyp_upper = min(self._upper[1][0], self._upper[-1][0])

    def solve(
        self,
        left_sole: np.ndarray,
        right_sole: np.ndarray,
        *,
        left_weight: float = 0.5,
        refine: bool = True,
    ) -> LegSolution:
        """Both legs' angles for the two sole poses (4x4, torso frame).

        ``left_weight`` in [0, 1] says whose hip yaw-pitch request wins when the feet disagree
        (0.5 shares it; 1.0 favours the left foot). Targets that are not finite 4x4 arrays
        raise ``ValueError``; unreachable targets give the closest pose and ``reachable=False``.
        When a limit binds, the search for the closest pose costs milliseconds; ``refine=False``
        skips it and returns the clamped closed form (still finite, within limits, flagged),
        for callers on a hard deadline.
        """
        if not 0.0 <= left_weight <= 1.0:
            raise ValueError(f"left_weight must be in [0, 1], got {left_weight!r}")
        left = _target(left_sole, "left_sole")
        right = _target(right_sole, "right_sole")
        left_frame = self._hip_frame(left, 1)
        right_frame = self._hip_frame(right, -1)
        request_left = _hip_yaw_pitch_request(left_frame, 1)
        request_right = _hip_yaw_pitch_request(right_frame, -1)
        hyp = left_weight * request_left + (1.0 - left_weight) * request_right
        hyp = min(max(hyp, self._hyp_lower), self._hyp_upper)
        left_q, left_ok = self._solve_leg(left, left_frame, 1, hyp, request_left, refine)
        right_q, right_ok = self._solve_leg(right, right_frame, -1, hyp, request_right, refine)
        return LegSolution(
            left=left_q,
            right=right_q,
            hip_yaw_pitch_conflict=abs(request_left - request_right),
            reachable=left_ok and right_ok,
            ik=self,
            targets=(left, right),
        )

    def solve_one(
        self,
        side: str,
        sole: np.ndarray,
        *,
        hip_yaw_pitch: float | None = None,
        refine: bool = True,
    ) -> tuple[tuple[float, ...], bool]:
        """One leg's six angles (hip yaw-pitch first) for ``sole`` (4x4, torso frame), and
        whether the pose is reached.

        With ``hip_yaw_pitch`` None the foot gets the hip yaw-pitch it asks for (within its
        limits); otherwise that value (clamped) is held, as when the other leg owns the shared
        motor, and the foot's yaw gives way. ``refine`` as in :meth:`solve`.
        """
        sign = _side(side)
        target = _target(sole, "sole")
        frame = self._hip_frame(target, sign)
        request = _hip_yaw_pitch_request(frame, sign)
        hyp = request if hip_yaw_pitch is None else float(hip_yaw_pitch)
        if not math.isfinite(hyp):
            raise ValueError(f"hip_yaw_pitch must be finite, got {hip_yaw_pitch!r}")
        hyp = min(max(hyp, self._hyp_lower), self._hyp_upper)
        return self._solve_leg(target, frame, sign, hyp, request, refine)

    def forward(self, side: str, angles) -> np.ndarray:
        """The sole pose (4x4, torso frame) of leg ``side`` ("left"/"right") at six angles."""
        sign = _side(side)
        if len(angles) != 6:
            raise ValueError(f"a leg has 6 joints, got {len(angles)} angles")
        axes, pos = self._forward(sign, [float(a) for a in angles])
        pose = np.eye(4)
        pose[:3, :3] = np.array(axes).T
        pose[:3, 3] = pos
        return pose

    # -- closed form ---------------------------------------------------------------------

    def _hip_frame(self, target, sign):
        """Ankle pose in the frame where this leg's hip yaw-pitch axis is z: (R, p)."""
        r00, r01, r02, px, r10, r11, r12, py, r20, r21, r22, pz = target
        h = self.sole_height
        hx, hy, hz = self._hip[sign]
        # Ankle = sole + h * sole z axis, relative to the hip joint.
        ax, ay, az = px + h * r02 - hx, py + h * r12 - hy, pz + h * r22 - hz
        # Rotate by Rx(-sign * pi/4): rows 1 and 2 mix.
        c, s = _SQRT_HALF, -sign * _SQRT_HALF
        rot = (
            r00,
            r01,
            r02,
            c * r10 - s * r20,
            c * r11 - s * r21,
            c * r12 - s * r22,
            s * r10 + c * r20,
            s * r11 + c * r21,
            s * r12 + c * r22,
        )
        return rot, (ax, c * ay - s * az, s * ay + c * az)

    def _solve_leg(self, target, frame, sign, hyp, request, refine):
        """Five joints of one leg with the hip yaw-pitch fixed: angles and whether exact."""
        m, (px, py, pz) = frame
        # Undo the hip yaw: Rz(sign * hyp).
        cy, sy = math.cos(sign * hyp), math.sin(sign * hyp)
        px, py = cy * px - sy * py, sy * px + cy * py
        normal = (cy * m[2] - sy * m[5], sy * m[2] + cy * m[5], m[8])
        l1, l2 = self.thigh, self.tibia
        cos_inner = (l1 * l1 + l2 * l2 - px * px - py * py - pz * pz) / (2.0 * l1 * l2)
        knee = math.pi - math.acos(min(max(cos_inner, -1.0), 1.0))
        # The law of cosines leaves the knee's sign open. A bent knee is the NAO's natural
        # pose; the mirror (knee slightly over-stretched, which the limits allow) is taken
        # only when the bent one breaks a limit and the mirror does not (with slack: a knee
        # exactly at its limit comes back from the target only up to rounding).
        q = self._five_joints(sign, hyp, px, py, pz, normal, knee)
        lower, upper = self._lower[sign], self._upper[sign]
        excess = _excess(q, lower, upper)
        if excess > 0.0 and -knee >= lower[3] - _LIMIT_SLACK:
            mirror = self._five_joints(sign, hyp, px, py, pz, normal, -knee)
            mirror_excess = _excess(mirror, lower, upper)
            if mirror_excess < excess:
                q, excess = mirror, mirror_excess
        if excess > 0.0:
            q = [
                hyp,
                *(
                    min(max(v, lo), hi)
                    for v, lo, hi in zip(q[1:], lower[1:], upper[1:], strict=True)
                ),
            ]
        # Nothing clamped, the knee's triangle closes and the hip yaw-pitch is the one this
        # foot asked for: the closed form is exact, no need to check it.
        if excess == 0.0 and -1.0 <= cos_inner <= 1.0 and abs(hyp - request) <= _EXACT_HYP:
            return tuple(q), True
        error = self._error(sign, q, target)
        off = error[0] > POSITION_TOLERANCE or error[1] > ROTATION_TOLERANCE
        # Out of reach (a limit binds here or in the shared hip yaw-pitch, or the leg is too
        # short): trading some position for orientation may get closer. A plain hip yaw-pitch
        # conflict is not refined: there the foot's yaw gives way by design (see solve).
        out_of_reach = (
            excess > 0.0 or not -1.0 <= cos_inner <= 1.0 or hyp <= lower[0] or hyp >= upper[0]
        )
        if refine and off and out_of_reach:
            q, error = leg_reach.refine(self, sign, q, target)
        return tuple(q), error[0] <= POSITION_TOLERANCE and error[1] <= ROTATION_TOLERANCE

    def _five_joints(self, sign, hyp, px, py, pz, normal, knee):
        """Hip roll and pitch, ankle pitch and roll for a given knee (unclamped)."""
        l1, l2 = self.thigh, self.tibia
        # Hip roll stays within ±pi/2 of straight down: a leg swung up past horizontal keeps
        # the same roll rather than flipping by half a turn.
        roll = math.atan2(-py, pz) if pz > 0.0 else math.atan2(py, -pz)
        cr, sr = math.cos(roll), math.sin(roll)
        rz = -sr * py + cr * pz
        pitch = math.atan2(px, rz) - math.atan2(-l2 * math.sin(knee), -l1 - l2 * math.cos(knee))
        pitch = math.remainder(pitch, math.tau)
        # The sole normal seen from below the knee fixes both ankle angles.
        zx, zy, zz = normal
        a = pitch + knee
        ca, sa = math.cos(a), math.sin(a)
        ny = cr * zy + sr * zz
        nz = -sr * zy + cr * zz
        nx, nz = ca * zx - sa * nz, sa * zx + ca * nz
        ankle_roll = math.atan2(-ny, math.hypot(nx, nz))
        ankle_pitch = math.atan2(nx, nz)
        return [hyp, roll + sign * _QUARTER_TURN, pitch, knee, ankle_pitch, ankle_roll]

    # -- forward kinematics and refinement -----------------------------------------------

    def _forward(self, sign, q):
        """Sole rotation columns (x, y, z axes) and position of one leg, plain floats."""
        hyp, hip_roll, hip_pitch, knee, ankle_pitch, ankle_roll = q
        l1, l2, h = self.thigh, self.tibia, self.sole_height
        # G = Rx(sign pi/4) Rz(-sign hyp) Rx(hip_roll - sign pi/4), written out.
        cf, sf = math.cos(hyp), -sign * math.sin(hyp)
        b = hip_roll - sign * _QUARTER_TURN
        cb, sb = math.cos(b), math.sin(b)
        c, s = _SQRT_HALF, sign * _SQRT_HALF
        g00, g01, g02 = cf, -sf * cb, sf * sb
        m10, m11, m12 = sf, cf * cb, -cf * sb
        g10, g11, g12 = c * m10, c * m11 - s * sb, c * m12 - s * cb
        g20, g21, g22 = s * m10, s * m11 + c * sb, s * m12 + c * cb
        s2, c2 = math.sin(hip_pitch), math.cos(hip_pitch)
        a = hip_pitch + knee
        vx, vz = -l1 * s2 - l2 * math.sin(a), -l1 * c2 - l2 * math.cos(a)
        a += ankle_pitch
        ca, sa = math.cos(a), math.sin(a)
        c5, s5 = math.cos(ankle_roll), math.sin(ankle_roll)
        # Columns of G Ry(a) Rx(ankle_roll): x = G (ca, 0, -sa), z = G (sa c5, -s5, ca c5).
        x = (g00 * ca - g02 * sa, g10 * ca - g12 * sa, g20 * ca - g22 * sa)
        u, w = sa * c5, ca * c5
        z = (
            g00 * u - g01 * s5 + g02 * w,
            g10 * u - g11 * s5 + g12 * w,
            g20 * u - g21 * s5 + g22 * w,
        )
        y = (z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0])
        hx, hy, hz = self._hip[sign]
        pos = (
            hx + g00 * vx + g02 * vz - h * z[0],
            hy + g10 * vx + g12 * vz - h * z[1],
            hz + g20 * vx + g22 * vz - h * z[2],
        )
        return (x, y, z), pos

    def _error(self, sign, q, t):
        """(distance, angle) between the sole at ``q`` and the 12-float target ``t``."""
        (x, y, z), (px, py, pz) = self._forward(sign, q)
        dp = math.sqrt((px - t[3]) ** 2 + (py - t[7]) ** 2 + (pz - t[11]) ** 2)
        # |R - T|_F = 2 sqrt(2) sin(angle / 2): exact, and precise for small angles.
        frob2 = (
            (x[0] - t[0]) ** 2 + (x[1] - t[4]) ** 2 + (x[2] - t[8]) ** 2
            + (y[0] - t[1]) ** 2 + (y[1] - t[5]) ** 2 + (y[2] - t[9]) ** 2
            + (z[0] - t[2]) ** 2 + (z[1] - t[6]) ** 2 + (z[2] - t[10]) ** 2
        )  # fmt: skip
        return dp, 2.0 * math.asin(min(math.sqrt(frob2) / _TWO_SQRT_TWO, 1.0))


@functools.cache
def nao_leg_ik() -> LegIK:
    """The leg IK of the packaged NAO model (built once, then shared)."""
    return LegIK(load_nao_model())


def solve_legs(
    left_sole: np.ndarray,
    right_sole: np.ndarray,
    *,
    left_weight: float = 0.5,
    refine: bool = True,
) -> LegSolution:
    """:meth:`LegIK.solve` with the packaged NAO model."""
    return nao_leg_ik().solve(left_sole, right_sole, left_weight=left_weight, refine=refine)


def _target(pose, name: str) -> list[float]:
    """The top three rows of a 4x4 pose as 12 floats, row-major; rejects anything else."""
    if not (isinstance(pose, np.ndarray) and pose.shape == (4, 4)):
        shape = np.shape(pose)
        if shape != (4, 4):
            raise ValueError(f"{name} must be a 4x4 pose, got shape {shape}")
        pose = np.asarray(pose, dtype=np.float64)
    r0, r1, r2, _ = pose.tolist()
    flat = r0 + r1 + r2
    # One sum is NaN or infinite exactly when some entry is (inf - inf is NaN too).
    if not math.isfinite(sum(flat)):
        raise ValueError(f"{name} has non-finite entries: {[r0, r1, r2]}")
    return flat


def _excess(q, lower, upper) -> float:
    """How far (rad, summed) joints 1..5 of a leg lie outside their limits."""
    total = 0.0
    for i in range(1, 6):
        v = q[i]
        if v < lower[i]:
            total += lower[i] - v
        elif v > upper[i]:
            total += v - upper[i]
    return total


def _side(side: str) -> int:
    if side == "left":
        return 1
    if side == "right":
        return -1
    raise ValueError(f"side must be 'left' or 'right', got {side!r}")


def _check_z_offset(xyz, name: str) -> float:
    if abs(xyz[0]) > 1e-12 or abs(xyz[1]) > 1e-12:
        raise ValueError(f"leg IK assumes {name} sits straight below its parent, got {xyz}")
    return float(xyz[2])


def _check_leg(model: NaoModel, names, side: int, hip) -> None:
    """The closed form holds only for NAO's leg layout; refuse a model that differs."""
    j = model.joints
    want_axes = [(0.0, 1.0, -side * 1.0), (1, 0, 0), (0, 1, 0), (0, 1, 0), (0, 1, 0), (1, 0, 0)]
    for name, axis in zip(names, want_axes, strict=True):
        got = np.asarray(j[name].axis, dtype=np.float64)
        want = np.asarray(axis, dtype=np.float64)
        if not np.allclose(got / np.linalg.norm(got), want / np.linalg.norm(want), atol=1e-5):
            raise ValueError(f"leg IK assumes {name} turns about {axis}, got {j[name].axis}")
        if any(abs(v) > 1e-12 for v in j[name].origin_rpy):
            raise ValueError(f"leg IK assumes {name} has no origin rotation")
    for name in (names[1], names[2], names[5]):
        if any(abs(v) > 1e-12 for v in j[name].origin_xyz):
            raise ValueError(f"leg IK assumes {name} shares its parent's origin")
    if abs(hip[0]) > 1e-12 or side * hip[1] <= 0:
        raise ValueError(f"leg IK assumes the hip sits beside the torso origin, got {hip}")


def _hip_yaw_pitch_request(frame, sign) -> float:
    """The hip yaw-pitch this foot alone asks for (the 6-joint closed form's first angle)."""
    m, (px, py, pz) = frame
    # The hip seen from the ankle gives the ankle roll; with it the hip's y axis is known,
    # and its heading in the hip-yaw plane is the yaw.
    hy = -(m[1] * px + m[4] * py + m[7] * pz)
    hz = -(m[2] * px + m[5] * py + m[8] * pz)
    # Ankle roll stays within ±pi/2, so take the branch with the hip above the ankle's
    # y axis whichever way the ankle pitch has tipped it.
    roll = math.atan2(-hy, -hz) if hz < 0.0 else math.atan2(hy, hz)
    c5, s5 = math.cos(roll), math.sin(roll)
    col0 = c5 * m[1] - s5 * m[2]
    col1 = c5 * m[4] - s5 * m[5]
    return -sign * math.atan2(-col0, col1)
