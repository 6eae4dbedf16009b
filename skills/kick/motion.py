"""One standing kick's motion: the legs' joint targets, a cycle at a time.

The kick (rUNSWift's lean, lift, kick, unlean, with B-Human's and NaoTH's adaptation to the
ball) is planned as foot offsets in the frame of the ground under the support foot, through
the walk's sole geometry (``skills.walk.soles``):

1. **settle**: from the commanded legs to the walk stand, in joint space;
2. **shift**: the centre of mass over the support foot's ankle;
3. **wind**: the kicking foot lifted and drawn back, turned towards the kick's direction;
4. **swing**: along a curve through the contact point (``skills.kick.swing_curve``), where
   the foot's front meets the ball at ``contact_height`` moving in the kick's direction; its
   speed is set by power. With a ``whip`` the kicking leg's pitch joints are wound up past
   the contact posture instead and driven through it flat out (``skills.kick.whip``), and
   the support hip leans the torso forwards over the wind and snaps it back through the
   swing (``skills.kick.torso_snap``);
5. **hold**, **retract** over the stand place, **lower**, and **return** the weight.

**Balance from the model.** Every cycle the torso's shift over the support foot is solved so
that the model's centre of mass (``NaoKinematics``, from the leg angles the IK gives) sits
``com_ahead`` in front of the support ankle: the swinging leg moves the centre of mass by
centimetres, and without the shift the support ankle's servo sags under the offset load.

**Timing from the joints.** The swing is sampled along its curve (a few samples a cycle,
before the swing begins) and timed so that the fastest joint moves at the power's
``swing_speed``; the NAO's joints then stay coordinated
(a swing timed in space asks joints for more than they have, the safety stage clips them one
by one, and the sole pitches into the floor).

**Servo feed-forward.** A NAO servo is a position loop with a delay: commanded a fast path it
lags by a tenth of a second and cuts the swing short. The commands lead the plan by the
actuation delay and add ``servo_velocity_lead`` × rate and ``servo_accel_lead`` ×
acceleration (the damping and inertia over the servo's gain), so the foot follows the path.

**Planned a few solutions a cycle** (``advance``; ``skills.kick.planner``): the plan is a
generator that yields after every leg solution. The swing's timing samples and the motion's
samples are solved as they are needed too.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Iterator

import numpy as np

from lola_io.joints import JOINT_INDEX
from providers.interpolation import minimum_jerk
from providers.model import load_nao_model
from skills.kick.kick_ik import LEG_JOINTS, KickIK
from skills.kick.params import KickParameters
from skills.kick.reach import KickRefused, Reach, place_contact
from skills.kick.swing_curve import COM_ITERATIONS, SwingCurve, plan_swing
from skills.kick.tasks import Kick
from skills.kick.torso_snap import TorsoSnap
from skills.kick.whip import Whip, clear_of_floor, plan_whip
from skills.walk.params import GaitParameters

LEG_INDEX = tuple(JOINT_INDEX[name] for name in LEG_JOINTS)
_SWING_SAMPLES = 24
# What a look along the swing, keeping the whip off the floor, costs in timing samples.
_LOOK_COST = 3
# The phases whose commands the whip changes.
_WHIPPED = ("winding", "swinging", "holding", "retracting")


class KickMotion:
    """One kick with ``foot`` ("left" or "right") from ``start`` (the 25 commanded joint
    angles) to the walk stand of ``gait``.

    Raises :class:`KickRefused` when the ball is plainly out of reach; the rest of the plan
    is made by ``advance``, which raises it when a pose of the kick cannot be reached. Asked
    for its motion before then, it finishes the plan first.
    """

    def __init__(
        self,
        kick: Kick,
        foot: str,
        params: KickParameters,
        gait: GaitParameters,
        start: np.ndarray,
        period: float = 0.012,
    ) -> None:
        self._ik = KickIK(foot, gait, start)
        self.kick, self.params, self.gait, self.period = kick, params, gait, period
        self.foot = foot
        self._side = self._ik.side
        self._stance = self._ik.stance
        self._shift = np.array([gait.com_offset, 0.0])
        self._last_shift = self._shift.copy()
        self._foot_box = load_nao_model().foot
        body = np.array(start, dtype=float)
        body[~np.isfinite(body)] = 0.0
        self._start_legs = body[list(LEG_INDEX)]
        self._phases: list[tuple[str, float, float]] = []
        self._samples: list[np.ndarray] = []
        self._swing_grid = np.linspace(0.0, 1.0, _SWING_SAMPLES + 1)
        self._swing_angles: list[np.ndarray] = []
        self._swing_t: np.ndarray | None = None
        self._whip: Whip | None = None
        self._snap = TorsoSnap.for_kick(
            foot, *params.snap_at(kick.power), params.snap_delay, kick.direction
        )
        self._clearing: Iterator[None] | None = None  # the whip kept off the floor
        self._reach = Reach(self._side, params)
        self._contact = place_contact(kick, foot, self._stance, self._reach, self._foot_box.front)
        self._yaw = self._contact.yaw
        self._curve: SwingCurve | None = None
        self._aside_torso: float | None = None  # where solutions made aside start (``_aside``)
        self._planning = self._plan()
        #: Whether the plan is whole (``advance``).
        self.ready = False

    @property
    def start_legs(self) -> np.ndarray:
        """The leg angles the kick starts from (``LEG_JOINTS`` order)."""
        return self._start_legs

    def advance(self, solutions: float) -> bool:
        """Plan on for about ``solutions`` leg solutions (at least one, if any is left);
        whether the plan is whole. Raises :class:`KickRefused`."""
        stop = self._ik.solutions + solutions
        while not self.ready and self._ik.solutions < stop:
            try:
                next(self._planning)
            except StopIteration:
                break
        return self.ready

    def _complete(self) -> None:
        if not self.ready:
            self.advance(math.inf)

    def _plan(self) -> Iterator[None]:
        """The plan after the first checks, yielding after every leg solution."""
        self._curve = yield from plan_swing(
            self._ik,
            self.params,
            self.gait.com_offset,
            self._reach,
            self._contact,
            foot=self.foot,
            sole=self._foot_box,
        )
        wind, follow = self.params.whip_at(self.kick.power)
        if wind > 0.0 or follow > 0.0:
            com = np.array([self.params.com_ahead, 0.0])
            shift, yaw, contact = self._curve.shift, self._yaw, self._curve.contact
            lift = self._snap.lean if self._snap is not None else 0.0
            self._whip = yield from plan_whip(
                self._ik, shift, com, yaw, contact, wind, follow, lift
            )
        else:
            self._snap = None  # its toe lift is the whip's
        q, ok = self._ik.solve(self._shift, np.zeros(3), 0.0)
        yield
        if not ok:
            raise KickRefused("the walk stand cannot be reached with this gait")
        p, self._stand_q = self.params, q
        self._aside_torso = self._ik.torso_yaw
        settle = float(np.max(np.abs(q - self._start_legs))) / p.settle_speed
        self._stand_com = self._ik.com_in_support(q)
        self._append_phases(
            ("settling", max(settle, 2.0 * self.period)),
            ("shifting", p.shift_duration),
            ("winding", p.wind_duration),
        )
        self.ready = True

    def _append_phases(self, *durations: tuple[str, float]) -> None:
        t = self._phases[-1][2] if self._phases else 0.0
        for name, duration in durations:
            self._phases.append((name, t, t + duration))
            t += duration

    # -- planned a few samples a cycle ----------------------------------------------------

    def prepare(self, samples: int) -> None:
        """Solve up to ``samples`` more of the swing's timing samples (the engine asks each
        cycle, so no cycle pays for the whole swing; the swing is timed before it begins)."""
        self._complete()
        grid = self._swing_grid
        while samples > 0 and len(self._swing_angles) < len(grid):
            s = grid[len(self._swing_angles)]
            # Timing needs the joints' travel, not the foot's exact turn.
            curve = self._swing
            with self._aside():
                q, _ = self._ik.solve(curve.shift, curve.point(s), self._yaw, exact=False)
            self._swing_angles.append(q)
            samples -= 1
        if len(self._swing_angles) == len(grid) and self._swing_t is None:
            step = np.max(np.abs(np.diff(np.array(self._swing_angles), axis=0)), axis=1)
            speed = self.params.swing_speed_at(self.kick.power)
            self._swing_t = np.concatenate([[0.0], np.cumsum(step / speed)])
            p = self.params
            self._append_phases(
                ("swinging", float(self._swing_t[-1])),
                ("holding", p.hold_duration),
                ("retracting", p.retract_duration),
                ("lowering", p.lower_duration),
                ("returning", p.shift_duration),
            )
            if self._whip is not None:
                _, start, end = self._phases[3]  # the swing's
                # Every third cycle of the swing, and the hold (about 10 plans).
                times = [*np.arange(0.0, end - start, 3.0 * self.period), end - start + 0.05]
                plan_at = functools.partial(self._plan_aside, start)
                self._clearing = clear_of_floor(self._whip, self._ik, plan_at, times)
        # A look along the swing (three exact solutions) costs about three timing samples:
        # the engine's budget makes one a cycle, settled long before the winding that first
        # uses the whip (the shift alone lasts 50 cycles; ``_path`` settles it regardless).
        while samples > 0 and self._clearing is not None:
            self._look()
            samples -= _LOOK_COST

    def _look(self) -> None:
        assert self._clearing is not None
        try:
            next(self._clearing)
        except StopIteration as done:
            self._whip, self._clearing = done.value, None
            # The snap's toe lift is the whip's: the torso leans as far as the lift it has.
            if self._snap is not None:
                share = 0.0 if self._whip is None else self._whip.share
                self._snap = self._snap.scaled(share)

    def _plan_aside(self, start: float, swung: float) -> np.ndarray:
        """The plan's leg angles ``swung`` s into the swing (which starts at ``start``), made
        aside (``_aside``)."""
        with self._aside():
            return self._sample(start + swung)

    @contextlib.contextmanager
    def _aside(self) -> Iterator[None]:
        """Solutions made aside from the plan's samples (the swing's timing, the whip's looks)
        start from one posture, the swing's first torso shift (a cold start's few iterations
        do not reach the samples' own) and the torso turn the plan ended on (its walk
        stand's), whatever the plan has sampled by then, and leave where the next sample
        starts from as it was. The torso-turn correction does not converge
        (``KickIK.solve``), so a solution depends on where it starts: from the last sample,
        the engine's plan (a few solutions a cycle) differed from one made at once by up to
        0.2 rad in the swing."""
        kept = self._last_shift, self._ik.torso_yaw
        self._last_shift, self._ik.torso_yaw = self._swing.shift, self._aside_torso
        try:
            yield
        finally:
            self._last_shift, self._ik.torso_yaw = kept

    def _timed(self) -> None:
        """The swing timed and the whip settled (what is left of both, at once)."""
        self.prepare(len(self._swing_grid))
        while self._clearing is not None:
            self._look()

    @property
    def settle_travel(self) -> float:
        """How far (rad) the settle moves the leg joint that moves most: from the start to the
        kick's stand."""
        self._complete()
        return float(np.max(np.abs(self._stand_q - self._start_legs)))

    @property
    def duration(self) -> float:
        """The whole kick's duration, s."""
        self._timed()
        return self._phases[-1][2]

    @property
    def cycles(self) -> int:
        """The kick's length in cycles."""
        return math.ceil(self.duration / self.period) + 1

    @property
    def contact_time(self) -> float:
        """When the foot is planned to meet the ball (s after the start)."""
        return self._swing_span()[0] + float(np.interp(0.5, self._swing_grid, self._swing_t))

    def _swing_span(self) -> tuple[float, float]:
        """When the swing starts and ends (s after the start)."""
        self._timed()
        _, start, end = self._phases[3]
        return start, end

    # -- what the engine asks each cycle --------------------------------------------------

    def phase(self, k: int) -> str:
        """The phase of cycle ``k`` (the last phase's after its end)."""
        return self._phase_span(k * self.period)[0]

    def single_support(self, k: int) -> bool:
        """Whether cycle ``k`` stands on the support foot alone."""
        return self.phase(k) in ("winding", "swinging", "holding", "retracting", "lowering")

    def command(self, k: int) -> np.ndarray:
        """The leg joint targets (``LEG_JOINTS`` order) to send at cycle ``k``: the plan
        ``servo_delay`` cycles ahead, with the whip's joints on the whip's path
        (``skills.kick.whip``), and the servo feed-forward (none for the whip's joints where
        the swing and the hold reach into it: they run flat out there, and their sudden start
        would spike the lead by a radian)."""
        p = self.params
        j = k + int(p.servo_delay)
        q_prev, q, q_next = self._path(j - 1), self._path(j), self._path(j + 1)
        dt = self.period
        rate = (q_next - q_prev) / (2.0 * dt)
        accel = (q_next - 2.0 * q + q_prev) / (dt * dt)
        command = q + p.servo_velocity_lead * rate + p.servo_accel_lead * accel
        if self._whip is not None and {self.phase(i) for i in (j - 1, j, j + 1)} & {
            "swinging",
            "holding",
        }:
            flat_out = list(self._whip.indices)
            command[flat_out] = q[flat_out]
        if self._snap is None:
            return command
        # The whip (and with it the snap's share) is settled by ``_path`` above.
        return self._snap.apply(command, *self._progress(j * self.period - self._snap.delay))

    def _progress(self, t: float) -> tuple[str, float, float]:
        """The phase at ``t`` (s after the start), its minimum-jerk progress, and the time
        since the swing began (0 outside the swing and the hold)."""
        name, start, end = self._phase_span(max(t, 0.0))
        eased = minimum_jerk(0.0, 1.0, start, end - start, t)
        swung = t - self._swing_span()[0] if name in ("swinging", "holding") else 0.0
        return name, eased, swung

    def _path(self, k: int) -> np.ndarray:
        """The planned leg angles at cycle ``k`` with the whip's joints on its path."""
        q = self.planned(k)
        t = max(k, 0) * self.period
        if self._phase_span(t)[0] not in _WHIPPED or self._whip is None:
            return q
        # Never a whip that may still change (the clearance): timed and settled first (the
        # engine's budget has done both long before the winding).
        self._timed()
        if self._whip is None:
            return q
        return self._whip.path(q, *self._progress(t))

    def planned(self, k: int) -> np.ndarray:
        """The planned leg angles at cycle ``k`` (the first before 0, the last after the end).

        Before the swing is timed only the phases up to the wind-up exist, and the engine
        asks no further than a few cycles ahead of them."""
        self._complete()
        k = max(k, 0)
        if self._swing_t is not None:
            k = min(k, self.cycles - 1)
        while len(self._samples) <= k:
            self._samples.append(self._sample(len(self._samples) * self.period))
        return self._samples[k]

    def finished(self, k: int) -> bool:
        """Whether the kick is over at cycle ``k`` (never before the swing is timed)."""
        return self._swing_t is not None and k >= self.cycles

    @property
    def _swing(self) -> SwingCurve:
        assert self._curve is not None, "the swing is planned first"
        return self._curve

    def _foot_at(self, t: float) -> tuple[float, np.ndarray, float]:
        """(weight share on the support foot, kicking foot offset (x, y, z), its yaw) at t."""
        p = self.params
        name, start, end = self._phase_span(t)
        k = minimum_jerk(0.0, 1.0, start, end - start, t)
        zero = np.zeros(3)
        if name in ("settling", "shifting"):
            return (k if name == "shifting" else 0.0), zero, 0.0
        curve = self._swing
        if name == "winding":
            return 1.0, curve.wind * k, self._yaw * k
        if name == "swinging":
            s = float(np.interp(t - start, self._swing_t, self._swing_grid))
            return 1.0, curve.point(s), self._yaw
        if name == "holding":
            return 1.0, curve.follow, self._yaw
        over = np.array([0.0, 0.0, p.retract_height])
        if name == "retracting":
            return 1.0, curve.follow + (over - curve.follow) * k, self._yaw * (1.0 - k)
        if name == "lowering":
            return 1.0, over * (1.0 - k), 0.0
        if name == "returning":
            return 1.0 - k, zero, 0.0
        return 0.0, zero, 0.0

    def _phase_span(self, t: float) -> tuple[str, float, float]:
        self._complete()
        if t >= self._phases[-1][2]:
            self._timed()
        for span in self._phases:
            if t < span[2]:
                return span
        return self._phases[-1]

    def _sample(self, t: float) -> np.ndarray:
        name, start, end = self._phase_span(t)
        if name == "settling":
            k = minimum_jerk(0.0, 1.0, start, end - start, t)
            return self._start_legs + (self._stand_q - self._start_legs) * k
        weight, foot, yaw = self._foot_at(t)
        want = (1.0 - weight) * self._stand_com + weight * np.array([self.params.com_ahead, 0.0])
        shift, q = self._last_shift, self._stand_q
        for _ in range(COM_ITERATIONS):
            q, _ = self._ik.solve(shift, foot, yaw)
            shift = shift - (self._ik.com_in_support(q) - want)
        self._last_shift = shift
        return q
