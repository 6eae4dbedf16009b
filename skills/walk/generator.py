"""The gait generator: foot poses every cycle from a velocity request and the sensors.

A Walk2014-family step generator (rUNSWift, B-Human, HULKs; ../shared/reference/walk.md):

- Each step lasts a nominal period ``T``. The support foot slides backwards under the hip at
  the walk's speed (linear profile); the swing foot travels forwards with zero speed at
  lift-off and touchdown (``smooth_step``) and lifts on ``lift_profile``, landing flat with
  zero vertical speed.
- **Support exchange by foot pressure.** A step ends when the swing foot carries weight
  (at least ``switch_pressure`` kg and more than the support foot) once ``switch_min_phase``
  of the period has passed; past ``switch_timeout`` periods it ends anyway (the nominal
  period is the fallback when the soles read nothing). An early touchdown freezes the swing
  foot where it landed: the next step starts from the feet as they are.
- **Sideways and turning steps open and close**: the leading foot (left when moving or turning
  left) steps out on its step and both feet come back together on the next, so the feet never
  cross and never come closer than the stance width; both toe out, never in, so the one hip
  yaw-pitch motor serves both legs. Walking straight sideways near the limit, a closing
  foot's sideways travel runs ahead of its lift (``close_lead``: the swing hip roll lags).
- **Balance** (``skills.walk.posture``, ``skills.walk.balance``): the filtered gyro's pitch
  rate goes to the support ankle and hip pitch, its roll rate to the support ankle and hip
  roll (applied as rotations of the sole target about those joints, so they pass through the
  leg IK unchanged).
- **Starting** (:meth:`WalkGenerator.begin`): the soles go from where another task left them
  to the walk stand over ``start_duration`` (minimum jerk); the first step then waits until
  the filtered gyro's pitch and roll rates are below ``start_quiet_gyro`` (at most
  ``start_quiet_wait``): the servos lag the blend, and the body is still moving as it ends.
- **Each step's velocity and shape** are planned as it begins (``skills.walk.next_step``):
  the request ratcheted within the acceleration limits, the balance guards and catch steps,
  the in-walk kick's line-up, kick and placing steps, and footsteps.

All poses are built in an upright frame ``H`` at the middle of the hip joints; the torso leans
forwards by the gait's lean. The generator is plain maths with a clock passed in: no Director,
no socket (tests step it directly).
"""

from __future__ import annotations

import enum
from typing import Any

import attrs
import numpy as np

from skills.walk.footstep_queue import FootstepQueue
from skills.walk.footsteps import PlannedStep
from skills.walk.gaits import GaitChange
from skills.walk.kick_step import KickStep
from skills.walk.next_step import (
    KICK_SETTLE_STEPS,
    StepShape,
    footstep_stride,
    lined_up,
    velocity_stride,
    walk_velocity,
)
from skills.walk.odometry import Pose2D
from skills.walk.params import GaitParameters
from skills.walk.posture import (
    BodySense,
    WalkPosture,
    WalkTargets,
    step_posture,
    walk_targets,
)
from skills.walk.protection import Protection
from skills.walk.request import ZERO, Velocity
from skills.walk.soles import SoleGeometry
from skills.walk.start import WalkStart
from skills.walk.step import Foot
from skills.walk.stop_plan import StopStep, dry_run_stop
from skills.walk.stride import Stride


class Phase(enum.Enum):
    """What the walk is doing."""

    STANDING = "standing"
    STARTING = "starting"
    WALKING = "walking"
    STOPPING = "stopping"


