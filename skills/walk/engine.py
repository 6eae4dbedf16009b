"""The walk's engine: one :class:`~skills.walk.generator.WalkGenerator` and what it reads and
feeds (the legs' odometry, the step calibration and placement, the energy-saving stand), ticked
at most once per cycle by whichever walk provider runs first (``skills.walk.providers``).

**Interruptions**: when a cycle passes without a tick (the legs were another task's), the walk
starts again from the soles the servos are commanded to, through the walk stand; a walk not
ticked for a while whose legs nobody took (a LoLA outage) carries on its step.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from director import Director
from lola_io.joints import JOINT_INDEX, LEG_INDICES
from providers.actuation import ServoTable
from providers.model import nao_kinematics, nao_leg_ik
from skills.walk import next_position
from skills.walk.arms import arm_com_shift
from skills.walk.calibration import StepCalibration
from skills.walk.energy import EnergySaver
from skills.walk.footsteps import FootstepStatus
from skills.walk.gaits import MIN_FREQUENCY_SHARE, frequency_share, shipped_gaits
from skills.walk.generator import Phase, WalkGenerator
from skills.walk.landing import LandingModel
from skills.walk.odometry import LegOdometry, Pose2D
from skills.walk.params import GaitParameters
from skills.walk.placement import PlacementCorrection
from skills.walk.posture import WalkTargets
from skills.walk.request import ZERO, Velocity, clamp_request
from skills.walk.status import WalkStatus
from skills.walk.tasks import StopWalk, Walk
from skills.walk.walk_to import MoveProgress, MoveStatus

# Cycles without a tick after which the walk starts again from the commanded legs: longer
# than a cycle skipped in arbitration, shorter than any motion another task makes.
_INTERRUPTED = 3.5
# A sole commanded this far (m) from where the walk last put it: another task has the legs.
_TAKEN = 0.01
_ANKLE_PITCHES = (JOINT_INDEX["LAnklePitch"], JOINT_INDEX["RAnklePitch"])
_HIP_PITCHES = (JOINT_INDEX["LHipPitch"], JOINT_INDEX["RHipPitch"])


class WalkEngine:
    """The walk skill's state: the generator, the request, and who drives them this cycle."""

    def __init__(
        self, director: Director, servos: ServoTable, state: Any, gait: GaitParameters
    ) -> None:
        self.generator = WalkGenerator(gait)
        #: The gait of requests that name none (``motiond run --gait``, ``set_gait``).
        self.base_gait = gait
        #: The named gaits requests may name: the shipped ones, ``default`` the walk's own.
        self.gaits: dict[str, GaitParameters] = {**shipped_gaits(), "default": gait}
        #: The robot's pose from the measured legs (the runtime advances it every cycle).
        self.odometry = LegOdometry()
        self.calibration = StepCalibration()
        #: The energy-saving stand (``skills.walk.energy``).
        self.energy = EnergySaver()
        self.generator.calibrate = self.calibration.apply
        #: Footsteps aimed against their measured landing error (``skills.walk.placement``).
        self.placement = PlacementCorrection()
        self.generator.aim = self.placement.aim
        #: Where velocity steps really land (``skills.walk.landing``), for ``next_pose``.
        self.landing = LandingModel()
        self._steps_seen = 0
        self._servos = servos
        self._ik = nao_leg_ik()
        self._state = state
        self._stopper = director.emitter("skill:walk")
        self._last_now: float | None = None
        self._targets: WalkTargets | None = None
        #: The joints' commanded angles (25) where their moves had got to at the last tick.
        self.commanded_now = np.array(servos.positions_at(0.0))
        self._killed_request: Walk | None = None
        self.request: Walk | None = None
        self.period = 0.012
        #: Arm swing while walking, (left, right) (NAOqi's setMoveArmsEnabled).
        self.arms_enabled = (True, True)
        #: Kills since start (a move to a pose under way ends at one).
        self.kills = 0
        #: The walk to a pose (WalkTo, WalkPath), set by ``register_walk``.
        self.move: MoveProgress | None = None

    @property
    def gait(self) -> GaitParameters:
        """The gait in use now (during a blend, the blend's)."""
        return self.generator.gait

    @property
    def target_gait(self) -> GaitParameters:
        """The gait the walk is going to: the request's, else the walk's own."""
        if self.request is not None and self.request.gait is not None:
            return self.request.gait
        return self.base_gait

    def set_gait(self, gait: GaitParameters) -> None:
        """The walk's own gait (for requests that name none, and named ``default``); blended in
        over two steps."""
        self.base_gait = gait
        self.gaits["default"] = gait
        if self.request is not None:
            self.set_request(self.request)
        else:
            self.generator.set_gait(gait)

    def set_request(self, task: Walk) -> None:
        """Walk as ``task`` asks (clamped to its gait)."""
        self.request = task
        g = self.target_gait
        if g is not self.generator.target_gait:
            self.generator.set_gait(g)
        self.generator.set_request(clamp_request(g, task.forward, task.left, task.turn))
        self.generator.frequency = frequency_share(task.frequency)
        self.generator.foot_gaits = (task.left_gait, task.right_gait)
        if self._killed_request is not None and task != self._killed_request:
            self._killed_request = None
            self.generator.resume()

    def kill(self) -> None:
        """Stop stepping from this cycle on; hold until the request changes (a move to a pose
        under way ends)."""
        self.kills += 1
        self._killed_request = self.request if self.request is not None else Walk()
        self.generator.kill()
        self._stopper.emit_none(StopWalk)

    def driving(self, now: float) -> bool:
        """Whether the walk has driven the legs in the last few cycles (up to ``now``)."""
        return self._last_now is not None and now - self._last_now <= _INTERRUPTED * self.period

    def stepping(self, now: float) -> bool:
        """Whether the walk is stepping (a task taking the legs should let it stop first): it
        is mid-step and drives the legs, or did until an outage and they are where it left
        them (it carries on from there)."""
        return not self.standing() and (self.driving(now) or not self._legs_taken())

    def ticked(self, now: float) -> bool:
        """Whether the generator has already been advanced to ``now``."""
        return self._last_now is not None and now == self._last_now

    def tick(self, now: float) -> WalkTargets:
        """The generator advanced to ``now`` (once per cycle, whoever asks first)."""
        if self._last_now is not None and now == self._last_now and self._targets is not None:
            return self._targets
        gen = self.generator
        gap = self._last_now is None or now - self._last_now > _INTERRUPTED * self.period
        if self._last_now is None or self._legs_taken():
            # The legs were not ours: start from where they are commanded to be.
            gen.begin(*self.commanded_soles(now))
            dt = self.period
        elif gap:
            # Not ticked for a while with the legs where we left them (a LoLA outage: the robot
            # held the last command): carry on the step from there, a cycle later. Starting
            # afresh from the stand (and the safe sit after it) fell 5 of 18 times after a
            # 180 ms outage mid-walk in naosim; carrying on, then closing the feet, none.
            dt = self.period
        else:
            dt = now - self._last_now
        self._last_now = now
        executed = gen.executed
        # A footstep is a placement, not a velocity: the calibration learns from neither it
        # nor the step that closes the feet after it; the placement learns from footsteps.
        placed, footstep = gen.placing, gen.steps.current
        kicking = gen.kicking
        standing = gen.phase is Phase.STANDING
        gen.hold = self.energy.update(
            dt,
            standing=standing,
            asked=not gen.target.is_zero,
            ankle_error=self._pitch_error(_ANKLE_PITCHES) if standing else 0.0,
            hip_error=self._pitch_error(_HIP_PITCHES) if standing else 0.0,
            tilt=float(self._state.tilt),
            high=self.request is not None and self.request.high_stand,
        )
        energy = self.energy
        gen.stand_raise, gen.stand_high = energy.raise_, energy.high
        gen.stand_trim, gen.stand_lean = energy.trim, energy.lean
        commanded = self._servos.target_array()
        own = None if self._targets is None else (self._targets.left_arm, self._targets.right_arm)
        # Arms on their way (back to the walk, or to another task's posture) weigh where they
        # are, not where their moves end; the arms the walk takes back start from there too.
        self.commanded_now = self._servos.positions_at(now)
        gen.arm_com = arm_com_shift(self.commanded_now, own, gen.gait.arm_roll)
        self._targets = gen.update(dt, self._state, commanded)
        if gen.step_count != self._steps_seen:
            self._steps_seen = gen.step_count
            left_support, planned, velocity = gen.ended
            # The landing model is the velocity steps': a footstep is aimed against its own
            # error (the placement), a kick step lands where the kick shaped it.
            if not (placed or kicking):
                feet = self.odometry.feet
                support = feet[0 if left_support else 1]
                landed = support.inverse().compose(feet[1 if left_support else 0])
                self.landing.learn(planned, landed, velocity, left_support)
            if footstep is not None and gen.steps.current is not footstep:
                # It ended now, both feet down: where the legs say it landed.
                left, right = self.odometry.feet
                support, landed = (right, left) if footstep.left else (left, right)
                measured = support.inverse().compose(landed)
                self.placement.learn(footstep.move, measured, footstep.left)
            if not placed:
                v = (executed.forward, executed.left, executed.turn)
                self.calibration.step_ended(self.odometry.pose, now, v)
        if gen.phase is Phase.STANDING:
            self.calibration.reset()
        return self._targets

    def _pitch_error(self, joints: tuple[int, int]) -> float:
        """Mean commanded-minus-measured angle of two pitch joints (rad): the load they carry."""
        measured = self._state.position
        total = 0.0
        for i in joints:
            total += self._servos.target(i) - float(measured[i])
        return total / len(joints)

    def commanded_soles(self, now: float) -> tuple[np.ndarray, np.ndarray]:
        """Where the soles are commanded to be at ``now`` (torso frame), whoever commands the
        legs: where a move under way has got to. (Where the moves end is where a script cut
        short was going: the walk took the legs back 60 ms into a safe sit and blended from
        the sit's squat, and the robot fell on its face.)"""
        return nao_kinematics().sole_poses(_finite(self._servos.positions_at(now)))

    def _legs_taken(self) -> bool:
        """Whether the legs are commanded elsewhere than the walk last put them.

        A stronger task that takes the legs revokes the walk (a lost Need) and the walk
        starts afresh when they are free; a takeover too short for the tick gap to show is
        seen here: the soles its last targets put the legs at, against where they are
        commanded now.
        """
        if self._targets is None:
            return False
        q = self._servos.target_array()[list(LEG_INDICES)].tolist()
        ik = self._ik
        for sign, angles, pose in (
            (1, q[0:6], self._targets.left_sole),
            (-1, (q[0], *q[6:11]), self._targets.right_sole),
        ):
            _, p = ik._forward(sign, angles)
            dx, dy, dz = p[0] - pose[0, 3], p[1] - pose[1, 3], p[2] - pose[2, 3]
            if dx * dx + dy * dy + dz * dz > _TAKEN * _TAKEN or not math.isfinite(dx + dy + dz):
                return True
        return False

    def standing(self) -> bool:
        """Whether the feet are together and nothing is stepping."""
        return self.generator.phase is Phase.STANDING

    def handover_stop(self, priority: float) -> None:
        """The Walk task stopped running: bring the feet together unless they are."""
        if self.standing() or self._last_now is None:
            return
        self._stopper.emit_none(StopWalk)
        self._stopper.emit(StopWalk(), priority=math.nextafter(priority, -math.inf))

    def cancel_stop(self) -> None:
        """A Walk runs again: it drives the generator, StopWalk is not needed."""
        self._stopper.emit_none(StopWalk)

    def next_pose(self) -> Pose2D:
        """NAOqi's getNextRobotPosition: the robot position (the middle of the feet) once the
        step under way, which can no longer change, has ended (``skills.walk.next_position``).
        Standing, the robot position now."""
        return next_position.next_pose(self.generator, self.odometry, self.landing)

    def stop_pose(self) -> Pose2D:
        """Where the robot will stand (its robot position) if asked to stop now: the step
        under way ends, then the steps a stop still makes (``skills.walk.next_position``).
        Standing, the robot position now."""
        return next_position.stop_pose(self.generator, self.odometry, self.landing)

    def step_period_at(self, frequency: float) -> float:
        """The gait's step period at a share of its frequency range (``Walk.frequency``)."""
        return self.gait.step_period / frequency_share(frequency)

    def footstep_status(self) -> FootstepStatus:
        """The footsteps under way, planned and made (``skills.walk.footsteps``)."""
        queue = self.generator.steps
        return FootstepStatus(queue.current, tuple(queue.queued), tuple(queue.done))

    def move_status(self) -> MoveStatus:
        """The walk to a pose (WalkTo, WalkPath) under way or the last one
        (``skills.walk.walk_to``)."""
        return self.move.status() if self.move is not None else MoveStatus()

    def status(self) -> WalkStatus:
        """The walk state now (a frozen snapshot)."""
        gen = self.generator
        return WalkStatus(
            phase=gen.phase,
            support=None if gen.support_left is None else ("left" if gen.support_left else "right"),
            step_count=gen.step_count,
            request=gen.target,
            executed=gen.executed,
            odometry=self.odometry.pose,
            position=self.odometry.robot,
            killed=gen.killed,
            halted=gen.halted,
            active=self.request is not None,
            stand=self.energy.mode,
        )


def _finite(values: Any) -> np.ndarray:
    q = np.array(values)
    q[~np.isfinite(q)] = 0.0
    return q


__all__ = ["MIN_FREQUENCY_SHARE", "ZERO", "Velocity", "WalkEngine"]
