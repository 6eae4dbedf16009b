"""The task types a client may emit by name, and how each is built from plain fields.

A client sends ``{"type": "Walk", "fields": {"forward": 0.2}}``; the server looks the name up
here and builds the task with the same constructor an in-process behaviour uses, so every
check of the task's own validators applies. Unknown fields and missing required ones are
named before the constructor runs; a constructor's own ``TypeError``/``ValueError`` becomes
the error reply. Nothing is applied unless the task was built.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from lola_io.joints import JOINT_INDEX
from motiond.api.protocol import ApiError
from providers.actuation import GROUP_JOINTS, GROUP_TYPES, JointCommand, LookAt
from providers.model import load_nao_model
from skills.keyframes import ScriptError
from skills.kick import InWalkKick, Kick
from skills.script import Script
from skills.script_files import parse_script, shipped_script
from skills.walk import (
    Footsteps,
    KillWalk,
    Walk,
    WalkPath,
    WalkTo,
    WalkToward,
)
from skills.walk.gaits import apply_foot_move_config, apply_move_config, shipped_gaits


@attrs.frozen
class Field:
    """One field of a task type as the API documents it."""

    name: str
    required: bool
    default: Any = None
    help: str = ""


@attrs.frozen
class TaskType:
    """A task a client may emit: its name, its Director type, its fields and its builder."""

    name: str
    cls: type
    fields: tuple[Field, ...]
    build: Callable[[Mapping[str, Any], Any], Any]
    doc: str = ""

    def make(self, fields: Any, walk: Any = None) -> Any:
        """The task from ``fields`` (a map), or :class:`ApiError` naming what is wrong.
        ``walk``: the daemon's walk engine, whose named gaits a ``gait`` field names."""
        if fields is None:
            fields = {}
        if not isinstance(fields, Mapping):
            raise ApiError(f"{self.name}: fields must be a map, got {fields!r}", "bad_field")
        known = {f.name for f in self.fields}
        unknown = sorted(set(fields) - known)
        if unknown:
            raise ApiError(
                f"{self.name}: unknown field(s) {unknown} (fields: {sorted(known)})", "bad_field"
            )
        missing = [f.name for f in self.fields if f.required and f.name not in fields]
        if missing:
            raise ApiError(f"{self.name}: missing field(s) {missing}", "bad_field")
        try:
            return self.build(fields, walk)
        except ApiError:
            raise
        except (TypeError, ValueError, ScriptError) as error:
            raise ApiError(f"{self.name}: {error}", "bad_field") from None

    def describe(self) -> dict[str, Any]:
        """The type as plain data (the ``types`` of the hello message)."""
        return {
            "doc": self.doc,
            "fields": {
                f.name: {"required": f.required, "default": f.default, "help": f.help}
                for f in self.fields
            },
        }


def _attrs_type(cls: type, name: str | None = None, helps: Mapping[str, str] = {}) -> TaskType:
    fields = tuple(
        Field(
            a.name,
            a.default is attrs.NOTHING,
            None if a.default is attrs.NOTHING else a.default,
            helps.get(a.name, ""),
        )
        for a in attrs.fields(cls)
        if a.init and a.name not in ("gait", "left_gait", "right_gait")
    )
    doc = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
    if not any(a.name == "gait" for a in attrs.fields(cls)):
        return TaskType(name or cls.__name__, cls, fields, lambda f, walk: cls(**f), doc)
    # A walking task: its gait is named (``gait``) and/or NAOqi's move config (``config``).
    gait_fields = (
        Field("gait", False, None, "a named gait (get types: default, careful, precise, ...)"),
        Field("config", False, None, "NAOqi's move config: {MaxStepX: m, MaxStepY: m, ...}"),
    )

    per_foot = any(a.name == "left_gait" for a in attrs.fields(cls))

    def build(f: Mapping[str, Any], walk: Any) -> Any:
        rest = {k: v for k, v in f.items() if k not in ("gait", "config")}
        return cls(**rest, **_gaits(f.get("gait"), f.get("config"), walk, per_foot=per_foot))

    return TaskType(name or cls.__name__, cls, fields + gait_fields, build, doc)


def _gaits(name: Any, config: Any, walk: Any, *, per_foot: bool) -> dict[str, Any]:
    """The task's gait fields: ``gait``, and ``left_gait``/``right_gait`` for the tasks that
    take NAOqi's per-foot keys (move and moveToward; moveTo takes one config for both feet)."""
    if name is None and not config:
        return {}
    gaits = walk.gaits if walk is not None else shipped_gaits()
    if name is None:
        base = walk.base_gait if walk is not None else gaits["default"]
    elif isinstance(name, str) and name in gaits:
        base = gaits[name]
    else:
        raise ApiError(f"unknown gait {name!r} (gaits: {', '.join(gaits)})", "bad_field")
    if not config:
        return {"gait": base}
    if not per_foot:
        return {"gait": apply_move_config(base, config)}
    feet = apply_foot_move_config(base, config)
    return {"gait": feet.gait, "left_gait": feet.left, "right_gait": feet.right}


