"""Abrupt changes of request in physics: random request runs of ``motiond bench walk`` that fell
before the walk slowed down gently to walk on elsewhere (``redirect_decel``) and stopped
stepping backwards while falling forwards (``back_step_lean``). Nearly all of them fell
forwards, after a forward walk was turned into a backward one or a fast turn on the spot."""

from __future__ import annotations

import pytest

from motiond.bench.walk import random_request_run
from motiond.walk_trial import Perturbation


@pytest.mark.parametrize(
    ("seed", "body"),
    [
        (21, None),
        (29, None),
        (8, 0),
        (13, 5),
        (43, 4),
    ],
)
def test_random_requests_that_made_the_walk_fall_forwards_no_longer_do(seed, body):
    where = {} if body is None else {"perturbation": Perturbation(seed=body)}
    assert random_request_run(seed, where)


@pytest.mark.parametrize(("seed", "body"), [(71, 12), (81, 13), (74, 15), (89, 15)])
def test_random_requests_that_tipped_the_walk_forwards_on_the_spot_no_longer_do(seed, body):
    # Turning or stepping aside on the spot, the torso sagged 0.15-0.2 rad forwards and
    # the robot tipped over its toes (with the centre of mass 3.7 cm ahead of the ankles in
    # place; 2.5 cm now, with the support ankle's roll holding the sideways walk's speed).
    assert random_request_run(seed, {"perturbation": Perturbation(seed=body)})
