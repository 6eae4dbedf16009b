"""``motiond bench sequences``: runs random behaviour sequences on each body, counts the ones
that fell (and lists them, to be replayed), the unsafe frames and the errors."""

from __future__ import annotations

from motiond import behaviour_sequences
from motiond.behaviour_sequences import SequenceRun
from motiond.bench import sequences


def test_short_runs_are_counted_on_each_body(monkeypatch):
    monkeypatch.setattr(sequences, "RUN_SECONDS", 3.0)
    result = sequences.run(quick=True, perturb=1)
    f = result.figures
    assert f["runs"] == 40 and f["bodies"] == 2
    assert f["stood_pct"] == 100.0 and f["stood_with_arms_pct"] == 100.0
    assert f["falls"] == 0 and f["unsafe_runs"] == 0 and f["errors"] == 0
    assert not result.notes


def test_a_fall_is_counted_and_listed_with_its_seed_and_what_came_before(monkeypatch):
    def fake(seed, body, seconds, *, arms=False):
        fell = 12.5 if seed == 1003 else None
        actions = ((0.5, "walk"), (11.0, "kick"), (20.0, "stop"))
        return SequenceRun(seed, actions, fell, None, 0)

    monkeypatch.setattr(behaviour_sequences, "sequence_run", fake)
    result = sequences.run(quick=True)
    f = result.figures
    assert f["falls"] == 1 and f["stood_pct"] == 100.0 and f["stood_with_arms_pct"] == 90.0
    assert result.notes == (
        "seed 1003 with arms on naosim's NAO fell at 12.50 s after: 0.50 walk; 11.00 kick",
    )
    assert not result.goals["stood_with_arms_pct"].met(f["stood_with_arms_pct"])
