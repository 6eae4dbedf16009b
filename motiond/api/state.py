"""The state messages the API publishes: the robot and the daemon after one cycle, as plain
data (docs/api.md lists every key).

Built once per published cycle and encoded once, whatever the number of subscribers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from motiond.api.protocol import plain
from skills.walk import Pose2D

if TYPE_CHECKING:
    from director import TreeView
    from motiond.runtime import Runtime


def next_position(runtime: Runtime) -> Pose2D:
    """NAOqi's getNextRobotPosition (``WalkEngine.next_pose``)."""
    return runtime.walk.next_pose()


def _pose(p: Pose2D) -> list[float]:
    return [p.x, p.y, p.theta]


def _velocity(v: Any) -> list[float]:
    return [v.forward, v.left, v.turn]


def _step(step: Any) -> list[Any]:
    return ["left" if step.left else "right", step.move.x, step.move.y, step.move.theta]


def _footsteps(f: Any) -> dict[str, Any]:
    return {
        "current": None if f.current is None else _step(f.current),
        "planned": [_step(s) for s in f.planned],
        "done": [_step(s) for s in f.done[-10:]],
    }


def _move(m: Any) -> dict[str, Any]:
    return {
        "active": m.active,
        "type": None if m.task is None else type(m.task).__name__,
        "task": None if m.task is None else plain(attrs.asdict(m.task)),
        "target": None if m.target is None else _pose(m.target),
        "remaining": m.remaining,
        "remaining_turn": m.remaining_turn,
        "reached": m.reached,
        "targets": m.targets,
        "result": m.result,
        "number": m.number,
        "ended": [list(e) for e in m.ended],
    }


def state_message(runtime: Runtime, api_counters: dict[str, int] | None = None) -> dict:
    """The ``state`` message for the cycle that just ended."""
    r = runtime
    s = r.state
    walk = r.walk.status()
    safety = r.supervisor.status()
    getup = safety.getup
    c = r.counters
    hot = safety.hot_joints
    message = {
        "op": "state",
        "cycle": c.cycles,
        "t": r.now,
        # Wall-clock (CLOCK_MONOTONIC, shared by the processes of one machine) when the cycle
        # that produced this state ended: how old the state is, for the client; never logic.
        "stamp": r.cycle_end_stamp,
        "walk": {
            "phase": walk.phase.value,
            "active": walk.active,
            "support": walk.support,
            "steps": walk.step_count,
            "request": _velocity(walk.request),
            "executed": _velocity(walk.executed),
            "killed": walk.killed,
            "halted": walk.halted,
            "stand": walk.stand,
        },
        "move": _move(r.walk.move_status()),
        "kick": {**attrs.asdict(r.kick.status()), "moving": r.kick.moving()},
        "footsteps": _footsteps(r.walk.footstep_status()),
        "position": _pose(walk.position),
        "next_position": _pose(next_position(r)),
        "stop_position": _pose(r.walk.stop_pose()),
        "fall": {
            "phase": s.fall.phase.value,
            "direction": None if s.fall.direction is None else s.fall.direction.value,
            "since": s.fall.since,
        },
        "getup": {
            "active": getup.active,
            "routine": getup.routine,
            "phase": getup.phase,
            "attempts": getup.attempts,
            "result": getup.result,
            "auto": safety.auto_getup,
        },
        "lifted": safety.lifted,
        "hot_joints": list(hot),
        "temperature_status": s.temperature_status.tolist(),
        "joints": s.position.tolist(),
        "stiffness": s.stiffness.tolist(),
        "imu": {"roll": s.roll, "pitch": s.pitch, "tilt": s.tilt, "gyro": s.gyro.tolist()},
        "contact": [s.left_contact, s.right_contact],
        "battery": s.battery_charge,
        "counters": attrs.asdict(c),
    }
    if api_counters is not None:
        message["counters"]["api"] = dict(api_counters)
    return message


def tree_message(view: TreeView) -> dict:
    """The ``tree`` message: the Director's tree view as plain data."""
    data = attrs.asdict(view)
    data["op"] = "tree"
    data["text"] = str(view)
    return data
