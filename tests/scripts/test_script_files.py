"""Reading and writing script files: YAML, rUNSWift .pos, and every way a file can be wrong."""

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lola_io.joints import JOINT_INDEX, JOINT_NAMES
from providers.model import load_nao_model
from skills.keyframes import JointTarget, Keyframe, KeyframeScript, ScriptError
from skills.pos_format import POS_COLUMNS, format_pos, parse_pos_script
from skills.script_files import format_yaml, load_script, parse_yaml_script

DATA = Path(__file__).parent / "data"
MODEL = load_nao_model()


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _expect_error(path: Path, frame: int | None, field: str | None, problem: str) -> ScriptError:
    with pytest.raises(ScriptError) as caught:
        load_script(path)
    error = caught.value
    message = str(error)
    assert error.source == str(path) and message.startswith(str(path))
    assert error.frame == frame
    if frame is not None:
        assert f"frame {frame}" in message
    if field is None:
        assert error.field is None
    else:
        assert error.field is not None and field in error.field and field in message
    assert problem in message
    return error


# --- YAML ---------------------------------------------------------------------------------

GOOD_YAML = """
- duration: 1000
  targets:
    - {id: HeadYaw, position: 0.5, stiffness: 0.25}
    - {id: LKneePitch, position: 1.0}
- duration: 500
  targets:
    - {id: HeadYaw, position: -0.5, gain: 10, torque: 40}
"""


def test_yaml_script_loads_in_si_units(tmp_path):
    script = load_script(_write(tmp_path, "Nod.yaml", GOOD_YAML))
    assert script.name == "Nod"
    assert [f.duration for f in script.frames] == [1.0, 0.5]
    assert script.frames[0].targets["HeadYaw"] == JointTarget(0.5, 0.25)
    # No stiffness and no torque: full stiffness, as NUbots' torque defaults to 100.
    assert script.frames[0].targets["LKneePitch"] == JointTarget(1.0, 1.0)
    # NUbots' torque 40 (of 100) becomes stiffness 0.4; the gain is checked, then ignored.
    assert script.frames[1].targets["HeadYaw"] == JointTarget(-0.5, 0.4)


def test_yml_suffix_is_yaml_too(tmp_path):
    assert load_script(_write(tmp_path, "Nod.yml", GOOD_YAML)).frames[1].duration == 0.5


def _frame(target: str = "{id: HeadYaw, position: 0.0}", duration: str = "100") -> str:
    return f"- duration: {duration}\n  targets:\n    - {target}\n"


YAML_FAULTS = [
    # (text, frame, field, problem)
    ("- duration: 100\n  targets: [\n", None, None, "malformed YAML at line"),
    ("duration: 100\n", None, None, "expected a non-empty list of frames"),
    ("", None, None, "expected a non-empty list of frames"),
    ("- 5\n", 0, None, "a frame must be a mapping"),
    (_frame() + "- duraton: 100\n  targets: []\n", 1, None, "unknown key(s) ['duraton']"),
    ("- targets:\n    - {id: HeadYaw, position: 0.0}\n", 0, "duration", "missing"),
    ("- duration: 100\n", 0, "targets", "missing"),
    (_frame(duration="-1"), 0, "duration", "must not be negative"),
    (_frame(duration="soon"), 0, "duration", "expected a number"),
    (_frame(duration=".inf"), 0, "duration", "expected a finite number"),
    ("- duration: 100\n  targets: []\n", 0, "targets", "non-empty list of targets"),
    (_frame("HeadYaw"), 0, "targets[0]", "a target must be a mapping"),
    (_frame("{id: HeadYaw, position: 0, speed: 2}"), 0, "targets[0]", "unknown key(s) ['speed']"),
    (_frame("{position: 0.0}"), 0, "targets[0].id", "missing"),
    (_frame("{id: HeadYaw}"), 0, "targets[0].position", "missing"),
    (_frame("{id: HeadYew, position: 0}"), 0, "targets[0].id", "did you mean HeadYaw"),
    (_frame("{id: RHipYawPitch, position: 0}"), 0, "targets[0].id", "LoLA calls it LHipYawPitch"),
    (_frame("{id: 7, position: 0}"), 0, "targets[0].id", "expected a LoLA joint name"),
    (
        _frame("{id: HeadYaw, position: 0}") + "    - {id: HeadYaw, position: 0.1}\n",
        0,
        "targets[1].id",
        "HeadYaw is named twice",
    ),
    (_frame("{id: LKneePitch, position: 2.5}"), 0, "targets[0].position (LKneePitch)", "outside"),
    (_frame("{id: LElbowRoll, position: 0}"), 0, "targets[0].position (LElbowRoll)", "limits"),
    (_frame("{id: HeadYaw, position: .nan}"), 0, "targets[0].position", "finite number"),
    (_frame("{id: HeadYaw, position: true}"), 0, "targets[0].position", "expected a number"),
    (_frame("{id: HeadYaw, position: 0, stiffness: 1.5}"), 0, "targets[0].stiffness", "[0, 1]"),
    (_frame("{id: HeadYaw, position: 0, stiffness: -0.1}"), 0, "targets[0].stiffness", "[0, 1]"),
    (_frame("{id: HeadYaw, position: 0, torque: 101}"), 0, "targets[0].torque", "[0, 100]"),
    (
        _frame("{id: HeadYaw, position: 0, torque: 50, stiffness: 0.5}"),
        0,
        "targets[0]",
        "not both",
    ),
    (_frame("{id: HeadYaw, position: 0, gain: -1}"), 0, "targets[0].gain", "must not be negative"),
]


