"""Servo identification on a lifted NAO: the actuation delay and the feed-forward leads.

The kick leads its commands by the actuation delay and adds ``servo_velocity_lead`` times the
planned joint rate and ``servo_accel_lead`` times its acceleration (``skills/kick/motion.py``):
a position servo commanded a fast path lags it. The shipped values are naosim's (``kick.yaml``);
a real NAO's are to be measured, and this module measures them.

The robot hangs in the air (on a stand, or held), so a leg moves nothing but itself. Each joint
of one leg is moved in turn by a small sum of sines about a bent-leg posture, small enough that
the servo stays well inside its torque (linear), and the commands sent and the angles measured
are kept. A position servo of gain k, damping c and inertia J, with gravity's torque close to
linear in the angle, obeys k (u(t - d) - q) = J q'' + c q' + g0 + g1 q, so the command sent d
cycles before is linear in the measured angle and its derivatives:

    u[n - d] = a q[n] + v q'[n] + w q''[n] + b

:func:`fit_joint` fits that by least squares for every d up to ``MAX_DELAY``: the delay is the
d that fits best, v = c / k is the velocity lead, w = J / k the acceleration lead, and a = 1 +
g1 / k (gravity's share, near 1). The derivatives come from a Savitzky-Golay filter over the
whole record (offline, so centred: no lag). A fit with a negative lead, which no servo has, is
not taken. :func:`fit_leg` takes one delay for the whole leg.

:class:`ServoIdentification` is the whole session, one LoLA frame at a time, behind the
project's :class:`~motiond.safety.SafetyStage` (limits, joint speeds, finite values). It refuses
to start on a robot whose feet carry load, and stops if they take load during the session.
``motiond identify`` runs it on a LoLA socket.
"""

from __future__ import annotations

import math

import attrs
import numpy as np

from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from motiond.robot_state import RobotState
from motiond.safety import LOLA_PERIOD, SafetyStage
from motiond.supervisor import ROBOT_MASS_KG, STANDING_LOAD_SHARE, STANDING_TILT
from providers.interpolation import minimum_jerk_profile

#: The leg joints identified, in order (without the side's letter). The shared hip yaw-pitch
#: is held, not moved: it turns both legs.
LEG_JOINTS = ("HipPitch", "KneePitch", "AnklePitch", "HipRoll", "AnkleRoll")
#: The joints whose leads the kick needs most: its whip runs on the pitch joints.
LEAD_JOINTS = ("HipPitch", "KneePitch", "AnklePitch")
#: Longest actuation delay looked for (cycles): the kick's own bound (``servo_delay``).
MAX_DELAY = 6
#: The posture the leg is moved about (rad): knees bent as in the walk stand, the foot level.
BENT_LEG = {"HipPitch": -0.45, "KneePitch": 0.9, "AnklePitch": -0.45, "HipRoll": 0.0}
#: Frequencies (Hz) of the sines: 0.4 to 4.3 Hz spans the kick's and the walk's swings.
FREQUENCIES = (0.4, 0.9, 1.7, 2.9, 4.3)
#: Peak of the sum of sines (rad): at 0.1 a servo of naosim's gain asks about 1 N m.
AMPLITUDE = 0.1
#: Seconds moving from the measured posture to the bent leg, stiffening.
RAMP_SECONDS = 2.0
#: Frames the robot must be seen in the air, one after another, before anything moves, and
#: the most seconds to wait for that (a robot just picked up; a simulator's first frame).
LIFTED_FRAMES = 10
LIFTED_WAIT_SECONDS = 1.0
#: The Savitzky-Golay filter of the measured angles: half-width (samples), polynomial order.
_SG_HALF, _SG_ORDER = 3, 3
#: Seconds at rest before each joint's excitation, and its fade in and out.
REST_SECONDS = 0.5
FADE_SECONDS = 0.5


class NotLifted(RuntimeError):
    """The robot's feet carry load or it is not upright: a leg cannot be moved freely."""


@attrs.frozen
class JointFit:
    """One joint's servo, identified."""

    joint: str
    delay: int  # cycles from a command to the angle it moves
    velocity_lead: float  # s, damping over gain
    accel_lead: float  # s^2, inertia over gain
    gravity_share: float  # a: 1 + gravity's stiffness over the servo's
    residual: float  # rad rms: how far the fitted commands are from the ones sent
    amplitude: float  # rad rms of the measured motion


