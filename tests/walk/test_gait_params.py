"""Gait parameters: shipped defaults load; every bad value is refused by name, value and range."""

from __future__ import annotations

import math
import pickle

import attrs
import pytest

from skills.walk import PARAMETER_RANGES, GaitError, GaitParameters, load_gait
from skills.walk.params import shipped_gait_values


def test_the_shipped_gait_loads_and_names_every_parameter():
    gait = load_gait()
    assert set(attrs.asdict(gait)) == set(PARAMETER_RANGES) == set(shipped_gait_values())
    for key, (low, high, _, _) in PARAMETER_RANGES.items():
        assert low <= getattr(gait, key) <= high


@pytest.mark.parametrize("key", sorted(PARAMETER_RANGES))
def test_out_of_range_values_are_refused_with_name_value_and_range(key):
    low, high, unit, _ = PARAMETER_RANGES[key]
    for bad in (low - 0.1 * (high - low) - 1e-3, high + 0.1 * (high - low) + 1e-3):
        with pytest.raises(GaitError) as caught:
            load_gait(**{key: bad})
        message = str(caught.value)
        assert key in message and repr(bad) in message and f"[{low:g}, {high:g}]" in message
        assert unit in message
        assert caught.value.key == key


@pytest.mark.parametrize("bad", [math.nan, math.inf, True, "0.25", None])
def test_non_numbers_and_non_finite_values_are_refused(bad):
    with pytest.raises(GaitError, match="step_period"):
        load_gait(step_period=bad)


def test_unknown_and_missing_keys_are_refused():
    with pytest.raises(GaitError, match=r"step_perod.*unknown parameter"):
        load_gait(step_perod=0.25)
    values = shipped_gait_values()
    del values["foot_lift"]
    with pytest.raises(GaitError, match=r"foot_lift.*missing"):
        GaitParameters.from_mapping(values)


def test_a_user_file_overrides_only_the_keys_it_names(tmp_path):
    path = tmp_path / "my_gait.yaml"
    path.write_text("step_period: 0.3\nfoot_lift: 0.015\n")
    gait = load_gait(path)
    shipped = load_gait()
    assert gait.step_period == 0.3 and gait.foot_lift == 0.015
    assert attrs.evolve(gait, step_period=shipped.step_period, foot_lift=shipped.foot_lift) == (
        shipped
    )


def test_bad_user_files_name_the_file_and_the_key(tmp_path):
    bad_yaml = tmp_path / "broken.yaml"
    bad_yaml.write_text("step_period: [0.25\n")
    with pytest.raises(GaitError, match=r"broken\.yaml.*not valid YAML"):
        load_gait(bad_yaml)
    typo = tmp_path / "typo.yaml"
    typo.write_text("max_fowrard: 0.3\n")
    with pytest.raises(GaitError, match=r"typo\.yaml: max_fowrard"):
        load_gait(typo)
    out_of_range = tmp_path / "fast.yaml"
    out_of_range.write_text("max_forward: 3.0\n")
    with pytest.raises(GaitError, match=r"fast.yaml: max_forward = 3.0: must be within"):
        load_gait(out_of_range)
    with pytest.raises(GaitError, match="cannot read"):
        load_gait(tmp_path / "absent.yaml")


def test_evolve_checks_too():
    with pytest.raises(GaitError, match="hip_height"):
        attrs.evolve(load_gait(), hip_height=0.5)


def test_a_gait_error_survives_pickling_with_its_fields():
    # A process pool's worker (``motiond optimise``) sends errors back pickled; one that
    # cannot be rebuilt kills the pool's result thread and the search hangs.
    with pytest.raises(GaitError) as caught:
        load_gait(None, lift_side_gain=0.9)
    back = pickle.loads(pickle.dumps(caught.value))
    assert type(back) is GaitError
    assert (back.key, back.value, back.problem, back.source) == (
        caught.value.key,
        caught.value.value,
        caught.value.problem,
        caught.value.source,
    )
    assert str(back) == str(caught.value)
