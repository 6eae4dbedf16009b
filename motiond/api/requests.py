"""What each request of the behaviour API does (docs/api.md, "Requests").

One function per op, ``(session, message) -> reply fields``; an :class:`ApiError` is the
error reply and means nothing was changed. :data:`HANDLERS` is the table the session reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from director import EmissionError
from motiond.api.protocol import VERSION, ApiError, pack, plain
from motiond.api.state import state_message, tree_message
from motiond.api.task_types import TASK_TYPES, task_type
from motiond.runtime import PriorityError
from skills.walk import PARAMETER_RANGES, Footsteps, Walk, WalkPath, WalkTo, WalkToward
from skills.walk.gaits import NAOQI_RANGES, move_config

if TYPE_CHECKING:
    from motiond.api.session import Session

#: The task types the operator's ``stop`` withdraws from every client.
WALKING_TYPES: tuple[type, ...] = (Walk, WalkToward, WalkTo, WalkPath, Footsteps)


def hello(session: Session, message: dict) -> dict:
    """Check the protocol version; name the client's tasks (before its first emit)."""
    version = message.get("version", VERSION)
    if version != VERSION:
        raise ApiError(f"protocol version {version!r} is not served (this is {VERSION})")
    name = message.get("name")
    if name is not None:
        if not (isinstance(name, str) and name.isprintable() and 0 < len(name) <= 40):
            raise ApiError(f"name must be 1..40 printable characters, got {name!r}")
        if session.has_emitted:
            raise ApiError("name must be given before the first emit")
        session.name = f"api-{session.number}:{name}"
    return {"emitter": session.name}


def emit(session: Session, message: dict) -> dict:
    """Build the task (its own validators run) and emit it from the client's emitter."""
    kind = task_type(message.get("type"))
    task = kind.make(message.get("fields"), session.runtime.walk)
    priority = _number(message.get("priority", 0.0), "priority")
    optional = message.get("optional", False)
    if not isinstance(optional, bool):
        raise ApiError(f"optional must be true or false, got {optional!r}", "bad_field")
    try:
        session.emitter().emit(task, priority=priority, optional=optional)
    except (PriorityError, EmissionError) as error:
        raise ApiError(str(error), "bad_priority") from None
    session.emitted.add(kind.cls)
    # Applied by the next cycle's Director update: that cycle's frame reflects it.
    result: dict[str, Any] = {"cycle": session.runtime.counters.cycles + 1}
    duration = getattr(getattr(task, "script", None), "duration", None)
    if duration is not None:
        result["duration"] = duration / task.speed
        # A script moving the legs starts once a stepping walk has closed its feet (or a
        # standing kick has ended).
        result["waits_for_legs"] = task.waits_for_legs and session.runtime.legs_in_motion()
    return result


def withdraw(session: Session, message: dict) -> dict:
    """Withdraw the client's task of ``type``, or all of them."""
    name = message.get("type")
    kinds = [task_type(name).cls] if name is not None else list(session.emitted)
    if session.has_emitted:
        for cls in kinds:
            session.emitter().emit_none(cls)
    session.emitted.difference_update(kinds)
    return {"cycle": session.runtime.counters.cycles + 1}


def withdraw_walking(session: Session) -> int:
    """Withdraw the client's walking tasks (the operator's ``stop``); how many."""
    walking = [cls for cls in WALKING_TYPES if cls in session.emitted]
    for cls in walking:
        session.emitter().emit_none(cls)
    session.emitted.difference_update(walking)
    return len(walking)


def subscribe(session: Session, message: dict) -> dict:
    """States every ``state`` cycles (0: none), and the tree's changes if ``tree``."""
    every = message.get("state", 1)
    if isinstance(every, bool) or not isinstance(every, int) or not 0 <= every <= 8300:
        raise ApiError(f"state must be a whole number of cycles >= 0, got {every!r}")
    tree = message.get("tree", False)
    if not isinstance(tree, bool):
        raise ApiError(f"tree must be true or false, got {tree!r}")
    session.state_every, session.tree = every, tree
    if tree:  # the tree as it is now, then its changes
        session.post(pack(plain(tree_message(session.runtime.director.view()))))
    return {}


def get(session: Session, message: dict) -> dict:
    """One snapshot: the state, the tree, the task types or the gait."""
    what = message.get("what", "state")
    runtime = session.runtime
    if what == "state":
        return {"value": state_message(runtime, session.server.counters.as_map())}
    if what == "tree":
        return {"value": tree_message(runtime.director.view())}
    if what == "types":
        return {"value": {n: t.describe() for n, t in TASK_TYPES.items()}}
    if what == "gait":
        walk = runtime.walk
        ranges = {k: list(v[:3]) for k, v in PARAMETER_RANGES.items()}
        return {
            "value": {
                "values": attrs.asdict(walk.base_gait),
                "ranges": ranges,
                "named": {name: attrs.asdict(g) for name, g in walk.gaits.items()},
                "move_config": {
                    "Default": move_config(walk.base_gait),
                    "Min": {k: lo for k, (lo, _) in NAOQI_RANGES.items()},
                    "Max": {k: hi for k, (_, hi) in NAOQI_RANGES.items()},
                },
            }
        }
    raise ApiError(f"get: unknown {what!r} (state, tree, types, gait)")


def freeze(session: Session, message: dict) -> None:
    """Every joint limp, above every task, until an unfreeze (the runtime's, not the client's)."""
    session.runtime.freeze()


def unfreeze(session: Session, message: dict) -> None:
    """Release a freeze."""
    session.runtime.unfreeze()


def stop(session: Session, message: dict) -> dict:
    """The operator's stop: every client's walking tasks withdrawn."""
    return {"withdrawn": sum(withdraw_walking(s) for s in session.server.sessions)}


def auto_getup(session: Session, message: dict) -> None:
    """Automatic get-up after a fall, on or off."""
    session.runtime.supervisor.set_auto_getup(_flag(message, "enabled"))


def get_up(session: Session, message: dict) -> None:
    """Start a get-up now."""
    session.runtime.supervisor.get_up()


def release_safe_sit(session: Session, message: dict) -> None:
    """End the safe sit the runtime holds after a LoLA outage."""
    session.runtime.release_safe_sit()


def walk_arms(session: Session, message: dict) -> None:
    """Arm swing while walking, per arm."""
    session.runtime.walk.arms_enabled = (_flag(message, "left"), _flag(message, "right"))


def ping(session: Session, message: dict) -> dict:
    """A round trip (and proof of life)."""
    return {"cycle": session.runtime.counters.cycles}


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ApiError(f"{what} must be a finite number, got {value!r}", "bad_field")
    return float(value)


def _flag(message: dict, key: str) -> bool:
    value = message.get(key)
    if not isinstance(value, bool):
        raise ApiError(f"{key} must be true or false, got {value!r}")
    return value


#: op → handler.
HANDLERS: dict[str, Callable[[Session, dict], dict | None]] = {
    "hello": hello,
    "emit": emit,
    "withdraw": withdraw,
    "subscribe": subscribe,
    "get": get,
    "freeze": freeze,
    "unfreeze": unfreeze,
    "stop": stop,
    "auto_getup": auto_getup,
    "get_up": get_up,
    "release_safe_sit": release_safe_sit,
    "walk_arms": walk_arms,
    "ping": ping,
}
