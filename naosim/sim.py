"""The simulated NAO: MuJoCo physics, servos and sensors stepped one LoLA cycle at a time.

``NaoSim`` knows nothing of sockets; ``naosim.body.NaoSimBody`` puts it behind a LoLA server.
Everything that changes the world from outside (resets, pushes, friction, the ball, touch) is a
method here so tests and scenarios drive the same code as the command line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import mujoco
import numpy as np
from scipy.spatial.transform import Rotation

from lola_io.frames import DEFAULT_ROBOT_CONFIG, ActuatorFrame, SensorFrame
from lola_io.joints import JOINT_INDEX, NUM_JOINTS, TOUCH_INDEX
from naosim import postures
from naosim.binding import ModelBinding, bind, load_model_file
from naosim.hands import hold_by_hand
from naosim.impacts import ImpactRecorder, robot_on_floor
from naosim.model_builder import build_model
from naosim.sensors import Battery, SensorReader
from naosim.servo import ServoBank, ThermalModel
from naosim.truth import GroundTruth, lowest_robot_point, read_truth
from naosim.turf import turf_force

CYCLE = 0.012  # s, one LoLA cycle
STARTS = ("standing", "front", "back", "sitting", "lifted")
#: How high (m) the ``lifted`` start holds the robot above where it stood: feet well clear.
LIFTED_HEIGHT = 0.15

#: Noise of the sensors at ``noise=1`` (standard deviations), roughly a NAO V6's.
GYRO_NOISE = 0.002  # rad/s
ACCEL_NOISE = 0.02  # m/s^2
POSITION_NOISE = 0.0005  # rad (about the encoders' resolution)
SONAR_EVERY = 5  # cycles between sonar readings

_RESET_CLEARANCE = 0.0005  # m between the lowest shape and the floor after a reset

_set = object.__setattr__


class NaoSim:
    """A NAO in MuJoCo, advanced one LoLA cycle per :meth:`step`.

    Args:
        mj_model: a compiled model following ``naosim.binding``'s contract; by default the
            project's own NAO (``naosim.model_builder.build_model``).
        ball: add an SPL ball to the default model (ignored with ``mj_model``).
        delay_cycles: cycles between a command arriving and the motors acting on it (0 allowed).
        seed: seeds the sensor noise; the same seed and commands give the same run.
        noise: scale of the sensor noise (0 for ideal sensors).
        start: initial scenario, one of ``STARTS``.
    """

    def __init__(
        self,
        mj_model: mujoco.MjModel | None = None,
        *,
        ball: bool = False,
        delay_cycles: int = 3,
        seed: int = 0,
        noise: float = 1.0,
        start: str = "standing",
        thermal: ThermalModel | None = None,
    ) -> None:
        if not noise >= 0:
            raise ValueError(f"noise must be >= 0, got {noise}")
        self.model = mj_model if mj_model is not None else build_model(ball=ball)
        self.binding: ModelBinding = bind(self.model)
        self.data = mujoco.MjData(self.model)
        self.servos = ServoBank(
            self.model, self.binding, delay_cycles=delay_cycles, thermal=thermal
        )
        self.sensors = SensorReader(self.model, self.binding)
        self.battery = Battery()
        self.noise = noise
        self.seed = seed
        self._rng = np.random.default_rng(seed)
        self._touch = np.zeros(len(TOUCH_INDEX))
        self._push_force = np.zeros(3)
        self._push_steps = 0
        self._hand: np.ndarray | None = None  # where a referee's hand holds the torso
        self._impacts: ImpactRecorder | None = None
        self._rhyp_qpos = self._joint_qpos("RHipYawPitch")
        self._current = np.zeros(NUM_JOINTS)
        self._sonar = np.zeros(2)
        self._present = self.binding.present
        self._qpos_present = self.binding.qpos_adr[self._present]
        self._noise_scale = np.concatenate(
            [np.full(NUM_JOINTS, POSITION_NOISE), np.full(3, GYRO_NOISE), np.full(3, ACCEL_NOISE)]
        )
        self._steps_per_cycle = max(1, round(CYCLE / self.timestep))
        # Reaching ``model.opt`` costs microseconds through the bindings: read it once per sim.
        self._cycle_dt = self._steps_per_cycle * self.timestep
        self.frames = 0
        self.reset(start)

    @classmethod
    def from_file(cls, path: str | Path, **kwargs) -> NaoSim:
        """A simulator for the NAO MJCF at ``path`` (see ``naosim.binding`` for the contract)."""
        return cls(load_model_file(path), **kwargs)

    # -- time -------------------------------------------------------------------------------

    @property
    def time(self) -> float:
        """Simulated seconds since the last reset."""
        return float(self.data.time)

    @property
    def timestep(self) -> float:
        """Physics step, s."""
        return float(self.model.opt.timestep)

    # -- scenarios --------------------------------------------------------------------------

    def reset(self, start: str = "standing") -> None:
        """Put the robot back on the floor: ``standing``, lying on its ``front`` or ``back``,
        or ``sitting``; or ``lifted``: standing, then held upright by the torso
        (:meth:`lift`), feet in the air, as on a stand. Standing, sitting and lifted hold their
        posture at full stiffness until the first command arrives; lying starts limp (and
        takes longer to come to rest)."""
        if start == "standing":
            self.reset_pose(postures.standing())
        elif start == "front":
            self.reset_pose(
                postures.lying(), torso_rpy=(0.0, math.pi / 2, 0.0), stiffness=0.0, settle=1.0
            )
        elif start == "back":
            self.reset_pose(
                postures.lying(), torso_rpy=(0.0, -math.pi / 2, 0.0), stiffness=0.0, settle=1.0
            )
        elif start == "sitting":
            self.reset_pose(postures.sitting())
        elif start == "lifted":
            self.reset_pose(postures.standing(), held=LIFTED_HEIGHT, settle=0.6)
        else:
            raise ValueError(f"unknown start {start!r}; expected one of {', '.join(STARTS)}")

    def reset_pose(
        self,
        position: np.ndarray,
        *,
        torso_rpy: Sequence[float] = (0.0, 0.0, 0.0),
        xy: Sequence[float] = (0.0, 0.0),
        stiffness: float = 1.0,
        settle: float = 0.3,
        held: float | None = None,
    ) -> None:
        """Reset at joint angles ``position`` (LoLA order) with the torso at ``torso_rpy`` and
        above ``xy``, lowered until its lowest shape just clears the floor, holding the pose at
        ``stiffness``; then ``settle`` seconds of physics let it come to rest on the floor
        (or, ``held`` metres up, in the hand of :meth:`lift`) before the clock restarts at 0."""
        position = np.asarray(position, dtype=np.float64)
        if position.shape != (NUM_JOINTS,) or not np.all(np.isfinite(position)):
            raise ValueError(f"reset_pose: expected {NUM_JOINTS} finite angles, got {position!r}")
        if not 0.0 <= stiffness <= 1.0:
            raise ValueError(f"reset_pose: stiffness must be in 0..1, got {stiffness}")
        m, d, b = self.model, self.data, self.binding
        ball_state = self._ball_state()
        mujoco.mj_resetData(m, d)
        present = b.present
        d.qpos[b.qpos_adr[present]] = position[present]
        if self._rhyp_qpos >= 0:
            d.qpos[self._rhyp_qpos] = position[JOINT_INDEX["LHipYawPitch"]]
        x, y, z, w = Rotation.from_euler("xyz", torso_rpy).as_quat()
        root = b.root_qpos
        d.qpos[root : root + 3] = [xy[0], xy[1], 1.0]
        d.qpos[root + 3 : root + 7] = [w, x, y, z]
        if ball_state is not None:
            d.qpos[b.ball_qpos : b.ball_qpos + 7] = ball_state
        mujoco.mj_kinematics(m, d)
        lowest = lowest_robot_point(m, d, b.torso_body)
        if math.isfinite(lowest):  # a model without shapes stays where it was put
            d.qpos[root + 2] += _RESET_CLEARANCE - lowest
        self.servos.reset(position, np.full(NUM_JOINTS, stiffness))
        self._push_steps = 0
        self._hand = None
        d.xfrc_applied[:] = 0.0
        if held is not None:
            mujoco.mj_forward(m, d)
            self.lift(held)
        steps_per_cycle = max(1, round(CYCLE / self.timestep))
        for _ in range(round(settle / CYCLE)):
            self.servos.apply(d)
            if self._hand is not None:
                self._hold_by_hand()
            mujoco.mj_step(m, d, steps_per_cycle)
        d.time = 0.0
        self.frames = 0
        self._finish_cycle(0.0)

    def _joint_qpos(self, name: str) -> int:
        j = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_JOINT, name)
        return int(self.model.jnt_qposadr[j]) if j >= 0 else -1

    def _ball_state(self) -> np.ndarray | None:
        b = self.binding
        if b.ball_qpos < 0:
            return None
        # A reset moves the robot, not the ball: keep it where the scenario put it.
        return self.data.qpos[b.ball_qpos : b.ball_qpos + 7].copy()

    def push(self, force: Sequence[float], duration: float) -> None:
        """Push the torso at its centre of mass with a world-frame ``force`` (N) for
        ``duration`` seconds of simulated time, starting with the next step."""
        force = np.asarray(force, dtype=np.float64)
        if force.shape != (3,) or not np.all(np.isfinite(force)):
            raise ValueError(f"push: expected a finite 3-vector force, got {force!r}")
        if not duration > 0:
            raise ValueError(f"push: duration must be > 0 s, got {duration}")
        self._push_force = force
        self._push_steps = max(1, round(duration / self.timestep))

    def lift(self, height: float | None) -> None:
        """Hold the robot like a referee's hands: its centre of mass pulled towards a point
        ``height`` metres above where it is now (the torso kept upright), from the next step
        on; ``None`` lets go.

        The hand is a stiff spring and damper on the torso's position and orientation (the
        limbs hang from it as they would), so lifting, holding and putting down at a lower
        ``height`` are all the same call.
        """
        if height is None:
            self._hand = None
            self.data.xfrc_applied[self.binding.torso_body] = 0.0
            return
        if not math.isfinite(height):
            raise ValueError(f"lift: height must be finite, got {height!r}")
        com = self.data.subtree_com[self.binding.torso_body]
        self._hand = np.array([com[0], com[1], com[2] + height])

    def _hold_by_hand(self) -> None:
        hold_by_hand(self.model, self.data, self.binding.torso_body, self.robot_mass, self._hand)

    def set_floor_friction(self, mu: float) -> None:
        """Sliding friction coefficient of the floor (it wins every contact)."""
        if not mu >= 0:
            raise ValueError(f"floor friction must be >= 0, got {mu}")
        if self.binding.floor_geom < 0:
            raise ValueError("this model has no floor geom")
        self.model.geom_friction[self.binding.floor_geom, 0] = mu

    def place_ball(self, x: float, y: float, vx: float = 0.0, vy: float = 0.0) -> None:
        """Put the ball on the floor at (x, y), rolling at (vx, vy) m/s (spinning as a ball
        that rolls without slipping does)."""
        b = self.binding
        if b.ball_qpos < 0:
            raise ValueError("this simulation has no ball (build it with ball=True)")
        radius = float(self.model.geom_size[self.model.body_geomadr[b.ball_body], 0])
        self.data.qpos[b.ball_qpos : b.ball_qpos + 7] = [x, y, radius, 1.0, 0.0, 0.0, 0.0]
        dof = int(self.model.jnt_dofadr[self.model.body_jntadr[b.ball_body]])
        # A free joint's angular velocity is in the body frame, here the world's (no rotation).
        self.data.qvel[dof : dof + 6] = [vx, vy, 0.0, -vy / radius, vx / radius, 0.0]
        mujoco.mj_forward(self.model, self.data)

    def watch_impacts(self, *bodies: str) -> ImpactRecorder:
        """From now on, record the floor impacts of the named robot bodies (``Head``,
        ``torso``, ...) at every physics step (``naosim.impacts``); replaces any earlier
        watch. ``stop_watching`` ends it (stepping costs more while watching)."""
        ids = {}
        for name in bodies:
            body = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, name)
            if body < 0:
                raise ValueError(f"watch_impacts: this model has no body {name!r}")
            ids[name] = body
        if self.binding.floor_geom < 0:
            raise ValueError("watch_impacts: this model has no floor geom")
        self._impacts = ImpactRecorder(self.model, self.binding.floor_geom, ids)
        return self._impacts

    def stop_watching(self) -> None:
        """Stop recording impacts (the recorder keeps what it saw)."""
        self._impacts = None

    def set_touch(self, name: str, pressed: bool = True) -> None:
        """Press or release a touch sensor (``lola_io.joints.TOUCH_NAMES``)."""
        if name not in TOUCH_INDEX:
            raise ValueError(f"unknown touch sensor {name!r}; known: {', '.join(TOUCH_INDEX)}")
        self._touch[TOUCH_INDEX[name]] = 1.0 if pressed else 0.0

    # -- stepping ---------------------------------------------------------------------------

    def step(self, command: ActuatorFrame | None, dt: float = CYCLE) -> SensorFrame:
        """Advance ``dt`` seconds (a whole number of physics steps) under ``command``
        (``None``: the last command stays in force) and read the sensors."""
        if not dt > 0:
            raise ValueError(f"step: dt must be > 0, got {dt}")
        if command is None:
            self.servos.command(None, None)
        else:
            self.servos.command(command.position, command.stiffness)
        self.servos.apply(self.data)
        if self.binding.ball_body >= 0:
            self._roll_on_turf()
        if dt == CYCLE:
            steps, dt = self._steps_per_cycle, self._cycle_dt
        else:
            steps = max(1, round(dt / self.timestep))
            dt = steps * self.timestep
        d = self.data
        if self._hand is not None:
            # The hand acts once per cycle, like every other outside force here.
            self._hold_by_hand()
            self._advance(steps)
        elif self._push_steps:
            pushed = min(steps, self._push_steps)
            d.xfrc_applied[self.binding.torso_body, :3] = self._push_force
            self._advance(pushed)
            d.xfrc_applied[self.binding.torso_body, :3] = 0.0
            self._push_steps -= pushed
            if steps > pushed:
                self._advance(steps - pushed)
        else:
            self._advance(steps)
        self.frames += 1
        return self._finish_cycle(dt)

    def _advance(self, steps: int) -> None:
        if self._impacts is None:
            mujoco.mj_step(self.model, self.data, steps)
            return
        for _ in range(steps):
            mujoco.mj_step(self.model, self.data)
            self._impacts.observe(self.data)

    def _roll_on_turf(self) -> None:
        """The turf's rolling resistance on the ball for this cycle (``naosim.turf``)."""
        b, m, d = self.binding, self.model, self.data
        dof = int(m.jnt_dofadr[m.body_jntadr[b.ball_body]])
        radius = float(m.geom_size[m.body_geomadr[b.ball_body], 0])
        force = turf_force(
            d.qvel[dof : dof + 3],
            float(d.qpos[b.ball_qpos + 2]),
            radius,
            float(m.body_mass[b.ball_body]),
            float(m.body_inertia[b.ball_body, 0]),
        )
        d.xfrc_applied[b.ball_body, :3] = force

    def _finish_cycle(self, dt: float) -> SensorFrame:
        m, d = self.model, self.data
        if dt == 0:
            # After a reset nothing has been computed for the new state yet.
            mujoco.mj_forward(m, d)
        # Like MuJoCo's own sensors, the IMU, FSRs, currents and ground truth read the state at
        # the start of the last 3 ms physics step (what mj_step last computed), which saves a
        # whole extra forward pass per cycle; joint positions are the newest.
        mujoco.mj_rnePostConstraint(m, d)
        self._current = self.servos.current(d)
        # The NAO's sonars ping far slower than LoLA's 83 Hz; a reading holds for 5 cycles.
        if dt == 0 or self.frames % SONAR_EVERY == 0:
            self._sonar = self.sensors.sonar(d)
        if dt > 0:
            self.servos.heat(self._current, dt)
            self.battery.drain(float(self._current.sum()), dt)
        return self.sensor_frame()

    def first_frame(self) -> SensorFrame:
        """The sensors as they read now, before any command."""
        return self.sensor_frame()

    def sensor_frame(self) -> SensorFrame:
        """What LoLA would report for the current state."""
        d = self.data
        position = self.binding.neutral.copy()
        present = self._present
        position[present] = d.qpos[self._qpos_present]
        accel, gyro = self.sensors.imu(d)
        if self.noise:
            # One draw per frame, scaled per sensor: cheaper than three generator calls.
            draw = self._rng.standard_normal(NUM_JOINTS + 6) * (self._noise_scale * self.noise)
            position[present] += draw[:NUM_JOINTS][present]
            gyro += draw[NUM_JOINTS : NUM_JOINTS + 3]
            accel += draw[NUM_JOINTS + 3 :]
        # Every value is built here as a float64 vector of the right length (status int64), so
        # the attrs converters and validators would only re-check them, at a cost comparable to
        # reading all the sensors; like the codec's decoder, set the fields directly.
        frame = object.__new__(SensorFrame)
        _set(frame, "position", position)
        _set(frame, "stiffness", self.servos.applied_stiffness)
        _set(frame, "temperature", self.servos.temperature)
        _set(frame, "current", self._current)
        _set(frame, "status", self.servos.status())
        _set(frame, "battery", self.battery.as_array())
        _set(frame, "accelerometer", accel)
        _set(frame, "gyroscope", gyro)
        _set(frame, "angles", self.sensors.angles(d))
        _set(frame, "sonar", self._sonar.copy())
        _set(frame, "fsr", self.sensors.fsr(d))
        _set(frame, "touch", self._touch.copy())
        _set(frame, "robot_config", DEFAULT_ROBOT_CONFIG)
        return frame

    # -- ground truth -----------------------------------------------------------------------

    def truth(self) -> GroundTruth:
        """Torso pose, centre of mass, sole poses, ball position and tilt, now."""
        return read_truth(self.data, self.binding, self.time)

    def body_on_floor(self) -> bool:
        """Whether any part of the robot other than its feet touches the floor (an impact)."""
        return robot_on_floor(self.model, self.data, self.binding)

    @property
    def robot_mass(self) -> float:
        """Total mass of the robot (without the ball), kg."""
        return float(self.model.body_subtreemass[self.binding.torso_body])
