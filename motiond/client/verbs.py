"""NAOqi's ALMotion verbs on the clients, for teams migrating from NAOqi.

Names are NAOqi's in snake case (``moveTo`` → ``move_to``), arguments keep NAOqi's order and
units (m, rad, m/s, rad/s; x forward, y left, theta counter-clockwise). Where motiond differs,
the method's docstring says how. Every verb emits with the client's default priority
(``robot.priority``), so two clients (or a client and an in-process behaviour) compose by the
Director's rules; a verb never reaches the safety layer's priorities.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import trio

#: NAOqi's postures and the shipped script that reaches each.
POSTURES: Mapping[str, str] = {
    "Stand": "Stand",
    "StandInit": "StandInit",
    "StandZero": "Zero",
    "Crouch": "Crouch",
    "Sit": "Sit",
}
#: The task types a move verb may have emitted (withdrawn by stop_move).
MOVE_TYPES = ("Walk", "WalkToward", "WalkTo", "WalkPath", "Footsteps")
_POLL = 0.02  # s between state polls while waiting


def _finite(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number, got {value!r}")
    return float(value)


def _move_fields(config: Any, gait: str | None) -> dict[str, Any]:
    """The walk task's gait fields from NAOqi's move config (a map or [[key, value], ...]; the
    daemon maps and checks the keys) and a named gait; moveToward's ``Frequency`` is the
    request's frequency."""
    fields: dict[str, Any] = {}
    if config:
        config = dict(config)
        if "Frequency" in config:
            fields["frequency"] = _finite(config.pop("Frequency"), "Frequency")
        if config:
            fields["config"] = config
    if gait is not None:
        fields["gait"] = gait
    return fields


def _footsteps(
    legs: Sequence[str], poses: Sequence[Sequence[float]], key: str, values: Sequence[float]
) -> list[dict[str, Any]]:
    if len(legs) != len(poses):
        raise ValueError("leg_names and foot_steps must be as long as each other")
    steps = []
    for leg, pose, value in zip(legs, poses, values, strict=True):
        if len(pose) != 3:
            raise ValueError(f"a footstep is [x, y, theta], got {pose!r}")
        x, y, theta = (_finite(v, "footstep value") for v in pose)
        steps.append({"foot": leg, "x": x, "y": y, "theta": theta, key: value})
    return steps


