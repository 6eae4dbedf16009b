"""The energy-saving stand (NaoTH's energy-efficient stand, adapted): a robot that stands
still for a while lets its legs carry the load with as little motor torque as it can.

NaoTH observed that a stand is rarely reached exactly, so joints stay in permanent tension:
they use the measured angles as targets, lower the stiffness, and relax the most loaded
joints step by step. The walk's stand puts the centre of mass ahead of the ankles (ready to
step forwards) with bent knees; standing still that costs torque at the ankles and knees for
nothing. After ``IDLE_AFTER`` seconds of standing with nothing asked, the saver:

- moves the torso fore and aft until the ankles carry no torque: the servo's position error
  at the ankle pitch (commanded minus measured) is the measured load, and an integrator
  turns it into an offset of the centre of mass (``trim``), so the body settles with its
  weight over the ankles on any body, not one tuned posture;
- leans the torso fore and aft the same way until the hip pitches carry no torque (masses
  and centres of mass a little off load the hips where the nominal NAO's are free; ``lean``);
- straightens the knees a little (``MAX_RAISE``, under a centimetre of torso height), which
  shortens the knee's lever;
- lowers the leg stiffness to ``SAVING_STIFFNESS``, and lets the walk's arms hang limp (they
  held 0.2 A of the saving stand's 1.72 A at their swing pose; limp, they draw nothing).

Asked for (``Walk(high_stand=True)``), the saving stand goes on up into B-Human's high stand:
the hips rise until the legs are straight (``high`` is the share of the way;
``skills.walk.soles`` lowers the ankles along a sine of it), so the knees, which carry most of
what the saving stand still draws, carry almost nothing; a robot waiting (set, penalised, a
keeper watching play far away) keeps its knees cool.

A request to walk restores the full stiffness at once and takes the posture back to the
walk's stand (at ``RESTORE_RATE``: a few cycles; from the high stand ``HIGH_LOWER_TIME``)
before the first step. If the trim runs to its bound or the torso tilts (the body is
drifting, not settling), the saver gives up and restores the stand, and tries again only
after another idle period.
"""

from __future__ import annotations

import math

#: Seconds of standing with a zero request before the stand starts saving.
IDLE_AFTER = 1.0
#: How much higher the hips go (m): straighter knees, under 1 cm of torso height.
MAX_RAISE = 0.0085
#: Seconds to raise the hips, and to take everything back before a step.
RAISE_TIME = 1.0
#: Centre-of-mass offset per radian of ankle servo error per second (m / rad / s), on the
#: error low-passed with ``ERROR_FILTER`` per cycle; the trim moves at most ``TRIM_RATE``.
TRIM_GAIN = 0.4
ERROR_FILTER = 0.05
TRIM_RATE = 0.01  # m/s
#: Torso lean per radian of hip pitch servo error per second (rad / rad / s), on the error
#: low-passed like the ankle's; it turns at most ``LEAN_RATE`` and stays within ``MAX_LEAN``.
LEAN_GAIN = 1.0
LEAN_RATE = 0.02  # rad/s
MAX_LEAN = 0.1  # rad
#: Seconds to rise from the saving stand into the high stand, and to come down from it (the
#: knees bend from all but straight to the walk's 1 rad at 2.6-3.5 rad/s, within their 6.4).
HIGH_RISE_TIME = 1.0
HIGH_LOWER_TIME = 0.3
#: How fast the posture goes back to the walk's stand (m/s of raise and trim; rad/s of lean).
RESTORE_RATE = 0.25
LEAN_RESTORE_RATE = 2.0
#: Bounds of the trim (m): past them the body is drifting, not settling.
TRIM_MIN, TRIM_MAX = -0.06, 0.02
#: Leg stiffness while saving (NaoTH interpolates between 0.3 and 1 by the joint error).
SAVING_STIFFNESS = 0.8
#: A torso tilting past this (rad) while saving means the posture is drifting.
DRIFT_TILT = 0.15


