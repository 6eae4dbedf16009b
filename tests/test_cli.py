"""The command line skeleton and the benchmark report."""

import json

import pytest

from motiond.bench.timing import BenchResult, Goal
from motiond.cli import build_parser, main


def test_help_lists_demo_and_bench(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "demo" in out
    assert "bench" in out


def test_unknown_command_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["fly"])
    assert exit_info.value.code == 2


def test_bench_parser_takes_quick_and_json():
    parser = build_parser()
    args = parser.parse_args(["bench", "director", "--quick", "--json"])
    assert args.name == "director"
    assert args.quick and args.json


def test_bench_result_reports_goals_and_json():
    result = BenchResult(
        name="x",
        figures={"fast_ms": 0.2, "slow_ms": 2.0},
        units={"fast_ms": "ms"},
        goals={"fast_ms": Goal(0.3), "slow_ms": Goal(1.0)},
    )
    text = "\n".join(result.lines())
    assert "(goal <= 0.3: met)" in text
    assert "(goal <= 1: NOT MET)" in text
    data = json.loads(json.dumps(result.as_dict()))
    assert data["goals_met"] == {"fast_ms": True, "slow_ms": False}


def test_goal_at_least():
    assert Goal(10.0, at_least=True).met(12.0)
    assert not Goal(10.0, at_least=True).met(9.0)


def test_unknown_bench_is_refused_with_the_known_names(capsys):
    assert main(["bench", "no-such-bench"]) == 2
    assert "unknown benchmark 'no-such-bench'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "text", "named"),
    [
        ("--gait", "max_forward: 9.0\n", "max_forward = 9.0"),
        ("--kick", "servo_delay: 3\nservo_velocity_lead: 0.5\n", "servo_velocity_lead = 0.5"),
    ],
)
def test_a_bad_parameter_file_is_refused_by_name_before_the_daemon_starts(
    tmp_path, capsys, option, text, named
):
    path = tmp_path / "params.yaml"
    path.write_text(text)
    assert main(["run", option, str(path), "--lola", str(tmp_path / "none")]) == 2
    out = capsys.readouterr().out
    assert named in out and "must be within" in out


def test_identify_refuses_bad_arguments(capsys):
    assert main(["identify", "--seconds", "1"]) == 2
    assert "seconds must be in [2, 60]" in capsys.readouterr().out


def test_bench_options_reach_the_benchmarks_that_take_them(capsys):
    from motiond.bench import run_bench

    assert run_bench("kinematics", quick=True, as_json=False, model="x.xml") == 2
    assert "does not take --model" in capsys.readouterr().err
    args = build_parser().parse_args(["bench", "walk", "--gait", "g.yaml", "--perturb", "3"])
    assert args.gait == "g.yaml" and args.perturb == 3


def test_a_model_file_that_cannot_be_benchmarked_is_said_not_raised(tmp_path, capsys):
    from motiond.bench import run_bench
    from naosim.model_builder import build_spec

    missing = tmp_path / "none.xml"
    assert run_bench("getup", quick=True, as_json=False, model=str(missing)) == 2
    assert "no MJCF model at" in capsys.readouterr().err
    # A NAO without a ball walks and gets up, but has nothing to kick.
    no_ball = tmp_path / "nao.xml"
    spec = build_spec()
    spec.compile()
    no_ball.write_text(spec.to_xml())
    assert run_bench("kick", quick=True, as_json=False, model=str(no_ball)) == 2
    assert "no free body 'ball' to kick" in capsys.readouterr().err


def test_kick_and_safety_trials_run_on_a_model_file(tmp_path):
    from motiond.kick_trial import kick_trial
    from motiond.safety_trial import getup_trial
    from naosim.model_builder import build_spec
    from skills.kick import Kick

    path = tmp_path / "nao.xml"
    spec = build_spec(ball=True)
    # Heavier feet than naosim's NAO: the trials must run on this file, not on the default.
    for body in spec.bodies:
        if body.name in ("l_ankle", "r_ankle"):
            body.mass = body.mass * 1.5
    spec.compile()
    path.write_text(spec.to_xml())
    kicked = kick_trial(Kick(0.19, -0.05), model=str(path))
    assert kicked.status.outcome == "kicked" and kicked.travel > 0.5 and not kicked.fell
    default = kick_trial(Kick(0.19, -0.05))
    assert kicked.travel != default.travel
    assert getup_trial("front", 0, model=str(path)).stood
