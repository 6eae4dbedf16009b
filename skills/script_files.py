"""Loading keyframe scripts: YAML (NUbots' layout) and rUNSWift ``.pos``, and the shipped ones.

YAML scripts are a list of frames::

    - duration: 1500          # ms, >= 0
      targets:
        - {id: LKneePitch, position: 0.87, stiffness: 1.0}
        - {id: RKneePitch, position: 0.87}

Each target has ``id`` (a LoLA joint name), ``position`` (rad; hands 0..1) and optionally
``stiffness`` (0..1, default 1). NUbots' fields are accepted too:

- ``torque`` (0..100, default 100) is NUbots' "servo on" percentage; without ``stiffness`` it
  becomes stiffness ``torque / 100``. Giving both ``stiffness`` and ``torque`` is an error,
  because they would disagree about the one number the NAO has.
- ``gain`` (a number >= 0) is NUbots' servo P gain. LoLA has no gain separate from stiffness
  (stiffness already scales the NAO's position loop), so ``gain`` is checked and then ignored.

Any other key, a missing field, an unknown joint, a joint named twice in one frame, a position
outside the joint's limits, a stiffness outside [0, 1], a negative duration or malformed YAML
is a :class:`~skills.keyframes.ScriptError` whose message names the file, the frame and the
field. ``.pos`` files are read by :mod:`skills.pos_format`.
"""

from __future__ import annotations

import functools
import os
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from providers.model import NaoModel, load_nao_model
from skills import script_checks as check
from skills.keyframes import JointTarget, Keyframe, KeyframeScript, ScriptError
from skills.pos_format import format_pos, parse_pos_script

_FRAME_KEYS = frozenset({"duration", "targets"})
_TARGET_KEYS = frozenset({"id", "position", "stiffness", "gain", "torque"})
_YAML_SUFFIXES = (".yaml", ".yml")
_POS_SUFFIXES = (".pos",)
_SHIPPED_PACKAGE = "scripts_yaml"
# libyaml's loader when PyYAML was built with it: same results, several times faster.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_YAML_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _unknown_keys(raw: dict, allowed: frozenset[str], where: check.Where) -> None:
    unknown = sorted(str(k) for k in raw if k not in allowed)
    if unknown:
        raise where.error(f"unknown key(s) {unknown}; allowed: {sorted(allowed)}")


def _target_stiffness(raw: dict, where: check.Where) -> float:
    if "gain" in raw:
        gain = check.number(raw["gain"], where.at(where.field + ".gain"))
        if gain < 0.0:
            raise where.at(where.field + ".gain").error(f"gain must not be negative, got {gain}")
    if "stiffness" in raw and "torque" in raw:
        raise where.error("give stiffness (0..1) or NUbots' torque (0..100), not both")
    if "torque" in raw:
        field = where.at(where.field + ".torque")
        torque = check.number(raw["torque"], field)
        if not 0.0 <= torque <= 100.0:
            raise field.error(f"torque must be within [0, 100], got {torque:.6g}")
        return torque / 100.0
    if "stiffness" in raw:
        field = where.at(where.field + ".stiffness")
        return check.stiffness(check.number(raw["stiffness"], field), field)
    return 1.0


def _yaml_frame(raw: Any, frame: int, source: str, model: NaoModel) -> Keyframe:
    where = check.Where(source, frame, None)
    if not isinstance(raw, dict):
        raise where.error(f"a frame must be a mapping with duration and targets, got {raw!r}")
    _unknown_keys(raw, _FRAME_KEYS, where)
    for key in ("duration", "targets"):
        if key not in raw:
            raise where.at(key).error("missing")
    duration_where = where.at("duration")
    duration = check.duration_ms(check.number(raw["duration"], duration_where), duration_where)
    raw_targets = raw["targets"]
    if not isinstance(raw_targets, list) or not raw_targets:
        raise where.at("targets").error(
            f"expected a non-empty list of targets, got {raw_targets!r}"
        )
    targets: dict[str, JointTarget] = {}
    for j, raw_target in enumerate(raw_targets):
        field = f"targets[{j}]"
        target_where = where.at(field)
        if not isinstance(raw_target, dict):
            raise target_where.error(f"a target must be a mapping, got {raw_target!r}")
        _unknown_keys(raw_target, _TARGET_KEYS, target_where)
        for key in ("id", "position"):
            if key not in raw_target:
                raise where.at(f"{field}.{key}").error("missing")
        name = check.joint_name(raw_target["id"], where.at(f"{field}.id"))
        if name in targets:
            raise where.at(f"{field}.id").error(f"{name} is named twice in this frame")
        position_where = where.at(f"{field}.position ({name})")
        position = check.position(
            name, check.number(raw_target["position"], position_where), model, position_where
        )
        targets[name] = JointTarget(position, _target_stiffness(raw_target, target_where))
    return Keyframe(duration, targets)


