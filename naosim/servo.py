"""The NAO's joint servos: stiffness-scaled position control, actuation delay, heat and current.

Gain scaling is done by rewriting the position actuators' ``gainprm``/``biasprm`` once per LoLA
cycle (MuJoCo then evaluates ``kp * s * (target - q)`` itself at every physics step, clipped to
the effort limit). The alternative, computing the torque in Python and feeding motor actuators,
needs a Python round trip per 3 ms physics step instead of per 12 ms cycle: ``motiond bench sim``
measured 0.31 ms against 0.58 ms per cycle (physics included), so naosim rewrites gains.
"""

from __future__ import annotations

from collections import deque

import attrs
import mujoco
import numpy as np

from lola_io.joints import JOINT_INDEX, NUM_JOINTS, STATUS_CRITICAL, STATUS_VERY_HOT
from naosim.binding import ModelBinding

LHYP = JOINT_INDEX["LHipYawPitch"]


@attrs.frozen
class ThermalModel:
    """First-order heating of each joint motor: dT/dt = heating * I^2 - (T - ambient) / tau.

    The figures are round numbers that give the behaviour teams see on a NAO: a knee held
    against the full effort limit heats by tens of degrees over minutes, an idle joint cools to
    ambient. Status thresholds follow LoLA's meaning (1 hot, 2 very hot with stiffness cut,
    3 critical with stiffness 0).
    """

    ambient: float = 30.0
    heating: float = 0.03  # K/s per A^2
    tau: float = 600.0  # s
    hot: float = 75.0
    very_hot: float = 85.0
    critical: float = 95.0
    #: stiffness factor applied while very hot (LoLA cuts it by more than 30 %).
    very_hot_factor: float = 0.6


#: Ampere per newton metre of joint torque. A round figure (NAO V6 joint motors draw a few
#: ampere at their effort limit); currents are reported for plausibility, not identification.
AMPERE_PER_NM = 0.8


