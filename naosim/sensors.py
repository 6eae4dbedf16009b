"""What the simulated NAO's sensors read: IMU, torso angles, FSRs, sonar, battery.

Conventions (shared with the real robot as most SPL teams read it):

- Accelerometer: the gravity vector in the IMU frame, i.e. the *negated* specific force an ideal
  accelerometer measures. Upright and at rest it reads (0, 0, -9.81); lean forward and x grows
  positive. (reference/lola.md: "z is about -9.8 when upright".)
- Gyroscope: angular velocity of the IMU frame in that frame, right-handed (x forward, y left,
  z up), rad/s.
- Angles: torso roll (about x) and pitch (about y) relative to gravity, rad; pitch is positive
  leaning forward.
- FSR: the normal contact force under each foot, in kg (N / 9.81), shared between the four
  cells by bilinear weights of the contact point between the cell positions, so the four cells
  always sum to the foot's load.
"""

from __future__ import annotations

import math

import attrs
import mujoco
import numpy as np

from naosim.binding import ModelBinding
from naosim.model_builder import ROBOT_GEOM_GROUP

GRAVITY = 9.81
SONAR_MAX = 2.55  # m, LoLA's "nothing seen"
SONAR_MIN = 0.20  # m, the NAO's sonars are blind closer than this


@attrs.define
class Battery:
    """A slowly draining battery: charge (0..1) from the current drawn by the motors."""

    capacity_ah: float = 2.9  # NAO V6 battery, ~62 Wh at 21.6 V
    idle_current: float = 1.2  # A drawn by the head computer and boards
    charge: float = 1.0
    temperature: float = 30.0
    current: float = 0.0

    def drain(self, motor_current: float, dt: float) -> None:
        """Draw ``idle + motor_current`` ampere for ``dt`` seconds."""
        self.current = self.idle_current + motor_current
        self.charge = max(0.0, self.charge - self.current * dt / (self.capacity_ah * 3600.0))

    def as_array(self) -> np.ndarray:
        """LoLA's battery fields: charge, status, current (negative: discharging), temperature."""
        return np.array([self.charge, 0.0, -self.current, self.temperature])


