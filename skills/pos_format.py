"""rUNSWift's ``.pos`` keyframe files: reading and writing.

The format, as rUNSWift's ``ActionGenerator`` reads it:

- A line starting with ``!`` is a keyframe: 25 joint values in LoLA order, in degrees, then the
  duration in milliseconds (26 numbers).
- A line starting with ``$`` holds 25 stiffnesses (0..1) for the ``!`` line right after it
  only; a ``!`` line without a ``$`` line before it has stiffness 1 on every joint.
- Every other line is a comment (rUNSWift's files begin with an unprefixed column header,
  ``HY HP LSP ... RH DUR``).

The hand columns (LH, RH) go through the same degree-to-radian conversion as the angles, as
rUNSWift does, so 0 stays 0 (closed); a hand value ``v`` becomes ``v·π/180`` (an opening
fraction). This reader is stricter than rUNSWift's: a wrong number of columns, a ``$`` line
not followed by a ``!`` line, or a value outside the joint's limits is a :class:`ScriptError`
naming the file, the frame (the 0-based index of the ``!`` line) and the column.
"""

from __future__ import annotations

import math
from types import MappingProxyType

from lola_io.joints import JOINT_NAMES, NUM_JOINTS
from providers.model import NaoModel, load_nao_model
from skills import script_checks as check
from skills.keyframes import JointTarget, Keyframe, KeyframeScript, ScriptError

_ABBREVIATION = MappingProxyType(
    {
        "HeadYaw": "HY",
        "HeadPitch": "HP",
        "LShoulderPitch": "LSP",
        "LShoulderRoll": "LSR",
        "LElbowYaw": "LEY",
        "LElbowRoll": "LER",
        "LWristYaw": "LWY",
        "LHipYawPitch": "LHYP",
        "LHipRoll": "LHR",
        "LHipPitch": "LHP",
        "LKneePitch": "LKP",
        "LAnklePitch": "LAP",
        "LAnkleRoll": "LAR",
        "RHipRoll": "RHR",
        "RHipPitch": "RHP",
        "RKneePitch": "RKP",
        "RAnklePitch": "RAP",
        "RAnkleRoll": "RAR",
        "RShoulderPitch": "RSP",
        "RShoulderRoll": "RSR",
        "RElbowYaw": "REY",
        "RElbowRoll": "RER",
        "RWristYaw": "RWY",
        "LHand": "LH",
        "RHand": "RH",
    }
)
#: Column headers of a ``.pos`` file, in LoLA order (the joint order comes from lola_io).
POS_COLUMNS: tuple[str, ...] = tuple(_ABBREVIATION[name] for name in JOINT_NAMES)


def _column(i: int, line_no: int) -> str:
    return f"{POS_COLUMNS[i]} ({JOINT_NAMES[i]}) on line {line_no}"


def _row_values(tokens: list[str], expected: int, what: str, where: check.Where) -> list[str]:
    if len(tokens) != expected:
        raise where.error(f"{what} has {len(tokens)} values, expected {expected}")
    return tokens


def parse_pos_script(
    text: str, *, name: str, source: str, model: NaoModel | None = None
) -> KeyframeScript:
    """A script from the text of a ``.pos`` file; ``source`` labels it in error messages."""
    model = model if model is not None else load_nao_model()
    frames: list[Keyframe] = []
    pending_stiffness: list[float] | None = None
    pending_line = 0
    for line_no, line in enumerate(text.splitlines(), start=1):
        stripped = line.lstrip()
        frame = len(frames)
        if stripped.startswith("$"):
            where = check.Where(source, frame, f"'$' row on line {line_no}")
            if pending_stiffness is not None:
                raise check.Where(source, frame, f"'$' row on line {pending_line}").error(
                    "a '$' row must be followed by a '!' row, found another '$' row"
                )
            tokens = _row_values(stripped[1:].split(), NUM_JOINTS, "'$' row", where)
            pending_stiffness = [
                check.stiffness(
                    check.parse_number(token, where.at(_column(i, line_no))),
                    where.at(_column(i, line_no)),
                )
                for i, token in enumerate(tokens)
            ]
            pending_line = line_no
        elif stripped.startswith("!"):
            where = check.Where(source, frame, f"'!' row on line {line_no}")
            tokens = _row_values(
                stripped[1:].split(), NUM_JOINTS + 1, "'!' row (25 joints and DUR)", where
            )
            stiffness = pending_stiffness or [1.0] * NUM_JOINTS
            targets = {}
            for i, token in enumerate(tokens[:NUM_JOINTS]):
                field = where.at(_column(i, line_no))
                radians = math.radians(check.parse_number(token, field))
                position = check.position(JOINT_NAMES[i], radians, model, field)
                targets[JOINT_NAMES[i]] = JointTarget(position, stiffness[i])
            duration_field = where.at(f"DUR on line {line_no}")
            duration = check.duration_ms(
                check.parse_number(tokens[NUM_JOINTS], duration_field), duration_field
            )
            frames.append(Keyframe(duration, targets))
            pending_stiffness = None
    if pending_stiffness is not None:
        raise check.Where(source, len(frames), f"'$' row on line {pending_line}").error(
            "a '$' row must be followed by a '!' row, found the end of the file"
        )
    if not frames:
        raise ScriptError(source, None, None, "no '!' rows: a script needs at least one frame")
    return KeyframeScript(name, frames)


def _number(value: float) -> str:
    text = f"{value:.9f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def format_pos(script: KeyframeScript) -> str:
    """The script as ``.pos`` text (degrees, ms); every keyframe's pose must cover all joints.

    A ``$`` row is written only before a ``!`` row whose stiffnesses are not all 1.
    """
    width = 6
    header = "#" + "".join(f" {c:>{width}}" for c in (*POS_COLUMNS, "DUR"))
    lines = [f"# {script.name}", header]
    for i, (frame, pose) in enumerate(zip(script.frames, script.poses(), strict=True)):
        if not pose.mask.all():
            missing = [n for n, has in zip(JOINT_NAMES, pose.mask, strict=True) if not has]
            raise ScriptError(
                script.name, i, None, f"a .pos row needs all 25 joints; no target yet for {missing}"
            )
        if (pose.stiffness != 1.0).any():
            lines.append("$" + "".join(f" {_number(s):>{width}}" for s in pose.stiffness))
        degrees = [_number(math.degrees(p)) for p in pose.position]
        row = [*degrees, _number(frame.duration * 1000.0)]
        lines.append("!" + "".join(f" {v:>{width}}" for v in row))
    return "\n".join(lines) + "\n"
