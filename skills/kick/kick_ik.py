"""The kick's leg solutions, posed in the frame of the ground under the support foot.

A kick plans the torso's shift over the support foot and the kicking foot's place and turn on
that ground; :class:`KickIK` turns them into the legs' angles through the walk's sole geometry
and the leg IK, and says where the model's centre of mass then is.
"""

from __future__ import annotations

import math

import numpy as np

from lola_io.joints import JOINT_INDEX, LEFT_LEG_JOINTS, RIGHT_LEG_JOINTS
from providers.model import nao_kinematics, nao_leg_ik
from providers.model.transforms import rotation_z
from skills.walk.params import GaitParameters
from skills.walk.soles import SoleGeometry

#: The legs' joints in the order the kick's arrays use (LoLA order).
LEG_JOINTS = (*LEFT_LEG_JOINTS, *RIGHT_LEG_JOINTS)
# A sole this close (m) to its target has reached it.
_REACHED = 0.02
# The kicking foot's turn is corrected to within this (rad), in at most this many solutions.
_YAW_TOLERANCE = 0.005
_YAW_ITERATIONS = 4


class KickIK:
    """Leg angles for a kick with ``foot`` ("left" or "right") in the walk stand of ``gait``;
    ``body`` (25 joint angles) gives the rest of the body for the centre of mass.

    ``solutions`` counts the leg IK solutions made, the unit of a kick's planning work.
    """

    def __init__(self, foot: str, gait: GaitParameters, body: np.ndarray) -> None:
        if foot not in ("left", "right"):
            raise ValueError(f"foot must be 'left' or 'right', got {foot!r}")
        self.foot, self.gait = foot, gait
        self.side = 1.0 if foot == "left" else -1.0
        self.geometry = SoleGeometry()
        #: Half the distance between the soles' stand places (m).
        self.stance = self.geometry.hip_y + gait.foot_spread
        self.solutions = 0
        self._ik = nao_leg_ik()
        self._kin = nao_kinematics()
        self._body = np.array(body, dtype=float)
        self._body[~np.isfinite(self._body)] = 0.0
        self._leg_index = [JOINT_INDEX[name] for name in LEG_JOINTS]
        #: The last exact solution's torso turn (rad), where the next one starts from.
        self.torso_yaw: float | None = None

    def solve(
        self, shift: np.ndarray, foot: np.ndarray, yaw: float, *, exact: bool = True
    ) -> tuple[np.ndarray, bool]:
        """Leg angles (``LEG_JOINTS`` order) for the torso shifted by ``shift`` (x, y; m) and
        the kicking foot at ``foot`` (x, y, z) off its stand place, turned by ``yaw``, and
        whether both soles are where asked.

        The NAO turns a foot only through the hip yaw-pitch both legs share, which turns both
        feet, mirrored, against the torso. With the support foot held by the ground the torso
        turns instead, by about half the kicking foot's turn. The support foot is given its
        pose exactly (the hip yaw-pitch is its); the torso's turn is corrected until the
        kicking foot's, which follows from it, is ``yaw`` (``exact``; else the first guess).
        An exact solution's torso turn is where the next solution starts from.

        The correction takes the foot to turn twice as far as the torso; on the model it
        turns about four times as far, so each correction overshoots by as much as it
        corrects and the turn does not converge: where it ends depends on where it started,
        and an aimed kick's foot is turned less than asked. A converging correction (the
        secant) aimed better but kicked a fifth less far and was not kept (docs, "The kick's
        plan is the same however it is spread over cycles").
        """
        torso = self.torso_yaw if self.torso_yaw is not None else 0.5 * yaw
        for _ in range(_YAW_ITERATIONS if exact else 1):
            q, reached, turned = self._solve_turned(shift, foot, yaw, torso)
            error = turned - yaw
            if abs(error) < _YAW_TOLERANCE:
                break
            # The kicking foot turns about twice as far as the torso.
            torso -= 0.5 * error
        if exact:
            self.torso_yaw = torso
        return q, reached

    def solve_aside(
        self, shift: np.ndarray, foot: np.ndarray, yaw: float
    ) -> tuple[np.ndarray, bool]:
        """An exact :meth:`solve` from the first guess that leaves where the next solution
        starts from as it was, so a plan's own solutions are the same with it or without."""
        kept, self.torso_yaw = self.torso_yaw, None
        try:
            return self.solve(shift, foot, yaw)
        finally:
            self.torso_yaw = kept

    def _solve_turned(
        self, shift: np.ndarray, foot: np.ndarray, yaw: float, torso: float
    ) -> tuple[np.ndarray, bool, float]:
        """Leg angles with the torso turned by ``torso`` (rad, on the ground), whether both
        soles are where asked, and how far the kicking foot is turned from the support."""
        self.solutions += 1
        g, geo, s = self.gait, self.geometry, self.side
        c, n = math.cos(-torso), math.sin(-torso)
        poses = []
        for stance, (x, y, z), turn in (
            (-s * self.stance, (-shift[0], -shift[1], 0.0), -torso),
            (s * self.stance, (foot[0] - shift[0], foot[1] - shift[1], foot[2]), yaw - torso),
        ):
            # The foot's place in the torso's turned frame.
            px, py = c * x - n * (y + stance), n * x + c * (y + stance)
            pose = geo.pose(
                px, py - stance, 0.0, z, stance=stance, hip_height=g.hip_height, lean=g.torso_lean
            )
            if turn:
                pose[:3, :3] = pose[:3, :3] @ rotation_z(turn)
            poses.append(pose)
        support, kicking = poses
        left, right = (kicking, support) if s > 0 else (support, kicking)
        # The support foot owns the shared hip yaw-pitch: the kicking foot's yaw gives way.
        solution = self._ik.solve(left, right, left_weight=0.0 if s > 0 else 1.0, refine=False)
        q = np.array([*solution.left, *solution.right[1:]])
        # Reached: both soles where they were asked to be (a sole pitched by an ankle at its
        # limit while drawn back still kicks).
        reached = True
        soles = {}
        for side, angles, target in (
            ("left", solution.left, left),
            ("right", solution.right, right),
        ):
            soles[side] = self._ik.forward(side, angles)
            error = soles[side][:3, 3] - target[:3, 3]
            reached = reached and float(error @ error) < _REACHED * _REACHED
        kicked, held = (soles["left"], soles["right"]) if s > 0 else (soles["right"], soles["left"])
        relative = held[:3, :3].T @ kicked[:3, :3]
        return q, reached, math.atan2(relative[1, 0], relative[0, 0])

    def lowest_corner(self, legs: np.ndarray) -> float:
        """How high (m) the kicking sole's lowest corner is above the support sole's plane
        (the floor), the legs at ``legs``."""
        body = self._body.copy()
        body[self._leg_index] = legs
        left, right = self._kin.sole_poses(body)
        kicking, support = (left, right) if self.side > 0 else (right, left)
        g = self.geometry
        inner, outer = -self.side * g.heel_inner, self.side * g.foot_outer
        corners = np.array(
            [[x, y, 0.0, 1.0] for x in (g.sole_front, -g.heel_rear) for y in (inner, outer)]
        ).T
        relative = np.linalg.solve(support, kicking @ corners)
        return float(relative[2].min())

    def com_in_support(self, legs: np.ndarray) -> np.ndarray:
        """The model's centre of mass (x, y) in the support sole's frame, the legs at ``legs``."""
        body = self._body.copy()
        body[self._leg_index] = legs
        com = self._kin.center_of_mass(body)
        left, right = self._kin.sole_poses(body)
        sole = right if self.side > 0 else left
        local = sole[:3, :3].T @ (com - sole[:3, 3])
        return local[:2]


__all__ = ["LEG_JOINTS", "KickIK"]