class ServoBank:
    """The 25 LoLA servos of one simulated body (plus RHipYawPitch driven with LHipYawPitch)."""

    def __init__(
        self,
        mj: mujoco.MjModel,
        binding: ModelBinding,
        *,
        delay_cycles: int = 3,
        thermal: ThermalModel | None = None,
    ) -> None:
        if not isinstance(delay_cycles, int) or delay_cycles < 0:
            raise ValueError(f"delay_cycles must be a whole number >= 0, got {delay_cycles!r}")
        self._mj = mj
        self._b = binding
        self.delay_cycles = delay_cycles
        self.thermal = thermal or ThermalModel()
        has_act = binding.actuator >= 0
        self._lola_with_act = np.flatnonzero(has_act)
        mimic = list(binding.mimic_actuators) if has_act[LHYP] else []
        # Every driven actuator, and the LoLA joint whose command it follows (RHipYawPitch
        # follows LHipYawPitch), so one fancy-indexed write per array serves them all.
        self._acts = np.concatenate([binding.actuator[has_act], mimic]).astype(np.intp)
        self._source = np.concatenate([self._lola_with_act, [LHYP] * len(mimic)]).astype(np.intp)
        self._n_direct = len(self._lola_with_act)
        # Every actuator's gain at stiffness 1, as the model was loaded.
        self._kp = np.array(mj.actuator_gainprm[self._acts, 0], dtype=np.float64)
        self._pending: deque[tuple[np.ndarray, np.ndarray]] = deque(maxlen=delay_cycles + 1)
        self.temperature = np.full(NUM_JOINTS, self.thermal.ambient)
        self._status = np.zeros(NUM_JOINTS, dtype=np.int64)
        self._factor = np.ones(NUM_JOINTS)
        th = self.thermal
        self._thresholds = np.array([th.hot, th.very_hot, th.critical])
        self._hot = float(self._thresholds.min())
        self._any_status = False
        self.applied_target = binding.neutral.copy()
        self.applied_stiffness = np.zeros(NUM_JOINTS)

    def reset(self, target: np.ndarray, stiffness: np.ndarray) -> None:
        """Forget queued commands; hold ``target`` at ``stiffness`` from now on."""
        self._pending.clear()
        self._pending.append((np.array(target, dtype=float), np.array(stiffness, dtype=float)))
        self.applied_target = self._pending[0][0]
        self.applied_stiffness = self._pending[0][1]

    def command(self, target: np.ndarray | None, stiffness: np.ndarray | None) -> None:
        """Queue this cycle's command (``None``: repeat the last one, as LoLA does)."""
        if target is None or stiffness is None:
            target, stiffness = self._pending[-1]
        else:
            # LoLA clients send -1 to relax; anything outside 0..1 is clipped like the robot does.
            stiffness = np.minimum(np.maximum(stiffness, 0.0), 1.0)
            if not np.isfinite(target.sum() + stiffness.sum()):
                # Frames off the wire are checked already; this guards direct API callers.
                stiffness = np.where(np.isfinite(stiffness), stiffness, 0.0)
                target = np.where(np.isfinite(target), target, self._pending[-1][0])
        self._pending.append((target, stiffness))

    def apply(self, d: mujoco.MjData) -> None:
        """Write the command due this cycle (``delay_cycles`` old) into the actuators."""
        # The queue holds delay_cycles + 1 commands, so its head is the one sent delay_cycles
        # cycles ago; until it fills up, the head is the command held since the last reset.
        target, stiffness = self._pending[0]
        stiffness = stiffness * self._factor
        self.applied_target = target
        self.applied_stiffness = stiffness
        gain = self._kp * stiffness[self._source]
        mj = self._mj
        mj.actuator_gainprm[self._acts, 0] = gain
        mj.actuator_biasprm[self._acts, 1] = -gain
        d.ctrl[self._acts] = target[self._source]

    def torque(self, d: mujoco.MjData) -> np.ndarray:
        """Actuator torque per LoLA joint (N m); LHipYawPitch carries both hip yaw-pitch motors."""
        forces = d.actuator_force[self._acts]
        out = np.zeros(NUM_JOINTS)
        out[self._lola_with_act] = forces[: self._n_direct]
        if len(forces) > self._n_direct:
            out[LHYP] = abs(out[LHYP]) + float(np.abs(forces[self._n_direct :]).sum())
        return out

    def current(self, d: mujoco.MjData) -> np.ndarray:
        """Motor currents (A) from the actuator torques."""
        return np.abs(self.torque(d)) * AMPERE_PER_NM

    def heat(self, current: np.ndarray, dt: float) -> None:
        """Advance the motor temperatures by ``dt`` seconds at ``current``."""
        th = self.thermal
        rate = th.heating * current**2 - (self.temperature - th.ambient) / th.tau
        self._update_temperature(self.temperature + rate * dt)

    def set_temperature(self, temperature: np.ndarray) -> None:
        """Set the motor temperatures (deg C, LoLA order); status and stiffness cut follow."""
        temperature = np.asarray(temperature, dtype=np.float64)
        if temperature.shape != (NUM_JOINTS,):
            raise ValueError(f"expected {NUM_JOINTS} temperatures, got shape {temperature.shape}")
        self._update_temperature(temperature)

    def _update_temperature(self, temperature: np.ndarray) -> None:
        self.temperature = temperature
        # Almost always every motor is below the first threshold and was already: one
        # comparison then settles it, where the general path below costs several numpy calls
        # every cycle.
        if not self._any_status and temperature.max() < self._hot:
            return
        th = self.thermal
        # Each threshold passed raises the status by one: 0 normal ... 3 critical.
        status = np.searchsorted(self._thresholds, temperature, side="right")
        if np.array_equal(status, self._status):
            return
        self._status = status.astype(np.int64)
        self._any_status = bool(self._status.any())
        self._factor = np.ones(NUM_JOINTS)
        self._factor[self._status == STATUS_VERY_HOT] = th.very_hot_factor
        self._factor[self._status == STATUS_CRITICAL] = 0.0

    def status(self) -> np.ndarray:
        """LoLA joint status from temperature: 0 normal, 1 hot, 2 very hot, 3 critical."""
        return self._status.copy()