@pytest.mark.parametrize(("text", "frame", "field", "problem"), YAML_FAULTS)
def test_every_yaml_fault_names_file_frame_and_field(tmp_path, text, frame, field, problem):
    _expect_error(_write(tmp_path, "Bad.yaml", text), frame, field, problem)


def test_fault_in_a_later_frame_names_that_frame(tmp_path):
    text = _frame() + _frame() + _frame("{id: LKneePitch, position: -1.0}")
    error = _expect_error(_write(tmp_path, "Late.yaml", text), 2, "targets[0].position", "outside")
    assert "-1 rad" in str(error) and "LKneePitch" in str(error)


def test_position_a_rounding_error_past_a_limit_lands_on_the_limit(tmp_path):
    upper = float(MODEL.upper[JOINT_INDEX["LElbowRoll"]])
    text = _frame(f"{{id: LElbowRoll, position: {math.radians(-2.0)!r}}}")
    script = load_script(_write(tmp_path, "Edge.yaml", text))
    assert math.radians(-2.0) > upper  # -2 deg is a hair above the limit
    assert script.frames[0].targets["LElbowRoll"].position == upper


# --- rUNSWift .pos ------------------------------------------------------------------------


def test_seed_style_pos_file_loads_with_rows_and_defaults():
    script = load_script(DATA / "stand_twin.pos")
    assert script.name == "stand_twin"
    assert [f.duration for f in script.frames] == [1.0, 1.5]
    first, second = script.frames
    assert first.joints == JOINT_NAMES and second.joints == JOINT_NAMES
    assert first.targets["LKneePitch"] == JointTarget(math.radians(50), 0.75)
    assert first.targets["HeadYaw"].stiffness == 0.0
    # The '$' row applies to the next '!' row only; the second frame has stiffness 1.
    assert {t.stiffness for t in second.targets.values()} == {1.0}
    assert second.targets["LAnklePitch"].position == math.radians(-67.5)


def test_pos_file_and_its_yaml_twin_give_the_same_targets():
    assert load_script(DATA / "stand_twin.pos") == load_script(DATA / "stand_twin.yaml")


def test_pos_round_trip_is_stable():
    original = load_script(DATA / "stand_twin.pos")
    text = format_pos(original)
    again = parse_pos_script(text, name=original.name, source="round trip")
    assert format_pos(again) == text
    assert [f.duration for f in again.frames] == [f.duration for f in original.frames]
    for a, b in zip(again.poses(), original.poses(), strict=True):
        np.testing.assert_allclose(a.position, b.position, rtol=0, atol=1e-10)
        np.testing.assert_array_equal(a.stiffness, b.stiffness)