class WalkGenerator:
    """Foot targets for a velocity request, one :meth:`update` per cycle (module docstring)."""

    def __init__(self, gait: GaitParameters) -> None:
        self._geometry = SoleGeometry()
        self._hip_y = self._geometry.hip_y
        self.gait = gait
        self.phase = Phase.STANDING
        self.left = Foot()
        self.right = Foot()
        self.swing_left = True
        self.target = ZERO  # the clamped request
        self.executed = ZERO  # the velocity of the current step (ratcheted)
        self.step_count = 0
        self.killed = False
        #: Maps a velocity to the one steps are planned for (``skills.walk.calibration``).
        self.calibrate = _uncalibrated
        #: Maps a footstep's landing (move, left) to where it is aimed
        #: (``skills.walk.placement``).
        self.aim = _as_asked
        #: Share of the gait's step frequency (1: its own period; smaller: longer steps).
        self.frequency = 1.0
        #: The left and right foot's own steps (NAOqi's per-foot move config): the period,
        #: lift and largest step of a foot's steps come from its gait; None: ``gait``'s.
        self.foot_gaits: tuple[GaitParameters | None, GaitParameters | None] = (None, None)
        self._protection = Protection()
        #: The step under way (or the last one, standing).
        self.stride = Stride(gait.step_period)
        #: The gait walked towards; ``gait`` is it, or a blend on the way to it.
        self.target_gait = gait
        self._gait_change: GaitChange | None = None
        self._body = BodySense()
        #: The start under way or last made (``skills.walk.start``), None before any.
        self.start: WalkStart | None = None
        #: The standing posture's offsets from the gait's (``skills.walk.energy``): hips
        #: raised (m), the share of the way on to straight legs, centre of mass moved
        #: forwards (m) and torso leaning further (rad); ``hold`` keeps it from stepping.
        self.stand_raise = 0.0
        self.stand_high = 0.0
        self.stand_trim = 0.0
        self.stand_lean = 0.0
        self.hold = False
        #: How far (m, forwards) arms held by another task move the centre of mass from where
        #: the walk's own arms would (``skills.walk.arms``): the posture's offset takes it back.
        self.arm_com = 0.0
        #: Footsteps to make (``skills.walk.footsteps``): queued, being made, made.
        self.steps = FootstepQueue()
        #: Whether the step being made is a footstep or the step closing the feet after them.
        self.placing = False
        #: An in-walk kick to make (``skills.walk.kick_step``), and whether this step is it.
        self.kick: KickStep | None = None
        self.kicking = False
        self._steps_since_kick = KICK_SETTLE_STEPS
        self._caught = False  # the step under way is a catch step (``next_step``)
        #: The step that ended last: its support foot (True: left), where its plan landed the
        #: swing sole seen from the support sole, and its velocity; set as it ends.
        self.ended: tuple[bool, Pose2D, Velocity] = (True, Pose2D(), ZERO)
        self._stop_cache: tuple[tuple, tuple[StopStep, ...]] | None = None  # (key, steps)

    # ------------------------------------------------------------------ commands

    def set_gait(self, gait: GaitParameters) -> None:
        """Walk with ``gait``, blended in from the gait in use over two of its steps
        (``skills.walk.gaits.GaitChange``)."""
        self.target_gait = gait
        self._gait_change = None if gait == self.gait else GaitChange(self.gait, gait)
        if self._gait_change is None:
            self.gait = gait

    def set_request(self, velocity: Velocity) -> None:
        """The (already clamped) velocity to walk at; zero stops at the next chance."""
        self.target = velocity

    def begin(self, left_sole: np.ndarray, right_sole: np.ndarray) -> None:
        """Start from the soles where they are (4x4, torso frame): move them to the walk
        stand over ``start_duration``, then step."""
        self.phase = Phase.STARTING
        self.left, self.right = Foot(), Foot()
        self.executed = ZERO
        self.stride.landing = False
        # A kill survives a restart (the legs taken and given back): only resume() ends it.
        self.start = WalkStart(left_sole, right_sole)

    def kill(self) -> None:
        """Stop stepping now (NAOqi's killMove): no more steps, and the swing foot goes down
        where it is over what is left of its step (at most one period).

        Putting it down at once fell sideways at 61 of 360 kill moments (40 phases of the
        step, three speeds, three bodies): the body, rocking towards the swing foot as every
        step does, rolled over it before it was down (the lifted leg took 0.3 s to reach the
        floor from a swing cut short). Finishing the step's lift and its single-support
        posture lands it in time."""
        self.killed = True
        stepping = self.phase in (Phase.WALKING, Phase.STOPPING)
        if not stepping or self.stride.t >= self.stride.period:
            self._halt()
            return
        self.steps.drop()
        here = (attrs.evolve(self.left, z=0.0), attrs.evolve(self.right, z=0.0))
        # It ends with the feet where they were at the kill.
        self.stride = attrs.evolve(self.stride, start=here, end=here, landing=True)
        self.phase = Phase.STOPPING

    def resume(self) -> None:
        """Let the request through again after :meth:`kill`."""
        self.killed = False

    def support_end(self) -> tuple[bool, Pose2D] | None:
        """Where the step under way puts the support foot, seen from the body (levelled, as
        the odometry sees it): (True if the left foot supports, its pose); None standing."""
        if self.phase in (Phase.STANDING, Phase.STARTING):
            return None
        left = not self.swing_left
        return left, self.sole_end(left)

    def swing_end(self) -> Pose2D:
        """Where the step under way puts the swing sole, seen from the support sole (its
        plan: where it lands, as far as the plan knows)."""
        left = not self.swing_left
        return self.sole_end(left).inverse().compose(self.sole_end(not left))

    def sole_end(self, left: bool) -> Pose2D:
        """Where the step under way puts the ``left`` (or right) sole, seen from the body."""
        end = self.stride.end[0 if left else 1]
        # The sole's place: its stance and its toe-out's heel shift (``SoleGeometry.pose``).
        out = self._hip_y + self.gait.foot_spread + self._geometry.heel_shift(end.yaw)
        com = self._posture().com
        return Pose2D(end.x - com, end.y + (out if left else -out), end.yaw)

    def stop_steps(self) -> list[StopStep]:
        """The steps a stop asked now would make, as planned: the step under way, then the
        ones that slow down and close the feet; empty standing.

        Found by a dry run: a copy of this generator is asked to stop and its steps are
        ended at their planned time (no sensors), so it is the walk's own stopping logic."""
        if self.phase in (Phase.STANDING, Phase.STARTING):
            return []
        # The run costs a quarter of a millisecond here, too much to repeat every cycle on a
        # NAO. Every step (and a kill) plans new ends, so ``stride.end`` stands for the step
        # and what was set as it began (phase, velocity, footstep); the rest may change within it.
        # (The torso's pitch, which may shrink a backward step, is read as the step begins.)
        key = (self.stride.end, self.gait, self.frequency, self.foot_gaits, self._blocked())
        if self._stop_cache is not None and self._stop_cache[0] == key:
            return list(self._stop_cache[1])
        # The copy shares what its steps only read (the gaits, the geometry, the models
        # behind ``aim`` and ``calibrate``).
        shared = (self.gait, self.target_gait, self._geometry, self.aim, self.calibrate)
        steps = dry_run_stop(self, (*shared, self._stop_cache))
        self._stop_cache = (key, steps)
        return list(steps)

    def finish_step(self) -> bool:
        """End the step under way as planned, its feet where its plan puts them and no sensors
        read (``skills.walk.stop_plan``'s dry run); True once that leaves the robot standing."""
        self.stride.t = self.stride.period
        self._move_feet()
        self._end_step()
        return self.phase is Phase.STANDING

    @property
    def step_remaining(self) -> float:
        """Seconds left in the step being made (0 when standing); it cannot be changed."""
        if self.phase in (Phase.STANDING, Phase.STARTING):
            return 0.0
        return self.stride.remaining

    # ------------------------------------------------------------------ the cycle

    def update(self, dt: float, sense: Any, commanded: Any = None) -> WalkTargets:
        """Advance ``dt`` seconds. ``sense`` has ``gyro`` (3, rad/s), ``fsr`` (8, kg),
        ``tilt`` (rad) and ``left_contact``/``right_contact``; the runtime's RobotState.
        ``commanded``: the joints' commanded angles (25), for the legs' load."""
        if self._gait_change is not None:
            self.gait = self._gait_change.advance(dt)
            if self._gait_change.done:
                self._gait_change = None
        g = self.gait
        self._body.update(sense, g, self._posture().lean, commanded)
        if self._protection.update(dt, sense, g):
            self._halt()
        start = self.start
        if self.phase is Phase.STARTING and start is not None and not start.blended:
            return self._starting(dt)
        if self.phase is Phase.STANDING:
            body = (self._body.gyro_x, self._body.gyro_y)
            if self._blocked() or (start is not None and start.quietening(dt, body, g)):
                self.left.z = self.right.z = 0.0
                return self._targets(support=None)
            if self.steps.queued:
                # The usual first step in place, with the foot that does not step first.
                self._begin_step(not self.steps.queued[0].left, first=True)
            elif not self.target.is_zero:
                self._begin_step(self._leading_left(self.target), first=True)
            else:
                self.left.z = self.right.z = 0.0
                return self._targets(support=None)
        self.stride.t += dt
        self._move_feet()
        if self.stride.ended(sense.fsr, self.swing_left, self.gait):
            self._end_step()
        return self._targets(support=self.phase is not Phase.STANDING)

    # ------------------------------------------------------------------ steps

    def _blocked(self) -> bool:
        return self.killed or self.hold or self._protection.reason is not None

    def _leading_left(self, v: Velocity) -> bool:
        if v.left != 0.0:
            return v.left > 0.0
        if v.turn != 0.0:
            return v.turn > 0.0
        return not self.swing_left  # alternate

    def _begin_step(self, swing_left: bool, *, first: bool = False) -> None:
        g = self.gait
        self.swing_left = swing_left
        after_footstep = self.steps.finish()
        self.placing = after_footstep
        blocked = self._blocked()
        if not first and not blocked:
            planned = self.steps.take(swing_left)
            if planned is not None:
                self._begin_footstep(planned)
                return  # never a first step
        target = ZERO if blocked else lined_up(g, self.target, self.kick, self._geometry)
        if first or after_footstep:
            # After footsteps the feet close in place: no velocity is carried over from them.
            self.executed = ZERO
            self._caught = False
        else:
            lean = self._body.pitch - self._posture().lean
            self.executed, self._caught = walk_velocity(
                g, self.executed, target, self._body, lean, self._steps_since_kick, self._caught
            )
        v = self.executed
        self.phase = Phase.WALKING if not (target.is_zero and v.is_zero) else Phase.STOPPING
        # Kick and placing steps only while walking forwards: a kick step (0.05-0.15 m ahead)
        # in a walk going sideways lunged and fell (a ball left pending while the behaviour
        # stepped aside, after the Zero posture: the random-sequence runs).
        shaping = not first and not blocked and v.forward > 0.0
        shape = StepShape(
            self.foot_gaits[0 if swing_left else 1],
            self.frequency,
            self.calibrate,
            lining_up=self._lining_up,
            kick=self.kick if shaping else None,
        )
        self.stride, role = velocity_stride(
            g,
            v,
            shape,
            feet=(self.left, self.right),
            swing_left=swing_left,
            first=first,
            geometry=self._geometry,
            pitch_error=self._body.pitch_error_mean,
        )
        self.kicking = role == "kick"
        self.placing = self.placing or role is not None

    @property
    def _lining_up(self) -> bool:
        """Lining up an in-walk kick: the kick's placing plans from the walk's calibrated step,
        so the terms that carry a forward step further than that are off: the period's
        forward increase (with it the ball fell between two chances, 3 of 18 kick steps not
        made), the forward sag compensation (26 of 30 made, not 30) and the hip pitch's load
        compensation (25 of 30)."""
        return self.kick is not None

    def _begin_footstep(self, step: PlannedStep) -> None:
        self.placing = True
        self.phase = Phase.WALKING
        self.stride, self.executed = footstep_stride(
            self.gait,
            step,
            self.aim,
            feet=(self.left, self.right),
            geometry=self._geometry,
            pitch_error=self._body.pitch_error_mean,
        )

    def _move_feet(self) -> None:
        self.stride.move(self.left, self.right, self.swing_left, self.gait)

    def _end_step(self) -> None:
        if self.stride.landing:
            self._halt()  # a kill's step: no count, nothing learnt from it
            return
        self.step_count += 1
        self._steps_since_kick = 0 if self.kicking else self._steps_since_kick + 1
        self.ended = (not self.swing_left, self.swing_end(), self.executed)
        if self.kicking and self.kick is not None:
            self.kick.landed = True
            self.kicking = False
        together = self.left.together() and self.right.together()
        stop = self._blocked() or self.target.is_zero
        pending = self.steps.pending
        if stop and together and self.executed.is_zero and not self.stride.first and not pending:
            self.phase = Phase.STANDING
            self.executed = ZERO
            self.left.z = self.right.z = 0.0  # the swing foot has landed: it carries weight
            self.stride.t = 0.0
            return
        self._begin_step(not self.swing_left)

    # ------------------------------------------------------------------ protection

    def _halt(self) -> None:
        """Stop stepping at once: feet down where they are, standing."""
        self.steps.drop()
        self.stride.landing = False
        if self.phase is Phase.STARTING:
            return  # finish moving to the stand; nothing is in the air
        self.phase = Phase.STANDING
        self.executed = ZERO
        self.left.z = self.right.z = 0.0
        self.stride.t = 0.0

    # ------------------------------------------------------------------ output

    def _starting(self, dt: float) -> WalkTargets:
        stand = self._targets(support=None)
        assert self.start is not None
        left, right = self.start.soles(dt, (stand.left_sole, stand.right_sole), self.gait)
        if self.start.blended:
            self.phase = Phase.STANDING
        return attrs.evolve(stand, left_sole=left, right_sole=right)

    def _posture(self) -> WalkPosture:
        return step_posture(
            self.gait,
            self.executed,
            self.target,
            footsteps=self.steps.current is not None,
            trim=self.stand_trim - self.arm_com,  # the arms' shift taken back with the trim
            stand_lean=self.stand_lean,
            lining_up=self._lining_up,
        )

    def _targets(self, *, support: bool | None) -> WalkTargets:
        return walk_targets(
            self.gait,
            self._geometry,
            (self.left, self.right),
            self._body,
            self._posture(),
            swing_left=self.swing_left,
            step_share=self.stride.share if support else None,
            stand_raise=self.stand_raise,
            stand_high=self.stand_high,
        )

    # ------------------------------------------------------------------ state

    @property
    def halted(self) -> str | None:
        """Why a protective stop holds the walk (``"lifted"``, ``"tilt"``, ``"gyro"``), or None."""
        return self._protection.reason

    @property
    def support_left(self) -> bool | None:
        """The support foot (True left, False right), None when both feet carry the robot."""
        if self.phase in (Phase.STANDING, Phase.STARTING):
            return None
        return not self.swing_left


def _as_asked(move: Pose2D, left: bool) -> Pose2D:
    return move


def _uncalibrated(
    forward: float, left: float, turn: float, limits: tuple[float, float, float]
) -> tuple[float, float, float]:
    return forward, left, turn
