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
- **Acceleration limits**: the executed velocity follows the clamped request by at most one
  step's allowed change, read at the start of each step (slowing to walk on elsewhere more
  gently than stopping: ``skills.walk.request.ratchet``).
- **A forward fall** (the torso leaning ``back_step_lean`` past the gait's lean at a step's
  start) takes no backward step, and **a backward lean** (``slow_lean`` behind it, averaged
  over about a step) slows a forward walk until it has passed, as does a forward lean
  (``fast_lean`` past it) at speed (``skills.walk.request.step_velocity``).
- **In-walk kicks**: with a kick pending (``kick``), each step is shaped at its start by
  ``skills.walk.kick_step``: the kick step through the ball, the placing step before it, or
  an ordinary step.

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
from skills.walk.kick_step import KickStep, line_up, shape_step
from skills.walk.odometry import Pose2D
from skills.walk.params import GaitParameters, between, share_of
from skills.walk.posture import (
    BodySense,
    WalkPosture,
    WalkTargets,
    posture,
    walk_targets,
)
from skills.walk.protection import Protection
from skills.walk.request import ZERO, Velocity, clamp_request, step_velocity
from skills.walk.soles import SoleGeometry
from skills.walk.start import WalkStart
from skills.walk.step import Foot, footstep_plan, step_ends, step_size
from skills.walk.stop_plan import StopStep, dry_run_stop
from skills.walk.stride import Stride, closing_lead