class SensorReader:
    """Reads one model's sensors out of an ``MjData`` after ``mj_forward``."""

    def __init__(self, mj: mujoco.MjModel, binding: ModelBinding) -> None:
        self._mj = mj
        self._b = binding
        self._buf6 = np.zeros(6)
        self._force = np.zeros(6)
        self._geom_group = np.zeros(6, dtype=np.uint8)
        for g in range(6):
            self._geom_group[g] = 0 if g == ROBOT_GEOM_GROUP else 1
        self._geomid = np.zeros(1, dtype=np.int32)
        # 1 and 2: the left and right foot; 3: the rest of the robot; 0: anything else.
        self._foot_of_body = np.zeros(mj.nbody, dtype=np.int8)
        for body in range(binding.torso_body, mj.nbody):
            if body == binding.torso_body or self._foot_of_body[mj.body_parentid[body]] == 3:
                self._foot_of_body[body] = 3
        for body in binding.left_foot.bodies:
            self._foot_of_body[body] = 1
        for body in binding.right_foot.bodies:
            self._foot_of_body[body] = 2
        self._foot_of_geom = self._foot_of_body[mj.geom_bodyid].tolist()
        # Read once: reaching ``mj.opt`` costs more than a whole contact's arithmetic.
        self._pyramidal = mj.opt.cone == mujoco.mjtCone.mjCONE_PYRAMIDAL
        self._ankle_list = [binding.left_foot.ankle_body, binding.right_foot.ankle_body]
        self._cell_box_list = [binding.left_foot.cell_box, binding.right_foot.cell_box]

    def imu(self, d: mujoco.MjData) -> tuple[np.ndarray, np.ndarray]:
        """(accelerometer, gyroscope) at the IMU frame; needs ``mj_rnePostConstraint`` done."""
        b = self._b
        mujoco.mj_objectVelocity(self._mj, d, b.imu_type, b.imu_id, self._buf6, 1)
        gyro = self._buf6[:3].copy()
        mujoco.mj_objectAcceleration(self._mj, d, b.imu_type, b.imu_id, self._buf6, 1)
        accel = -self._buf6[3:].copy()
        return accel, gyro

    def imu_rotation(self, d: mujoco.MjData) -> np.ndarray:
        """World orientation of the IMU frame (3x3)."""
        b = self._b
        if b.imu_type == mujoco.mjtObj.mjOBJ_SITE:
            return d.site_xmat[b.imu_id].reshape(3, 3)
        return d.xmat[b.imu_id].reshape(3, 3)

    def angles(self, d: mujoco.MjData) -> np.ndarray:
        """Torso roll and pitch, rad."""
        # The bottom row of the rotation is gravity's direction seen from the IMU.
        r20, r21, r22 = self.imu_rotation(d)[2].tolist()
        return np.array([math.atan2(r21, r22), math.atan2(-r20, math.hypot(r21, r22))])

    def fsr(self, d: mujoco.MjData) -> np.ndarray:
        """The 8 FSR cells, kg: left FL, FR, RL, RR, then right."""
        ncon = d.ncon
        if ncon == 0:
            return np.zeros(8)
        mj = self._mj
        # Plain floats: with a handful of contacts, numpy's per-call overhead dominates (a
        # vectorised version measured 2-4x slower than this loop). Every per-contact array is
        # fetched once as a list because each attribute access on ``d.contact`` builds a view.
        out = [0.0] * 8
        contact = d.contact
        geoms = contact.geom[:ncon].tolist()
        positions = contact.pos[:ncon].tolist()
        pyramidal = self._pyramidal
        if pyramidal:
            addresses = contact.efc_address[:ncon].tolist()
            dims = contact.dim[:ncon].tolist()
            efc_force = d.efc_force.tolist()
        foot_of_geom = self._foot_of_geom
        frames: dict[int, tuple] = {}
        for i, (g1, g2) in enumerate(geoms):
            f1, f2 = foot_of_geom[g1], foot_of_geom[g2]
            # A foot against the floor or the ball: a hand or the other foot pressing on a
            # foot presses no sensor under its sole.
            if f1 == 0 and f2 in (1, 2):
                side = f2
            elif f2 == 0 and f1 in (1, 2):
                side = f1
            else:
                continue
            if side not in frames:
                ankle = self._ankle_list[side - 1]
                frames[side] = (
                    d.xpos[ankle].tolist(),
                    d.xmat[ankle].tolist(),
                    self._cell_box_list[side - 1],
                )
            if pyramidal:
                # mj_contactForce's normal for a pyramidal cone, without its call and 6-vector:
                # the sum of the pyramid's edge forces, added in the same order as MuJoCo does.
                adr, dim = addresses[i], dims[i]
                if adr < 0:
                    continue
                normal = 0.0
                for f in efc_force[adr : adr + (2 * (dim - 1) if dim > 1 else 1)]:
                    normal += f
            else:
                mujoco.mj_contactForce(mj, d, i, self._force)
                normal = float(self._force[0])
            load = abs(normal) / GRAVITY
            (px, py, pz), r, (rear_x, right_y, span_x, span_y) = frames[side]
            x, y, z = positions[i]
            dx, dy, dz = x - px, y - py, z - pz
            # The contact point in the ankle frame: x and y of R^T (p - origin).
            lx = dx * r[0] + dy * r[3] + dz * r[6]
            ly = dx * r[1] + dy * r[4] + dz * r[7]
            wf = min(max((lx - rear_x) / span_x, 0.0), 1.0)
            wl = min(max((ly - right_y) / span_y, 0.0), 1.0)
            front, back = load * wf, load * (1.0 - wf)
            k = 4 * (side - 1)
            out[k] += front * wl
            out[k + 1] += front * (1.0 - wl)
            out[k + 2] += back * wl
            out[k + 3] += back * (1.0 - wl)
        return np.array(out)

    def sonar(self, d: mujoco.MjData) -> np.ndarray:
        """Distance to the nearest non-robot surface along each sonar's axis, m."""
        out = np.full(2, SONAR_MAX)
        for k, site in enumerate(self._b.sonar_sites):
            if site < 0:
                continue
            direction = d.site_xmat[site].reshape(3, 3)[:, 0].copy()
            dist = mujoco.mj_ray(
                self._mj,
                d,
                d.site_xpos[site],
                direction,
                self._geom_group,
                1,
                -1,
                self._geomid,
            )
            if dist >= 0.0:
                out[k] = float(np.clip(dist, SONAR_MIN, SONAR_MAX))
        return out