def _savitzky_golay(period: float) -> np.ndarray:
    """Rows: the filter's weights for the value, the first and the second derivative."""
    offsets = np.arange(-_SG_HALF, _SG_HALF + 1, dtype=np.float64)
    weights = np.linalg.pinv(np.vander(offsets, _SG_ORDER + 1, increasing=True))
    return np.stack([weights[0], weights[1] / period, 2.0 * weights[2] / period**2])


def _delay_fits(
    joint: str, command: np.ndarray, measured: np.ndarray, period: float
) -> list[tuple[float, np.ndarray]]:
    """For every delay d from 0 to ``MAX_DELAY``: (residual rms, [a, v, w]) of the least-squares
    fit ``u[n - d] = a q[n] + v q'[n] + w q''[n] + b``; a last element holds the measured
    motion's rms. A fit whose leads are negative (no servo has them) gets an infinite residual.
    """
    u = np.asarray(command, dtype=np.float64)
    q = np.asarray(measured, dtype=np.float64)
    if u.shape != q.shape or u.ndim != 1:
        raise ValueError(f"fit_joint: command and measured must be equal 1-d arrays for {joint}")
    if not (np.all(np.isfinite(u)) and np.all(np.isfinite(q))):
        raise ValueError(f"fit_joint: non-finite samples for {joint}")
    if len(q) < 4 * (MAX_DELAY + _SG_HALF):
        raise ValueError(f"fit_joint: {len(q)} samples are too few for {joint}")
    # Weights are applied as a correlation (the filter is centred), hence the reversal.
    filtered = [np.convolve(q, row[::-1], mode="valid") for row in _savitzky_golay(period)]
    n = np.arange(_SG_HALF + MAX_DELAY, len(q) - _SG_HALF)  # the same frames for every d
    features = np.column_stack([f[n - _SG_HALF] for f in filtered] + [np.ones(len(n))])
    fits = []
    for d in range(MAX_DELAY + 1):
        solution, *_ = np.linalg.lstsq(features, u[n - d], rcond=None)
        residual = float(np.sqrt(np.mean((features @ solution - u[n - d]) ** 2)))
        if solution[1] < 0.0 or solution[2] < 0.0:
            residual = math.inf
        fits.append((residual, solution[:3]))
    fits.append((float(np.std(filtered[0])), np.zeros(3)))
    return fits


def _joint_fit(joint: str, fits: list[tuple[float, np.ndarray]], delay: int) -> JointFit:
    residual, (a, v, w) = fits[delay]
    return JointFit(joint, delay, float(v), float(w), float(a), residual, fits[-1][0])


def fit_joint(
    joint: str,
    command: np.ndarray,
    measured: np.ndarray,
    period: float = LOLA_PERIOD,
    delay: int | None = None,
) -> JointFit:
    """Fit ``u[n - d] = a q[n] + v q'[n] + w q''[n] + b`` to one joint's record (``command``
    sent after frame n, ``measured`` read in frame n) at ``delay``, else at the d that fits
    best."""
    fits = _delay_fits(joint, command, measured, period)
    if delay is None:
        delay = min(range(MAX_DELAY + 1), key=lambda d: fits[d][0])
    elif not 0 <= delay <= MAX_DELAY:
        raise ValueError(f"fit_joint: delay must be in 0..{MAX_DELAY}, got {delay}")
    return _joint_fit(joint, fits, delay)


def fit_leg(
    records: dict[str, tuple[np.ndarray, np.ndarray]], period: float = LOLA_PERIOD
) -> tuple[JointFit, ...]:
    """Fit every joint's (command, measured) record at one delay, the one that fits them best
    together: the delay is the robot's (its bus and servo boards), not a joint's. Alone, a
    joint's best delay can be a cycle either way: a command holds for a whole cycle, so the
    servo's response to it starts half-way between two delays, and the acceleration lead
    takes up the difference."""
    fits = {joint: _delay_fits(joint, *record, period) for joint, record in records.items()}
    delay = min(range(MAX_DELAY + 1), key=lambda d: sum(f[d][0] ** 2 for f in fits.values()))
    if not all(math.isfinite(f[delay][0]) for f in fits.values()):
        raise ValueError(
            f"fit_leg: no delay up to {MAX_DELAY} cycles gives every joint non-negative leads: "
            "these records are not a position servo's (was the leg free to move?)"
        )
    return tuple(_joint_fit(joint, f, delay) for joint, f in fits.items())


