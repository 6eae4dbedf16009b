"""The safety supervisor: what the runtime does on its own when the robot falls, lies, is
lifted, is started while standing, or runs hot.

Called once per cycle after the robot state is read and before the Director runs, it emits
the safety tasks (``skills.safety``) from its own emitter, ``"safety"``, at the runtime's
priorities (see ``skills.safety`` for the table):

- **Start-up hold**: on the first frame, a robot standing on loaded feet gets
  ``HoldPosture`` (its measured posture, stiffening smoothly) so a daemon started or restarted
  under a standing robot does not drop it; a sitting or lying robot stays limp.
- **Falling**: the fall detector's FALLING emits ``FallProtect`` above every behaviour and
  kills the walk (it resumes only when its request changes). Once the robot lies still,
  protection is withdrawn and, with ``auto_getup`` on, ``GetUp`` is emitted; its success or
  failure is in :meth:`SafetySupervisor.status`. While a get-up runs, fall alarms are its own
  business (its checks retry from a known posture).
- **Lifted**: no foot contact for ``LIFTED_CYCLES`` while upright kills the walk and plays the
  lifted stand (legs straight under the hips at moderate stiffness). Put down (both feet
  loaded for ``PUT_DOWN_TIME``), the robot holds its posture and waits to be asked.
- **Heat**: a joint whose LoLA status says hot gets its stiffness capped
  (:data:`STIFFNESS_CAP_BY_STATUS`, like NAOqi's stiffness protection); the runtime applies
  the caps in the safety stage, so they hold whoever commands the joint.
"""

from __future__ import annotations

import attrs
import numpy as np

from director import Director
from lola_io.joints import JOINT_INDEX, JOINT_NAMES
from motiond.robot_state import RobotState
from providers.actuation import GROUP_JOINTS, Legs
from skills.keyframes import JointTarget, Keyframe, KeyframeScript
from skills.safety import (
    FALL_PRIORITY,
    GETUP_PRIORITY,
    HOLD_PRIORITY,
    SAFETY_PRIORITY,
    FallDetector,
    FallPhase,
    FallProtect,
    FallState,
    GetUp,
    GetUpProgress,
    GetUpStatus,
    HoldPosture,
)
from skills.safety.fall import lean_direction
from skills.script import Script
from skills.script_files import shipped_script
from skills.walk import WalkEngine

#: A robot standing when the daemon starts: at least this share of its weight on the feet...
STANDING_LOAD_SHARE = 0.5
#: ... and a torso within this tilt (rad).
STANDING_TILT = 0.35
ROBOT_MASS_KG = 5.3
#: Consecutive cycles without any foot contact, upright, that mean "lifted" (120 ms: longer
#: than any flight phase of a walk or a kick).
LIFTED_CYCLES = 10
#: Knees folded past this (rad, both) mean sitting or crouching: unloaded feet are then the
#: floor carrying the robot on its bottom, not a hand carrying it.
SITTING_KNEE = 1.5
#: Seconds both feet must carry load before a lifted robot counts as put down.
PUT_DOWN_TIME = 0.5
#: A fallen robot lies still this long (s) before the get-up starts.
LIE_STILL = 0.3
#: Stiffness cap per LoLA temperature status (0 normal, 1 hot, 2 very hot, 3 critical).
STIFFNESS_CAP_BY_STATUS = np.array([1.0, 0.6, 0.4, 0.0])
LIFTED_STIFFNESS = 0.5
KNEES = (JOINT_INDEX["LKneePitch"], JOINT_INDEX["RKneePitch"])


@attrs.frozen
class SafetyStatus:
    """The supervisor's view of the robot, for behaviours and tools."""

    fall: FallState
    getup: GetUpStatus
    auto_getup: bool
    lifted: bool
    hot_joints: tuple[str, ...]
    started_standing: bool


def lifted_stand_script() -> KeyframeScript:
    """The legs of StandInit at :data:`LIFTED_STIFFNESS`, arms and head as they are."""
    final = shipped_script("StandInit").final_pose()
    targets = {
        name: JointTarget(float(final.position[JOINT_INDEX[name]]), LIFTED_STIFFNESS)
        for name in GROUP_JOINTS[Legs]
    }
    return KeyframeScript("LiftedStand", [Keyframe(0.8, targets)])