class NaoqiVerbs:
    """ALMotion's locomotion and posture verbs; mixed into the async client."""

    priority: float
    types: list[str]
    emitted: set[str]

    async def request(self, op: str, **fields: Any) -> dict[str, Any]:
        raise NotImplementedError

    async def emit(self, task: Any, **kwargs: Any) -> int:
        raise NotImplementedError

    async def get_state(self) -> dict[str, Any]:
        raise NotImplementedError

    async def get_gait(self) -> dict[str, Any]:
        raise NotImplementedError

    async def withdraw(self, task_type: Any = None) -> None:
        raise NotImplementedError

    async def wait_robot_time(
        self, seconds: float, poll: float = _POLL, until: Any = None
    ) -> dict[str, Any]:
        raise NotImplementedError

    async def play(self, name: str | None = None, **options: Any) -> float:
        raise NotImplementedError

    # ------------------------------------------------------------------ moves

    async def _start_move(self, kind: str) -> None:
        # This client's held posture (go_to_posture) or other move keeps the legs (or the
        # Walk) at this same priority, and the incumbent wins ties: let the new move have them.
        for name in ("Script", *MOVE_TYPES):
            if name != kind and name in self.emitted:
                await self.withdraw(name)

    async def move(
        self, x: float, y: float, theta: float, config: Any = None, *, gait: str | None = None
    ) -> None:
        """Walk at x, y (m/s) and theta (rad/s) until told otherwise (NAOqi's move).

        Beyond the gait's limits the request is clamped (the clamped request is in the state's
        ``walk.request``). ``config``: NAOqi's move config (MaxStepX, MaxStepY, MaxStepTheta,
        MaxStepFrequency, StepHeight, TorsoWx, TorsoWy; checked against NAOqi's ranges), on
        top of the named ``gait`` (motiond's addition: default, careful, precise); a change
        of gait is blended in over two steps. Keys prefixed ``Left`` or ``Right``
        (``LeftStepHeight``) shape that foot's steps only, as NAOqi's do; the torso's keys
        cannot be given per foot."""
        await self._start_move("Walk")
        velocity = {"forward": _finite(x, "x"), "left": _finite(y, "y")}
        velocity["turn"] = _finite(theta, "theta")
        await self.emit("Walk", **velocity, **_move_fields(config, gait))

    async def stand(self, *, high: bool = False) -> None:
        """Walk to a stand and hold it (motiond's addition: ``move(0, 0, 0)``). Standing still
        a second it saves energy; ``high`` then straightens the legs, so the knees carry
        almost nothing and stay cool (B-Human's high stand, for a robot that waits: set,
        penalised). A move afterwards brings the walk's stand back first (0.3 s from high)."""
        await self._start_move("Walk")
        await self.emit("Walk", high_stand=bool(high))

    async def move_toward(
        self, x: float, y: float, theta: float, config: Any = None, *, gait: str | None = None
    ) -> None:
        """Walk at shares of the gait's limits, each in [-1, 1] (NAOqi's moveToward);
        ``config`` as :meth:`move`'s, and its ``Frequency`` (0..1) the step frequency share."""
        await self._start_move("WalkToward")
        await self.emit("WalkToward", x=x, y=y, theta=theta, **_move_fields(config, gait))

    async def move_to(
        self,
        x: float | Sequence[Sequence[float]],
        y: float | None = None,
        theta: float | None = None,
        config: Any = None,
        *,
        wait: bool = True,
        gait: str | None = None,
        timeout: float | None = None,
    ) -> bool:
        """Walk to the pose (x, y, theta) relative to where the robot is, or through a list of
        such poses, each relative to the one before (NAOqi's moveTo and its control points).

        Like NAOqi's, it returns when the move has ended (``wait=False`` returns at once, as
        ``ALMotion.post.moveTo`` does); True if the target was reached, False if the move was
        replaced, stopped (withdrawn, outranked, a fall) or killed. A move whose legs are held
        by a stronger task waits for them; ``timeout`` (s of wall time) bounds the wait with
        trio.TooSlowError."""
        if isinstance(x, list | tuple):
            if y is not None or theta is not None:
                raise ValueError("move_to takes x, y, theta or one list of poses, not both")
            kind, fields = "WalkPath", {"targets": [list(p) for p in x]}
        else:
            y, theta = 0.0 if y is None else y, 0.0 if theta is None else theta
            kind, fields = "WalkTo", {"x": x, "y": y, "theta": theta}
        fields.update(_move_fields(config, gait))
        fields.pop("frequency", None)  # a walk to a pose sets its own speeds
        await self._start_move(kind)
        number = (await self.get_state())["move"]["number"]
        await self.emit(kind, **fields)
        if not wait:
            return True
        with trio.fail_after(math.inf if timeout is None else timeout):
            return await self._wait_for_move(number)

    async def set_foot_steps(
        self,
        leg_names: Sequence[str],
        foot_steps: Sequence[Sequence[float]],
        time_list: Sequence[float],
        clear_existing: bool = True,
    ) -> None:
        """NAOqi's setFootSteps: ``leg_names`` ("LLeg"/"RLeg") step to ``foot_steps`` ([x, y,
        theta] of the stepping foot in the other foot's frame), each step ending at the
        matching time of ``time_list`` (s from now, increasing). Returns at once, as NAOqi's.
        Steps are clipped as ALMotion clips them; the feet must alternate (NAOqi allows a
        foot twice in a row)."""
        times = [_finite(t, "time_list entry") for t in time_list]
        durations = [b - a for a, b in zip([0.0, *times], times, strict=False)]
        if len(times) != len(foot_steps) or min(durations, default=1.0) <= 0.0:
            raise ValueError("time_list needs one increasing time (s) per footstep")
        steps = _footsteps(leg_names, foot_steps, "duration", durations)
        await self._start_move("Footsteps")
        await self.emit("Footsteps", steps=steps, clear=bool(clear_existing))

    async def set_foot_steps_with_speed(
        self,
        leg_names: Sequence[str],
        foot_steps: Sequence[Sequence[float]],
        fractions_max_speed: Sequence[float],
        clear_existing: bool = True,
    ) -> None:
        """NAOqi's setFootStepsWithSpeed: like :meth:`set_foot_steps`, each step at a share
        (0..1] of the step frequency range. Blocks until the robot stands again, as NAOqi's
        does."""
        if len(fractions_max_speed) != len(foot_steps):
            raise ValueError("fractions_max_speed needs one share (0..1] per footstep")
        steps = _footsteps(leg_names, foot_steps, "speed", list(fractions_max_speed))
        await self._start_move("Footsteps")
        cycle = await self.emit("Footsteps", steps=steps, clear=bool(clear_existing))
        while (await self.get_state())["cycle"] < cycle + 2:  # the steps have begun
            await trio.sleep(_POLL)
        await self.wait_until_move_is_finished()

    async def stop_move(self) -> None:
        """Stop this client's move: the walk brings the feet together (within one or two
        steps) and stands (NAOqi's stopMove)."""
        for name in MOVE_TYPES:
            if name in self.emitted:
                await self.withdraw(name)

    async def kill_move(self) -> None:
        """Stop stepping at once, the swing foot put down where it is (NAOqi's killMove); the
        walk holds until this client's next move."""
        await self.withdraw("KillWalk")  # a fresh emission, so the kill runs again
        await self.emit("KillWalk")
        for name in MOVE_TYPES:
            if name in self.emitted:
                await self.withdraw(name)

    async def move_is_active(self) -> bool:
        """Whether the robot is walking (stepping, starting or stopping)."""
        walk = (await self.get_state())["walk"]
        return bool(walk["active"]) or walk["phase"] != "standing"

    async def wait_until_move_is_finished(self, timeout: float | None = None) -> None:
        """Return once the robot stands still (NAOqi's waitUntilMoveIsFinished); ``timeout``
        (s of wall time) raises trio.TooSlowError."""
        with trio.fail_after(math.inf if timeout is None else timeout):
            while await self.move_is_active():
                await trio.sleep(_POLL)

    async def _wait_for_move(self, before: int) -> bool:
        """Until the move after move number ``before`` has ended: True if it reached its
        target (standing within the tolerances); False if it was replaced, stopped (withdrawn,
        outranked), killed or refused (the walk could not step)."""
        mine = before + 1
        while True:
            ended = dict((await self.get_state())["move"]["ended"])
            if mine in ended:
                return ended[mine] == "reached"
            await trio.sleep(_POLL)

    async def get_robot_position(self, use_sensors: bool = True) -> list[float]:
        """[x, y, theta] of the robot in the odometry frame (where the daemon started).
        motiond's odometry always uses the sensors (measured legs and gyro), so
        ``use_sensors`` is accepted and ignored."""
        return list((await self.get_state())["position"])

    async def get_next_robot_position(self) -> list[float]:
        """[x, y, theta] the robot will reach once the steps that can no longer change (the
        step being made) are done; the current position when standing."""
        return list((await self.get_state())["next_position"])

    async def get_stop_robot_position(self) -> list[float]:
        """[x, y, theta] where the robot would stand if its walk were stopped now: the step
        being made, then the steps that slow down and close the feet, as planned (not in
        NAOqi); the current position when standing."""
        return list((await self.get_state())["stop_position"])

    async def get_move_config(self, config: str = "Default") -> list[list[Any]]:
        """NAOqi's move config as [key, value] pairs: ``"Default"`` (the walk's own gait seen
        through NAOqi's keys; ``skills.walk.gaits`` says how they map; the default gait turns
        0.76 rad per step and opens the feet to 0.19 m, beyond NAOqi's Max of 0.524 and
        0.16), ``"Min"`` or ``"Max"`` (NAOqi's ranges, which the daemon checks a config
        against)."""
        if config not in ("Default", "Min", "Max"):
            raise ValueError(f"config must be Default, Min or Max, got {config!r}")
        values = (await self.get_gait())["move_config"][config]
        return [[key, value] for key, value in values.items()]

    async def set_move_arms_enabled(self, left_arm_enabled: bool, right_arm_enabled: bool):
        """Arm swing while walking, per arm (NAOqi's setMoveArmsEnabled)."""
        await self.request("walk_arms", left=bool(left_arm_enabled), right=bool(right_arm_enabled))

    # ------------------------------------------------------------------ postures

    async def go_to_posture(self, posture_name: str, max_speed_fraction: float = 1.0) -> bool:
        """Go to a NAOqi posture (Stand, StandInit, StandZero, Crouch, Sit) and hold it;
        returns once there, True if the robot did not fall (NAOqi's goToPosture). A walk of
        this client is stopped first. The posture is a shipped script played at
        ``max_speed_fraction`` of its speed (from any start, at the joints' safe speeds)."""
        script = POSTURES.get(posture_name)
        if script is None:
            raise ValueError(f"unknown posture {posture_name!r} (postures: {', '.join(POSTURES)})")
        speed = _finite(max_speed_fraction, "max_speed_fraction")
        if not 0.0 < speed <= 1.0:
            raise ValueError(f"max_speed_fraction must be in (0, 1], got {speed!r}")
        await self.stop_move()
        await self.wait_until_move_is_finished(timeout=30.0)
        await self.play(script, speed=speed, hold=True)
        return (await self.get_state())["fall"]["phase"] == "upright"

    async def rest(self) -> None:
        """Sit down and go limp (NAOqi's rest: a safe posture, then stiffness off); returns
        once resting. motiond's Rest keeps the hip pitches at stiffness 0.3 so that the torso
        does not fold onto the knees (scripts_yaml/Rest.yaml says why)."""
        await self.stop_move()
        await self.wait_until_move_is_finished(timeout=30.0)
        await self.play("Rest")

    async def wake_up(self) -> None:
        """Stiffen and stand in StandInit, the walk-ready stand (NAOqi's wakeUp)."""
        await self.go_to_posture("StandInit")