@given(
    st.lists(
        st.tuples(
            st.lists(st.floats(0.0, 1.0), min_size=25, max_size=25),
            st.lists(st.floats(0.0, 1.0), min_size=25, max_size=25),
            st.integers(0, 5000),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_any_full_body_script_survives_pos_and_yaml_round_trips(rows):
    frames = []
    for fractions, stiffness, duration_ms in rows:
        targets = {}
        for i, name in enumerate(JOINT_NAMES):
            lower, upper = MODEL.lower[i], MODEL.upper[i]
            # Clipped: lower + 1.0 * (upper - lower) can land an ulp past the limit.
            position = float(np.clip(lower + fractions[i] * (upper - lower), lower, upper))
            targets[name] = JointTarget(position, round(stiffness[i], 3))
        frames.append(Keyframe(duration_ms / 1000.0, targets))
    script = KeyframeScript("any", frames)
    via_yaml = parse_yaml_script(format_yaml(script), name="any", source="yaml")
    # Positions and stiffnesses come back exactly; a duration goes through ms and back.
    assert [f.targets for f in via_yaml.frames] == [f.targets for f in script.frames]
    assert [f.duration for f in via_yaml.frames] == pytest.approx(
        [f.duration for f in script.frames], rel=1e-12, abs=0
    )
    via_pos = parse_pos_script(format_pos(script), name="any", source="pos")
    for a, b in zip(via_pos.poses(), script.poses(), strict=True):
        # .pos keeps 9 decimals of a degree.
        np.testing.assert_allclose(a.position, b.position, rtol=0, atol=1e-10)
        np.testing.assert_array_equal(a.stiffness, b.stiffness)
    assert [f.duration for f in via_pos.frames] == pytest.approx(
        [f.duration for f in script.frames], rel=1e-12, abs=0
    )


def test_format_pos_needs_every_joint():
    script = KeyframeScript("head", [Keyframe(1.0, {"HeadYaw": JointTarget(0.0)})])
    with pytest.raises(ScriptError, match=r"frame 0: a \.pos row needs all 25 joints"):
        format_pos(script)


SEED_HEADER = "  ".join(POS_COLUMNS) + "  DUR\n"
STAND_DEG = "0 0 90 10 0 -2 0 0 0 -25 50 -25 0 0 -25 50 -25 0 90 -10 0 2 0 0 0"
STIFF = " ".join(["1"] * 25)


def _pos(*rows: str) -> str:
    return SEED_HEADER + "\n".join(rows) + "\n"


POS_FAULTS = [
    # (text, frame, field, problem)
    (_pos(f"! {STAND_DEG}"), 0, "'!' row on line 2", "has 25 values, expected 26"),
    (_pos(f"! {STAND_DEG} 1000 7"), 0, "'!' row on line 2", "has 27 values, expected 26"),
    (_pos("$ 1 1 1", f"! {STAND_DEG} 1000"), 0, "'$' row on line 2", "has 3 values, expected 25"),
    (_pos(f"! {STAND_DEG.replace('50', 'fifty', 1)} 1000"), 0, "LKP (LKneePitch)", "a number"),
    (
        _pos(f"! {STAND_DEG} 1000", f"! {STAND_DEG.replace('50', '150', 1)} 1000"),
        1,
        "LKP",
        "outside",
    ),
    (_pos(f"! {STAND_DEG} -5"), 0, "DUR on line 2", "must not be negative"),
    (_pos(f"$ {STIFF.replace('1', '2', 1)}", f"! {STAND_DEG} 1"), 0, "HY (HeadYaw)", "[0, 1]"),
    (_pos(f"$ {STIFF}", f"$ {STIFF}", f"! {STAND_DEG} 1"), 0, "'$' row on line 2", "another '$'"),
    (_pos(f"! {STAND_DEG} 1000", f"$ {STIFF}"), 1, "'$' row on line 3", "end of the file"),
    (_pos("# only comments"), None, None, "no '!' rows"),
]


@pytest.mark.parametrize(("text", "frame", "field", "problem"), POS_FAULTS)
def test_every_pos_fault_names_file_frame_and_field(tmp_path, text, frame, field, problem):
    _expect_error(_write(tmp_path, "bad.pos", text), frame, field, problem)


def test_the_seeds_own_stand_pos_is_refused_for_its_elbow_rolls(tmp_path):
    # Seed 002's stand.pos asks 0 deg of LElbowRoll, which the NAO V6 cannot reach.
    row = "0 0 90 10 0 0 0 0 0 -25 50 -25 0 0 -25 50 -25 0 90 -10 0 0 0 0 0 1000"
    error = _expect_error(_write(tmp_path, "stand.pos", _pos(f"! {row}")), 0, "LER", "outside")
    assert "LElbowRoll's limits" in str(error)


# --- load_script ---------------------------------------------------------------------------


def test_unknown_suffix_and_unreadable_file_are_script_errors(tmp_path):
    _expect_error(_write(tmp_path, "Stand.json", "[]"), None, None, "unknown script format")
    _expect_error(tmp_path / "Missing.yaml", None, None, "cannot read")


def test_a_model_can_be_passed_for_other_robots(tmp_path):
    import attrs

    wide = attrs.evolve(MODEL, upper=MODEL.upper + 1.0)
    text = _frame("{id: LKneePitch, position: 2.5}")
    with pytest.raises(ScriptError):
        load_script(_write(tmp_path, "Deep.yaml", text))
    assert load_script(tmp_path / "Deep.yaml", model=wide).frames[0].targets["LKneePitch"] == (
        JointTarget(2.5)
    )