class SafetySupervisor:
    """Emits the safety tasks from one cycle's robot state (see the module docstring)."""

    def __init__(
        self,
        director: Director,
        state: RobotState,
        walk: WalkEngine,
        getup: GetUpProgress,
        *,
        auto_getup: bool = True,
    ) -> None:
        self.detector = FallDetector()
        self.auto_getup = auto_getup
        self._director = director
        self._state = state
        self._walk = walk
        self._getup = getup
        self._emitter = director.emitter("safety")
        # Lifted, the feet carry nothing: the legs go to the stand at once, mid-step or not.
        self._lifted_script = Script(lifted_stand_script(), hold=True, interrupt=True)
        self._protecting = False
        self._getting_up = False
        self._airborne = 0
        self._lifted = False
        self._loaded_for = 0.0
        self._phase: FallPhase | None = None
        self._started_standing = False
        self._holding = False
        self._behaviour_seen = False
        self._getup_since = 0.0
        self._propped = False  # stood up by hand while the detector still says fallen
        self.stiffness_cap = np.ones(len(JOINT_NAMES))
        self._hot: tuple[str, ...] = ()

    # ------------------------------------------------------------------ control

    def set_auto_getup(self, enabled: bool) -> None:
        """Whether a fallen robot gets up by itself (on by default)."""
        self.auto_getup = bool(enabled)

    def get_up(self) -> None:
        """Start a get-up in the next cycle (after one gave up, or with auto get-up off)."""
        self._start_getup(self.detector.state.since)

    @property
    def holding(self) -> bool:
        """Whether a hold (start-up, or put down) is in force, withdrawn by the next
        behaviour emission."""
        return self._holding

    def behaviour_emitted(self) -> None:
        """A behaviour emitted a task: the robot is in its hands now, so a pending hold is
        withdrawn (a hold that already stiffened the joints leaves them so; a hold that
        came back after the behaviour's task ended would hold wherever that task left the
        joints, sagging under load, instead of where it put them)."""
        self._behaviour_seen = True
        if self._holding:
            self._holding = False
            self._emitter.emit_none(HoldPosture)

    def status(self) -> SafetyStatus:
        """What the supervisor sees now."""
        return SafetyStatus(
            fall=self.detector.state,
            getup=self._getup.status(),
            auto_getup=self.auto_getup,
            lifted=self._lifted,
            hot_joints=self._hot,
            started_standing=self._started_standing,
        )

    # ------------------------------------------------------------------ the cycle

    def start(self) -> None:
        """The first frame: hold a standing robot up; leave a sitting or lying one limp."""
        s = self._state
        if s.tilt > self.detector.thresholds.fallen_tilt:
            self.detector.lying(0.0, lean_direction(s.roll, s.pitch))
        load = float(np.nansum(s.fsr))
        if s.tilt < STANDING_TILT and load >= STANDING_LOAD_SHARE * ROBOT_MASS_KG:
            self._started_standing = True
            if not self._behaviour_seen:  # a task emitted before the first frame commands
                self._hold()

    def update(self, now: float, dt: float) -> None:
        """One cycle: fall, get-up, lifted and heat decisions (before the Director runs)."""
        s = self._state
        fall = self.detector.update(
            now,
            dt,
            s.roll,
            s.pitch,
            float(s.gyro[0]),
            float(s.gyro[1]),
            s.left_contact or s.right_contact,
        )
        s.fall = fall
        if fall.phase is not self._phase:
            if fall.phase is FallPhase.UPRIGHT and self._phase is not None:
                if not self._getting_up:  # a get-up's own rise is not a referee's hands
                    self._back_on_its_feet()
                self._propped = False
            self._phase = fall.phase
            self._director.set_state(FallPhase, fall.phase)
        self._heat()
        self.detector.getting_up = self._getting_up
        if self._getting_up:
            self._follow_getup()
        elif fall.phase is FallPhase.FALLING:
            if not self._protecting:
                self._protect(fall)
        elif fall.phase is FallPhase.FALLEN:
            if self._lifted:
                self._end_lifted(hold=False)
            if s.tilt < STANDING_TILT and s.left_contact and s.right_contact:
                # Stood on its feet by hand: stiffen now, not once the detector agrees.
                if not self._propped:
                    self._back_on_its_feet()
                    self._propped = True
                return
            self._propped = False
            if now - fall.since >= LIE_STILL:
                if self._protecting:
                    self._protecting = False
                    self._emitter.emit_none(FallProtect)
                wanted = self.auto_getup and self._getup.available
                if wanted and self._getup.status().result != "gave_up":
                    self._start_getup(now)
        else:
            if self._protecting:  # a false alarm, or a fall the walk caught after all
                self._protecting = False
                self._emitter.emit_none(FallProtect)
            self._watch_lifted(dt)

    def _back_on_its_feet(self) -> None:
        """Upright on loaded feet again, by a get-up or by a referee's hands: nothing of the
        fall stays commanded (a soft protection, a relaxed get-up that gave up), and the robot
        is held where it stands until a behaviour moves it."""
        self._protecting = False
        self._getting_up = False
        self._emitter.emit_none(FallProtect)
        self._emitter.emit_none(GetUp)
        if not self._propped:
            self._hold()

    def _protect(self, fall: FallState) -> None:
        self._protecting = True
        self._lifted = False
        self._emitter.emit_none(Script)
        self._holding = False
        self._emitter.emit_none(HoldPosture)
        self._walk.kill()
        self._emitter.emit(FallProtect(fall.direction), priority=FALL_PRIORITY)

    def _start_getup(self, now: float) -> None:
        self._getup_since = now
        self._protecting = False
        self._emitter.emit_none(FallProtect)
        self._emitter.emit_none(GetUp)  # a fresh emission: a new get-up, attempt 1
        self._emitter.emit(GetUp(), priority=GETUP_PRIORITY)
        self._getting_up = True

    def _follow_getup(self) -> None:
        status = self._getup.status()
        if status.active or status.started is None or status.started < self._getup_since:
            return  # running, or the emitted GetUp has not begun (e.g. under a Freeze)
        self._getting_up = False
        if status.result == "standing":
            self._emitter.emit_none(GetUp)
            # Standing in the get-up's last posture: upright now, and nothing to hold.
            self.detector.reset(status.finished or 0.0)
            self._phase = FallPhase.UPRIGHT
            self._director.set_state(FallPhase, FallPhase.UPRIGHT)
        elif status.result == "interrupted":
            self._emitter.emit_none(GetUp)
        # gave_up: GetUp stays, holding the relaxed posture, until get_up() or a Freeze.

    def _watch_lifted(self, dt: float) -> None:
        s = self._state
        airborne = not (s.left_contact or s.right_contact)
        self._airborne = self._airborne + 1 if airborne else 0
        if not self._lifted:
            knees = (s.position[KNEES[0]], s.position[KNEES[1]])
            sitting = knees[0] > SITTING_KNEE and knees[1] > SITTING_KNEE
            if self._airborne >= LIFTED_CYCLES and s.tilt < STANDING_TILT and not sitting:
                self._lifted = True
                self._loaded_for = 0.0
                self._walk.kill()
                self._holding = False
                self._emitter.emit_none(HoldPosture)
                self._emitter.emit(self._lifted_script, priority=SAFETY_PRIORITY)
            return
        both = s.left_contact and s.right_contact
        self._loaded_for = self._loaded_for + dt if both else 0.0
        if self._loaded_for >= PUT_DOWN_TIME:
            self._end_lifted(hold=True)

    def _end_lifted(self, *, hold: bool) -> None:
        self._lifted = False
        self._emitter.emit_none(Script)
        if hold:
            self._hold()

    def _hold(self) -> None:
        self._holding = True
        self._emitter.emit_none(HoldPosture)  # a fresh emission holds the posture of now
        self._emitter.emit(HoldPosture(), priority=HOLD_PRIORITY)

    def _heat(self) -> None:
        if not self._state.temperature_status.any():
            if self._hot:
                self._hot = ()
                self.stiffness_cap.fill(1.0)
            return
        status = np.clip(self._state.temperature_status, 0, 3)
        np.take(STIFFNESS_CAP_BY_STATUS, status, out=self.stiffness_cap)
        self._hot = tuple(n for n, st in zip(JOINT_NAMES, status, strict=True) if st > 0)