#: Steps after an in-walk kick's step before a backward fall is caught again ...
_KICK_SETTLE_STEPS = 2
#: ... unless the torso leans back further than this past the gait's lean (rad): a kick
#: step two steps after a start from StandInit left a perturbed NAO 0.27 and 0.41 rad back
#: at the next two steps, and uncaught it fell (docs: "Pushed from the front").
_KICK_CATCH_LEAN = 0.3


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
        #: raised (m), centre of mass moved forwards (m) and torso leaning further (rad);
        #: ``hold`` keeps it from stepping.
        self.stand_raise = 0.0
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
        self._steps_since_kick = _KICK_SETTLE_STEPS
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
        if not first and not self._blocked():
            planned = self.steps.take(swing_left)
            if planned is not None:
                self._begin_footstep(planned)
                return  # never a first step
        target = ZERO if self._blocked() else self.target
        if self.kick is not None and target.forward > 0.0:
            # Only walking at the ball: a behaviour stepping aside or back keeps its request.
            side = line_up(self.kick, self._hip_y + g.foot_spread, g.step_period)
            if side != 0.0:
                target = clamp_request(g, target.forward, target.left + side, target.turn)
        if first or after_footstep:
            # After footsteps the feet close in place: no velocity is carried over from them.
            self.executed = ZERO
        else:
            body = self._body
            lean = body.pitch - self._posture().lean
            # An in-walk kick's swing pitches the body back as a push from the front would
            # (0.2 rad): no catch step in the steps after it (with them, the walk went on
            # 0.10 m in the second after a kick, not 0.17), unless it leans back further.
            settled = self._steps_since_kick >= _KICK_SETTLE_STEPS or lean < -_KICK_CATCH_LEAN
            self.executed = step_velocity(
                g, self.executed, target, lean, body.pitch_error_mean, body.gyro_y, catch=settled
            )
        v = self.executed
        self.phase = Phase.WALKING if not (target.is_zero and v.is_zero) else Phase.STOPPING
        own = self.foot_gaits[0 if swing_left else 1]
        size = step_size(
            g,
            own,
            v,
            frequency=self.frequency,
            calibrate=self.calibrate,
            first=first,
            lengthen=not self._lining_up,
        )
        self.kicking = False
        # Kick and placing steps only while walking forwards: a kick step (0.05-0.15 m ahead)
        # in a walk going sideways lunged and fell (a ball left pending while the behaviour
        # stepped aside, after the Zero posture: the random-sequence runs).
        if self.kick is not None and not first and not self._blocked() and v.forward > 0.0:
            swing, support = (self.left, self.right) if swing_left else (self.right, self.left)
            f, period, lift, role = shape_step(
                self.kick,
                swing_left,
                behind=support.x - swing.x,
                stance=self._hip_y + g.foot_spread,
                front=self._geometry.sole_front,
                step=(size.length, size.period, size.lift),
                step_period=g.step_period,
                longest=self._longest_step(),
            )
            size = attrs.evolve(size, length=f, period=period, lift=lift)
            self.kicking = role == "kick"
            self.placing = self.placing or role is not None
        # Leaning further forward (or back) than the gait's lean means the body is falling
        # that way: the swing foot lands further out to catch it (B-Human's and HTWK's step
        # adjustment, in its simplest form), from the torso pitch averaged over the last step.
        catch = g.catch_pitch * self._body.pitch_error_mean
        # The body leads a sideways opening in proportion to the sideways speed: a walk that
        # only trims its drift sideways keeps Walk2014's half (pushes survived, docs).
        share = between(0.5, g.side_open_share, share_of(v.left, g.max_left))
        start = (attrs.evolve(self.left), attrs.evolve(self.right))
        end = step_ends(size, swing_left, catch, open_share=share)
        self.stride = Stride(
            size.period,
            start,
            end,
            lift=size.lift,
            support_lift=(self.right if swing_left else self.left).z,
            side_lead=closing_lead(g, start, end, swing_left, v),
            first=first,
        )

    @property
    def _lining_up(self) -> bool:
        """Lining up an in-walk kick: the kick's placing plans from the walk's calibrated step,
        so the terms that carry a forward step further than that are off: the period's
        forward increase (with it the ball fell between two chances, 3 of 18 kick steps not
        made), the forward sag compensation (26 of 30 made, not 30) and the hip pitch's load
        compensation (25 of 30)."""
        return self.kick is not None

    def _longest_step(self) -> float:
        # The walk's longest step as it plans it: calibrated, as its own steps are (a
        # placing step capped at the uncalibrated length left the ball out of reach where
        # the walk's steps go 30 % further, and the kick step met it late in its swing).
        g = self.gait
        limits = (g.max_forward, g.max_left, g.max_turn)
        return self.calibrate(g.max_forward, 0.0, 0.0, limits)[0] * g.step_period

    def _begin_footstep(self, step: PlannedStep) -> None:
        """A planned step: the swing foot lands at ``step.move`` in the support foot's frame,
        both feet placed symmetrically about the hips (each moves half of it)."""
        g = self.gait
        self.placing = True
        self.phase = Phase.WALKING
        plan = footstep_plan(
            step,
            self.aim(step.move, step.left),
            stance=self._hip_y + g.foot_spread,
            heel_shift=self._geometry.heel_shift,
            gait=g,
            catch=g.catch_pitch * self._body.pitch_error_mean,
        )
        self.executed = plan.velocity
        self.stride = Stride(
            step.period,
            (attrs.evolve(self.left), attrs.evolve(self.right)),
            (plan.left_end, plan.right_end),
            lift=plan.lift,
            support_lift=(self.right if step.left else self.left).z,
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
        """The posture (lean, centre-of-mass offset, ankle pitch gains) for the step's forward
        speed, or the in-place one while making footsteps."""
        # A footstep's velocity is its placement over its period, from one step to the next
        # with no ratchet (0.3 m/s, then 0, then backwards): the posture would jump at every
        # step. A first footstep of 6 cm landed 1.8 cm off and turned 4 degrees so, and 0.9 cm
        # and 0.2 degrees with the in-place posture.
        if self.steps.current is not None:
            # Nor do footsteps sway: with it the worst of bench navigate's landed 2.7 cm off,
            # not 2.4, and turned 2.5 degrees, not 2.1.
            trim = self.stand_trim - self.arm_com
            return attrs.evolve(posture(self.gait, 0.0, trim, stand_lean=self.stand_lean), sway=0.0)
        v = self.executed
        # The sideways span of the sag compensation is for a walk that goes on sideways: a
        # stop's steps keep the planned one (``stop_pose`` predicts them by their plan).
        left = min(abs(v.left), abs(self.target.left))
        trim = self.stand_trim - self.arm_com  # the arms' shift taken back with the trim
        pose = posture(self.gait, v.forward, trim, left, v.turn, self.stand_lean)
        if self._lining_up:
            pose = attrs.evolve(pose, sag=self.gait.sag_hip_roll, load=self.gait.load_hip_pitch)
        return pose

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