class EnergySaver:
    """The saving stand's state: ``raise_`` and ``trim`` (m) and ``lean`` (rad) for the
    generator, how far into the high stand it is (``high``, 0..1), and whether the legs may
    go soft."""

    def __init__(self) -> None:
        self.raise_ = 0.0
        self.high = 0.0
        self.trim = 0.0
        self.lean = 0.0
        self.saving = False
        self._idle = 0.0
        self._restoring = False
        self._error = 0.0
        self._hip_error = 0.0
        #: Off: the stand never saves (the plain stand, for comparisons).
        self.enabled = True

    def arm_stiffness(self, normal: float) -> float:
        """The arm stiffness to command now: limp while saving (the arms hang)."""
        return 0.0 if self.saving else normal

    def leg_stiffness(self, normal: float) -> float:
        """The leg stiffness to command now (the gait's ``normal`` unless saving)."""
        return min(normal, SAVING_STIFFNESS) if self.saving else normal

    @property
    def mode(self) -> str:
        """``"high"`` (all the way up into the high stand), ``"saving"`` or ``"plain"``."""
        if not self.saving:
            return "plain"
        return "high" if self.high == 1.0 else "saving"

    def update(
        self,
        dt: float,
        *,
        standing: bool,
        asked: bool,
        ankle_error: float,
        tilt: float,
        hip_error: float = 0.0,
        high: bool = False,
    ) -> bool:
        """Advance one cycle; True while the walk must not step yet (the stand is still
        being restored). ``ankle_error`` and ``hip_error``: mean commanded-minus-measured ankle
        and hip pitch (rad); ``high``: go on up into the high stand."""
        if asked or not standing or not self.enabled:
            self._idle = 0.0
            self.saving = False
            return self._restore(dt)
        if not (math.isfinite(ankle_error) and math.isfinite(hip_error) and math.isfinite(tilt)):
            return False
        self._idle += dt
        if not self.saving:
            if self._idle >= IDLE_AFTER and not self._restoring:
                self.saving = True
            else:
                self._restore(dt)
                return False
        self.raise_ = min(MAX_RAISE, self.raise_ + MAX_RAISE * dt / RAISE_TIME)
        rate = 1.0 / HIGH_RISE_TIME if high else -1.0 / HIGH_LOWER_TIME
        self.high = max(0.0, min(1.0, self.high + rate * dt))
        self._error += ERROR_FILTER * (ankle_error - self._error)
        self.trim = _unloaded(self.trim, self._error, TRIM_GAIN, TRIM_RATE, dt)
        self._hip_error += ERROR_FILTER * (hip_error - self._hip_error)
        lean = _unloaded(self.lean, self._hip_error, LEAN_GAIN, LEAN_RATE, dt)
        self.lean = max(-MAX_LEAN, min(MAX_LEAN, lean))
        if not TRIM_MIN <= self.trim <= TRIM_MAX or tilt > DRIFT_TILT:
            # Drifting, not settling: back to the walk's stand, and wait before trying again.
            self.saving = False
            self._idle = 0.0
            self._restoring = True
        return False

    def _restore(self, dt: float) -> bool:
        step = RESTORE_RATE * dt
        self._error = self._hip_error = 0.0
        self.raise_ = max(0.0, self.raise_ - step)
        self.trim = _towards_zero(self.trim, step)
        self.lean = _towards_zero(self.lean, LEAN_RESTORE_RATE * dt)
        self.high = max(0.0, self.high - dt / HIGH_LOWER_TIME)
        if self.raise_ == 0.0 and self.trim == 0.0 and self.lean == 0.0 and self.high == 0.0:
            self._restoring = False
            return False
        return True


def _unloaded(offset: float, load: float, gain: float, rate: float, dt: float) -> float:
    """``offset`` moved against a joint's (filtered) servo error ``load``: by ``gain`` per
    radian per second, at most ``rate`` per second."""
    step = gain * load * dt
    return offset - max(-rate * dt, min(rate * dt, step))


def _towards_zero(value: float, step: float) -> float:
    """``value`` moved ``step`` towards zero, not past it."""
    return math.copysign(max(0.0, abs(value) - step), value)
