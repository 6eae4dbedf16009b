"""The walk benchmark's machinery: schedules, trials, perturbed bodies (not the walk's speed:
that is measured by ``motiond bench walk``, never asserted in a test)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from motiond.bench import walk as bench
from motiond.walk_trial import Perturbation, WalkTrial, perturbed_model
from naosim.model_builder import build_model
from skills.walk.odometry import along


def test_the_schedule_ramps_up_holds_and_ramps_down_as_bit_bots_do():
    c = 0.2
    assert bench.schedule(-0.1, c) == 0.0
    assert bench.schedule(0.5, c) == pytest.approx(0.05)
    assert bench.schedule(1.5, c) == pytest.approx(0.1)
    assert bench.schedule(2.0, c) == c
    assert bench.schedule(2.0 + 1.0 + bench.STEADY - 0.01, c) == c
    assert bench.schedule(2.0 + 1.0 + bench.STEADY + 0.5, c) == pytest.approx(0.1)
    assert bench.schedule(2.0 + 1.0 + bench.STEADY + 1.5, c) == pytest.approx(0.05)
    assert bench.schedule(2.0 + 1.0 + bench.STEADY + 2.5, c) == 0.0


def test_max_speed_raises_the_command_to_the_gaits_limit_and_stops_where_all_fell(monkeypatch):
    asked: list[float] = []

    def run(direction, command, seed, body):
        asked.append(command)
        return command < 0.37, command  # every repetition falls above 0.37

    monkeypatch.setattr(bench, "speed_run", run)
    # A limit off the grid is the last level; one on it is not repeated.
    assert bench.max_speed("forward", 0.33, 2, {}) == (0.33, 0.33, 0)
    assert sorted(set(asked)) == pytest.approx([0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.33])
    asked.clear()
    assert bench.max_speed("forward", 0.35, 1, {})[0] == 0.35
    assert max(asked) == 0.35
    asked.clear()
    # Past 0.37 every repetition falls: the figure is the level below, and raising stops.
    assert bench.max_speed("forward", 0.39, 2, {}) == (0.35, 0.35, 2)
    assert max(asked) == 0.39


def test_along_measures_in_the_start_heading_and_wraps_turns():
    start = (1.0, 1.0, math.pi / 2)
    assert along(0, start, (1.0, 2.0, 0.0)) == pytest.approx(1.0)  # forward is +y here
    assert along(1, start, (0.0, 1.0, 0.0)) == pytest.approx(1.0)  # left is -x
    assert along(2, (0.0, 0.0, 3.0), (0.0, 0.0, -3.0)) == pytest.approx(2 * math.pi - 6.0)


def test_perturbed_bodies_differ_from_the_nominal_one_within_their_spreads():
    nominal = build_model()
    p = Perturbation(seed=3)
    model, delay = perturbed_model(p)
    again, delay_again = perturbed_model(p)
    assert np.array_equal(model.body_mass, again.body_mass) and delay == delay_again
    assert p.delay[0] <= delay <= p.delay[1]
    heavy = nominal.body_mass > 0.01
    ratio = model.body_mass[heavy] / nominal.body_mass[heavy]
    assert np.all(np.abs(ratio - 1.0) <= p.mass + 1e-9) and not np.allclose(ratio, 1.0)
    kp = model.actuator_gainprm[:, 0] / nominal.actuator_gainprm[:, 0]
    assert np.all(np.abs(kp - 1.0) <= p.kp + 1e-9)
    assert np.allclose(model.actuator_biasprm[:, 1], -model.actuator_gainprm[:, 0])
    assert p.friction[0] <= model.geom_friction[0, 0] <= p.friction[1]


def test_a_trial_stands_and_a_short_speed_run_reports_a_finite_speed():
    trial = WalkTrial()
    assert trial.run(1.0)
    assert not trial.fell and trial.t == pytest.approx(1.0, abs=0.013)
    ok, speed = bench.speed_run("turn", 0.5, 0, {})
    assert ok and math.isfinite(speed) and speed > 0.0


def test_a_trial_walks_on_a_nao_mjcf_file(tmp_path):
    from naosim.model_builder import build_spec

    spec = build_spec()
    for body in spec.bodies:
        if body.name == "torso":
            body.mass = body.mass * 1.05  # another NAO: a heavier torso
    path = tmp_path / "nao_heavier.xml"
    path.write_text(spec.to_xml())
    trial = WalkTrial(model=str(path))
    assert trial.sim.model.body_mass.sum() > build_model().body_mass.sum()
    assert trial.run(1.0)
    trial.walk(0.1)
    assert trial.run(2.0)
    assert trial.status().step_count > 0


def test_a_random_request_run_asks_for_different_walks_and_reports_standing(monkeypatch):
    asked = []
    monkeypatch.setattr(bench, "RANDOM_REQUESTS", 3)
    monkeypatch.setattr(WalkTrial, "walk", lambda self, *v: asked.append(v))
    assert bench.random_request_run(0, {}) is True  # never asked to walk: it stands
    assert len(asked) == 3 and len(set(asked)) > 1
    g = WalkTrial().runtime.walk.base_gait
    for forward, left, turn in asked:
        assert -g.max_backward <= forward <= g.max_forward
        assert abs(left) <= g.max_left and abs(turn) <= g.max_turn