@attrs.frozen
class ServoReport:
    """What a session found: one fit per joint of ``leg``."""

    leg: str
    fits: tuple[JointFit, ...]

    def kick_parameters(self) -> dict[str, float]:
        """``kick.yaml``'s servo keys: the delay, and the pitch joints' leads (their median)."""
        pitch = [f for f in self.fits if f.joint[1:] in LEAD_JOINTS]
        return {
            "servo_delay": self.fits[0].delay,
            "servo_velocity_lead": float(np.median([f.velocity_lead for f in pitch])),
            "servo_accel_lead": float(np.median([f.accel_lead for f in pitch])),
        }


def _ease(x: float) -> float:
    """A minimum-jerk share of ``x`` clipped to [0, 1]: ramps and fades start and end still."""
    return float(minimum_jerk_profile(min(1.0, max(0.0, x))))


class ServoIdentification:
    """One identification session: :meth:`step` answers each sensor frame (raising
    :class:`NotLifted` when the robot is not in the air), :attr:`done` ends it (``step`` then
    answers None), :meth:`report` fits the record."""

    def __init__(
        self,
        leg: str = "right",
        *,
        seconds: float = 6.0,
        amplitude: float = AMPLITUDE,
        period: float = LOLA_PERIOD,
    ) -> None:
        if leg not in ("left", "right"):
            raise ValueError(f"ServoIdentification: leg must be 'left' or 'right', got {leg!r}")
        if not (math.isfinite(seconds) and 2.0 <= seconds <= 60.0):
            raise ValueError(f"ServoIdentification: seconds must be in [2, 60], got {seconds!r}")
        if not (math.isfinite(amplitude) and 0.0 < amplitude <= 0.2):
            raise ValueError(
                f"ServoIdentification: amplitude must be in (0, 0.2] rad, got {amplitude!r}"
            )
        self.leg, self.seconds, self.amplitude, self.period = leg, seconds, amplitude, period
        side = leg[0].upper()
        self.joints = tuple(side + name for name in LEG_JOINTS)
        self._index = [JOINT_INDEX[name] for name in self.joints]
        self._held = [*self._index, JOINT_INDEX["LHipYawPitch"]]
        self._bent = {JOINT_INDEX[side + k]: v for k, v in BENT_LEG.items()}
        self._safety = SafetyStage(period=period)
        self._state = RobotState()
        self._frames = 0  # answered since the robot was seen lifted
        self._waited = 0  # frames answered before that
        self._airborne = 0  # frames in the air one after another
        self._start: np.ndarray | None = None
        self._hold = np.zeros(NUM_JOINTS)
        self._hold_stiffness = np.zeros(NUM_JOINTS)
        self._start_stiffness = np.zeros(NUM_JOINTS)
        self._goal_stiffness = np.zeros(NUM_JOINTS)
        self._goal_stiffness[self._held] = 1.0
        self._stiffness = np.zeros(NUM_JOINTS)
        self._sent: list[np.ndarray] = []
        self._read: list[np.ndarray] = []
        # Each joint's excitation: a phase per sine (fixed, so every session is the same).
        self._phases = np.random.default_rng(7).uniform(0.0, 2.0 * np.pi, len(FREQUENCIES))
        self.done = False

    @property
    def duration(self) -> float:
        """The session's length (s), from the robot seen in the air."""
        return RAMP_SECONDS + len(self.joints) * (REST_SECONDS + self.seconds)

    def _lifted(self, frame: SensorFrame) -> str | None:
        """Why the robot is not in the air, or None."""
        s = self._state
        s.update(frame)
        if s.left_contact or s.right_contact or s.tilt > STANDING_TILT:
            load = frame.left_fsr_total + frame.right_fsr_total
            return (
                f"the feet carry {load:.1f} kg and the torso is tilted {s.tilt:.2f} rad: "
                "identify needs the robot upright in the air (on a stand, or held), feet free"
            )
        return None

    def _excitation(self, t: float) -> float:
        """The sum of sines at ``t`` s into a joint's excitation (rad), faded in and out."""
        fade = min(_ease(t / FADE_SECONDS), _ease((self.seconds - t) / FADE_SECONDS))
        waves = np.sin(2.0 * np.pi * np.asarray(FREQUENCIES) * t + self._phases)
        return fade * self.amplitude * float(waves.sum()) / len(FREQUENCIES)

    def step(self, frame: SensorFrame) -> ActuatorFrame | None:
        """The frame to answer ``frame`` with (None once :attr:`done`). A robot standing on
        its feet at the first frame is refused at once (:class:`NotLifted`), nothing sent.
        Otherwise, until it has been in the air for ``LIFTED_FRAMES`` frames, it is held as
        it is (the first frame's angles at the stiffness LoLA reports); raises
        :class:`NotLifted` if it is not within ``LIFTED_WAIT_SECONDS``, or as soon as it is
        not once the leg moves."""
        if self.done:
            return None
        why = self._lifted(frame)
        if self._start is None:
            load = frame.left_fsr_total + frame.right_fsr_total
            if self._waited == 0 and why and load >= STANDING_LOAD_SHARE * ROBOT_MASS_KG:
                # Standing on its feet (as the daemon's start-up tells it): not touched at all.
                raise NotLifted(why)
            if self._waited == 0:
                # Held where the first frame found it: targets that followed the measured
                # angles would let a loaded joint sag a little further every cycle.
                self._hold = np.array(frame.position, dtype=np.float64)
                self._hold_stiffness = np.clip(frame.stiffness, 0.0, 1.0)
                self._safety.reset(self._hold)
            self._airborne = 0 if why else self._airborne + 1
            if self._airborne < LIFTED_FRAMES:
                self._waited += 1
                if self._waited * self.period > LIFTED_WAIT_SECONDS:
                    raise NotLifted(why or "the robot did not stay in the air")
                position, stiffness = self._safety.apply(self._hold, self._hold_stiffness)
                return ActuatorFrame(position=position.copy(), stiffness=stiffness.copy())
            self._start = np.array(frame.position, dtype=np.float64)
            np.copyto(self._start_stiffness, np.clip(frame.stiffness, 0.0, 1.0))
        elif why:
            raise NotLifted(why)
        t = self._frames * self.period
        self._frames += 1
        target = self._start.copy()
        ramp = _ease(t / RAMP_SECONDS)
        for i, bent in self._bent.items():
            target[i] = self._start[i] + ramp * (bent - self._start[i])
        # Every joint from the stiffness it had: the leg to full, the rest to limp.
        self._stiffness[:] = self._start_stiffness + ramp * (
            self._goal_stiffness - self._start_stiffness
        )
        moving = None
        into = t - RAMP_SECONDS
        if into >= 0.0:
            slot, at = divmod(into, REST_SECONDS + self.seconds)
            if slot >= len(self.joints):
                self.done = True
            elif at >= REST_SECONDS:
                moving = int(slot)
                target[self._index[moving]] += self._excitation(at - REST_SECONDS)
        position, stiffness = self._safety.apply(target, self._stiffness, frame.position)
        if moving is not None:
            self._read.append(np.array([moving, *frame.position[self._index]]))
            self._sent.append(position[self._index].copy())
        return ActuatorFrame(position=position.copy(), stiffness=stiffness.copy())

    def report(self) -> ServoReport:
        """Fit every joint's record (after :attr:`done`)."""
        if not self._read:
            raise RuntimeError("ServoIdentification.report: nothing recorded yet")
        read, sent = np.array(self._read), np.array(self._sent)
        records = {}
        for k, joint in enumerate(self.joints):
            rows = read[:, 0] == k
            records[joint] = (sent[rows, k], read[rows, 1 + k])
        return ServoReport(self.leg, fit_leg(records, self.period))


__all__ = [
    "AMPLITUDE",
    "LEAD_JOINTS",
    "LEG_JOINTS",
    "JointFit",
    "NotLifted",
    "ServoIdentification",
    "ServoReport",
    "fit_joint",
    "fit_leg",
]