def _build_script(fields: Mapping[str, Any], walk: Any = None) -> Script:
    name, text = fields.get("name"), fields.get("yaml")
    if (name is None) == (text is None):
        raise ApiError(
            'Script: give exactly one of "name" (shipped) and "yaml" (text)', "bad_field"
        )
    if name is not None:
        if not isinstance(name, str):
            raise ApiError(f"Script: name must be a string, got {name!r}", "bad_field")
        script = shipped_script(name)
    else:
        if not isinstance(text, str):
            raise ApiError("Script: yaml must be a string of YAML text", "bad_field")
        label = fields.get("label", "client script")
        if not isinstance(label, str):
            raise ApiError(f"Script: label must be a string, got {label!r}", "bad_field")
        script = parse_script(text, suffix=".yaml", name=label, source=label)
    return Script(
        script,
        start_time=fields.get("start_time"),
        speed=fields.get("speed", 1.0),
        hold=fields.get("hold", False),
        interrupt=fields.get("interrupt", False),
    )


_SCRIPT = TaskType(
    "Script",
    Script,
    (
        Field("name", False, None, "a shipped script's name (StandInit, Sit, ...)"),
        Field("yaml", False, None, "or the script itself as YAML text (docs/scripts.md)"),
        Field("label", False, "client script", "the YAML script's name in errors and views"),
        Field("speed", False, 1.0, "playback speed factor (> 0)"),
        Field("hold", False, False, "keep the last keyframe's posture until withdrawn"),
        Field("start_time", False, None, "robot time (s) to start at; none: now"),
        Field(
            "interrupt",
            False,
            False,
            "take the legs from a stepping walk at once (a dive); otherwise a script moving "
            "the legs first lets the walk bring its feet together",
        ),
    ),
    _build_script,
    "Play a keyframe script (one at a time; Done after the last keyframe unless hold).",
)


def _within_limits(command: JointCommand) -> None:
    # In process the safety stage clamps; a client asking past a joint's range has a bug
    # worth telling it about.
    model = load_nao_model()
    for name, position in command.positions.items():
        i = JOINT_INDEX[name]
        low, high = float(model.lower[i]), float(model.upper[i])
        if not low - 1e-9 <= position <= high + 1e-9:
            raise ValueError(
                f"{name} {position!r} rad is outside its range [{low:.4f}, {high:.4f}]"
            )


def _group_type(group: type) -> TaskType:
    joints = GROUP_JOINTS[group]

    def build(fields: Mapping[str, Any], walk: Any = None) -> Any:
        command = JointCommand(
            fields["positions"],
            fields.get("stiffness", 1.0),
            fields.get("duration", 0.0),
            fields.get("interpolation", "minimum_jerk"),
        )
        _within_limits(command)
        return group(command)

    return TaskType(
        group.__name__,
        group,
        (
            Field("positions", True, None, f"joint name → rad, of {', '.join(joints)}"),
            Field("stiffness", False, 1.0, "0..1, one value or joint name → value"),
            Field("duration", False, 0.0, "seconds to reach the positions"),
            Field("interpolation", False, "minimum_jerk", '"minimum_jerk" or "linear"'),
        ),
        build,
        f"Move joints of the {group.__name__} group to positions.",
    )


def _registry() -> dict[str, TaskType]:
    types = [
        _attrs_type(
            Walk,
            helps={
                "forward": "m/s",
                "left": "m/s",
                "turn": "rad/s",
                "frequency": "share of the step frequency range, 0..1",
                "high_stand": "standing still, straighten the legs (knees kept cool)",
            },
        ),
        _attrs_type(WalkToward, helps={k: "-1..1 of the gait's limit" for k in "x y theta"}),
        _attrs_type(KillWalk),
        _attrs_type(
            WalkTo,
            helps={
                "x": "m, forward of the robot when the move starts",
                "y": "m, to its left",
                "theta": "rad, counter-clockwise",
                "tolerance_xy": "m",
                "tolerance_theta": "rad",
                "speed": "share of the gait's limits, (0, 1]",
            },
        ),
        _attrs_type(WalkPath, helps={"targets": "[[x, y, theta], ...], each from the one before"}),
        _attrs_type(
            Footsteps,
            helps={
                "steps": "[{foot: left|right, x, y, theta, duration | speed}, ...]: where each"
                " foot lands in the other foot's frame (m, rad); s or a share 0..1",
                "clear": "replace the steps not begun (true) or append (false)",
            },
        ),
        _attrs_type(
            Kick,
            helps={
                "ball_x": "m ahead, robot frame (midway between the ankles)",
                "ball_y": "m to the left",
                "direction": "rad, 0 straight ahead, + to the left",
                "power": "0..1",
                "foot": '"auto", "left" or "right"',
            },
        ),
        _attrs_type(
            InWalkKick,
            helps={
                "ball_x": "m ahead, robot frame when emitted",
                "ball_y": "m to the left",
                "foot": '"auto", "left" or "right"',
            },
        ),
        _attrs_type(LookAt, "LookAt", {"point": "[x, y, z] in the torso frame, m"}),
        _SCRIPT,
        *(_group_type(g) for g in GROUP_TYPES),
    ]
    return {t.name: t for t in types}


#: name → :class:`TaskType`, every type a client may emit.
TASK_TYPES: Mapping[str, TaskType] = _registry()


def task_type(name: Any) -> TaskType:
    """The emittable type called ``name``, or :class:`ApiError` listing the known ones."""
    found = TASK_TYPES.get(name) if isinstance(name, str) else None
    if found is None:
        raise ApiError(
            f"unknown task type {name!r} (known: {', '.join(sorted(TASK_TYPES))})", "unknown_type"
        )
    return found