def parse_yaml_script(
    text: str, *, name: str, source: str, model: NaoModel | None = None
) -> KeyframeScript:
    """A script from YAML text; ``source`` labels it in error messages."""
    model = model if model is not None else load_nao_model()
    try:
        data = yaml.load(text, Loader=_YAML_LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        raise ScriptError(source, None, None, f"malformed YAML{at}: {problem}") from None
    if not isinstance(data, list) or not data:
        raise ScriptError(source, None, None, f"expected a non-empty list of frames, got {data!r}")
    frames = [_yaml_frame(raw, i, source, model) for i, raw in enumerate(data)]
    return KeyframeScript(name, frames)


def format_yaml(script: KeyframeScript) -> str:
    """The script as YAML text in the layout :func:`parse_yaml_script` reads (ms, rad)."""
    data = [
        {
            "duration": frame.duration * 1000.0,
            "targets": [
                {"id": joint, "position": t.position, "stiffness": t.stiffness}
                for joint, t in frame.targets.items()
            ],
        }
        for frame in script.frames
    ]
    return f"# {script.name}\n" + yaml.dump(data, Dumper=_YAML_DUMPER, sort_keys=False)


def parse_script(
    text: str, *, suffix: str, name: str, source: str, model: NaoModel | None = None
) -> KeyframeScript:
    """A script from text in the format its file suffix names (``.yaml``, ``.yml``, ``.pos``)."""
    suffix = suffix.lower()
    if suffix in _YAML_SUFFIXES:
        return parse_yaml_script(text, name=name, source=source, model=model)
    if suffix in _POS_SUFFIXES:
        return parse_pos_script(text, name=name, source=source, model=model)
    known = ", ".join(_YAML_SUFFIXES + _POS_SUFFIXES)
    raise ScriptError(source, None, None, f"unknown script format {suffix!r} (expected {known})")


def load_script(path: str | os.PathLike[str], *, model: NaoModel | None = None) -> KeyframeScript:
    """Load a script file; its name is the file's stem (``Stand.yaml`` → ``Stand``).

    Every failure, including an unreadable file, is a :class:`ScriptError`.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ScriptError(str(path), None, None, f"cannot read: {error}") from error
    return parse_script(text, suffix=path.suffix, name=path.stem, source=str(path), model=model)


def _shipped_files() -> dict[str, Any]:
    files = {}
    for entry in resources.files(_SHIPPED_PACKAGE).iterdir():
        stem, dot, suffix = entry.name.rpartition(".")
        if dot and f".{suffix}" in _YAML_SUFFIXES + _POS_SUFFIXES:
            files[stem] = entry
    return files


def shipped_script_names() -> tuple[str, ...]:
    """Names of the scripts shipped in ``scripts_yaml/``, sorted."""
    return tuple(sorted(_shipped_files()))


@functools.cache
def shipped_script(name: str) -> KeyframeScript:
    """A script shipped in ``scripts_yaml/`` by name (``"StandInit"``), checked against the
    packaged NAO model. Loaded once, then shared (scripts are immutable)."""
    files = _shipped_files()
    if name not in files:
        shipped = ", ".join(sorted(files))
        raise ScriptError(_SHIPPED_PACKAGE, None, None, f"no script {name!r} (shipped: {shipped})")
    entry = files[name]
    suffix = "." + entry.name.rpartition(".")[2]
    source = f"{_SHIPPED_PACKAGE}/{entry.name}"
    return parse_script(entry.read_text(encoding="utf-8"), suffix=suffix, name=name, source=source)


__all__ = [
    "format_pos",
    "format_yaml",
    "load_script",
    "parse_pos_script",
    "parse_script",
    "parse_yaml_script",
    "shipped_script",
    "shipped_script_names",
]
