"""A kinematic stand-in for the NAO: joints that go where they are told, no physics.

It is the body for fast tests of everything above the wire (connection, daemon cycle,
actuation tree): deterministic, and thousands of cycles per second.

The approximation, stated plainly:

- each joint moves toward its target at its velocity limit (``nao_model.json``) times its
  stiffness, clipped to [0, 1] (negative stiffness, LoLA's "relax", is 0: the joint stays put),
  and never leaves its joint limits; with no new command the last one stays in force, as LoLA
  keeps the last command;
- the torso is level and still: the accelerometer reads (0, 0, -g), gyro and angles are zero;
- the robot's weight rests on the lower foot. A foot's height below the hip is taken from a
  planar leg: thigh and tibia lengths along the hip and knee pitch, shortened by the cosine of
  the hip roll. Within ``DOUBLE_SUPPORT_BAND`` of each other both feet share the weight,
  linearly; each foot's share is split evenly over its four cells;
- measured stiffness is the commanded one; currents are zero, temperatures 30 °C, status 0.
"""

from __future__ import annotations

import math

import numpy as np

from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from providers.model import NaoModel, load_nao_model

STANDARD_GRAVITY = 9.80665
#: Height difference (m) over which the weight shifts from both feet to the lower one.
DOUBLE_SUPPORT_BAND = 0.005

_LEFT = tuple(JOINT_INDEX[n] for n in ("LHipRoll", "LHipPitch", "LKneePitch"))
_RIGHT = tuple(JOINT_INDEX[n] for n in ("RHipRoll", "RHipPitch", "RKneePitch"))


class KinematicBody:
    """A :class:`lola_io.body.Body` whose joints track their targets at limited speed."""

    def __init__(
        self, model: NaoModel | None = None, *, initial_position: np.ndarray | None = None
    ) -> None:
        self.model = model or load_nao_model()
        start = np.zeros(NUM_JOINTS) if initial_position is None else initial_position
        self.position = self.model.clamp(np.asarray(start, dtype=np.float64))
        self.target = self.position.copy()
        self.stiffness = np.zeros(NUM_JOINTS)
        self.time = 0.0
        self._thigh = abs(self.model.joints["LKneePitch"].origin_xyz[2])
        self._tibia = abs(self.model.joints["LAnklePitch"].origin_xyz[2])

    def first_frame(self) -> SensorFrame:
        """What the sensors read now."""
        return self._sense()

    def step(self, command: ActuatorFrame | None, dt: float) -> SensorFrame:
        """Move every joint toward its target for ``dt`` seconds; return the sensors."""
        if command is not None:
            self.target = self.model.clamp(command.position)
            self.stiffness = np.clip(command.stiffness, 0.0, 1.0)
        reach = self.model.velocity * self.stiffness * dt
        self.position = self.model.clamp(
            self.position + np.clip(self.target - self.position, -reach, reach)
        )
        self.time += dt
        return self._sense()

    def foot_drop(self, side: str) -> float:
        """How far below the hip the ``"left"`` or ``"right"`` ankle hangs (m), planar model."""
        roll, hip, knee = (self.position[i] for i in (_LEFT if side == "left" else _RIGHT))
        return (self._thigh * math.cos(hip) + self._tibia * math.cos(hip + knee)) * math.cos(roll)

    def left_weight_share(self) -> float:
        """Fraction of the weight on the left foot (0..1)."""
        lower_by = self.foot_drop("left") - self.foot_drop("right")
        return float(np.clip(0.5 + lower_by / (2 * DOUBLE_SUPPORT_BAND), 0.0, 1.0))

    def _sense(self) -> SensorFrame:
        weight = self.model.total_mass  # FSR cells report kilograms
        left = self.left_weight_share()
        fsr = np.concatenate([np.full(4, weight * left / 4), np.full(4, weight * (1 - left) / 4)])
        frame = SensorFrame.neutral(position=self.position.copy())
        return SensorFrame(
            position=frame.position,
            stiffness=self.stiffness.copy(),
            temperature=frame.temperature,
            current=frame.current,
            status=frame.status,
            battery=frame.battery,
            accelerometer=np.array([0.0, 0.0, -STANDARD_GRAVITY]),
            gyroscope=frame.gyroscope,
            angles=frame.angles,
            sonar=frame.sonar,
            fsr=fsr,
            touch=frame.touch,
            robot_config=frame.robot_config,
        )
