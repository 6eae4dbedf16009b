"""The ball rolls like an SPL ball on turf: a constant deceleration of about 0.35 m/s²
(B-Human's ball model), not for ever."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

from naosim.sim import NaoSim
from naosim.turf import turf_force

DECELERATION = 0.35  # m/s², BHumanCodeRelease Config/Locations/Default/ballSpecification.cfg


def _roll(speed: float, vy: float = 0.0, inertia: float | None = None) -> tuple[float, float]:
    """Roll the ball (of moment of ``inertia``, else the model's) at (speed, vy) m/s:
    (seconds until it stops, metres it rolled)."""
    sim = NaoSim(ball=True, noise=0.0)
    if inertia is not None:
        sim.model.body_inertia[sim.binding.ball_body] = inertia
    sim.place_ball(1.0, 1.0, vx=speed, vy=vy)
    start = sim.truth().ball[:2].copy()
    for cycle in range(2000):
        before = sim.truth().ball[:2].copy()
        sim.step(None)
        if np.hypot(*(sim.truth().ball[:2] - before)) < 0.005 * 0.012:  # under 5 mm/s
            return (cycle + 1) * 0.012, float(np.hypot(*(sim.truth().ball[:2] - start)))
    raise AssertionError("the ball never stopped")


@pytest.mark.parametrize("speed", [2.0, 1.0])
def test_a_rolling_ball_stops_where_the_turfs_deceleration_says(speed):
    seconds, metres = _roll(speed)
    assert metres == pytest.approx(speed**2 / (2 * DECELERATION), rel=0.2)
    assert seconds == pytest.approx(speed / DECELERATION, rel=0.2)


def test_a_placed_ball_rolls_without_slipping_in_any_direction():
    sim = NaoSim(ball=True, noise=0.0)
    sim.place_ball(1.0, 1.0, vx=0.6, vy=-0.8)  # away from the robot at the origin
    for _ in range(10):
        sim.step(None)
    velocity = np.zeros(6)  # world frame: angular, then linear
    mujoco.mj_objectVelocity(
        sim.model, sim.data, mujoco.mjtObj.mjOBJ_BODY, sim.binding.ball_body, velocity, 0
    )
    w, v = velocity[:3], velocity[3:]
    # Rolling: the contact point, 5 cm below the centre, barely slides (MuJoCo's soft contact
    # creeps a few cm/s; placed without spin, it would slide at 1 m/s).
    slip = v + np.cross(w, [0.0, 0.0, -0.05])
    assert np.linalg.norm(slip[:2]) < 0.1
    assert np.linalg.norm(v[:2]) > 0.9
    _, metres = _roll(0.6, -0.8)  # 1 m/s along a diagonal
    assert metres == pytest.approx(1.0 / (2 * DECELERATION), rel=0.2)


@pytest.mark.parametrize("share", [0.4, 2.0 / 3.0])  # solid foam (naosim's), a hollow shell
def test_the_turf_slows_a_rolling_ball_of_any_inertia_at_its_deceleration(share):
    mass, radius = 0.044, 0.05
    inertia = share * mass * radius**2
    force = turf_force(np.array([1.0, 0.0, 0.0]), radius, radius, mass, inertia)
    # Rolling without slipping, the force decelerates the mass and spins down the inertia.
    assert -force[0] / (mass + inertia / radius**2) == pytest.approx(DECELERATION)
    assert force[1] == force[2] == 0.0
    # A loaded model's ball keeps its own inertia (``motiond sim --model``): still stops there.
    _, metres = _roll(1.0, inertia=inertia)
    assert metres == pytest.approx(1.0 / (2 * DECELERATION), rel=0.2)
