"""naosim's impact recorder: how fast a body met the floor, seen at every physics step."""

from __future__ import annotations

import math

import mujoco
import pytest

from naosim.sim import NaoSim


def _drop_ball(sim: NaoSim, height: float) -> None:
    """Hold the ball still with its bottom ``height`` m above the floor, 1 m from the robot."""
    sim.place_ball(1.0, 0.0)
    radius = float(sim.model.geom_size[sim.model.body_geomadr[sim.binding.ball_body], 0])
    sim.data.qpos[sim.binding.ball_qpos + 2] = radius + height
    mujoco.mj_forward(sim.model, sim.data)


@pytest.mark.parametrize("height", [0.2, 0.45])
def test_a_dropped_ball_meets_the_floor_at_its_free_fall_speed(height, stand_command):
    sim = NaoSim(ball=True, noise=0.0)
    _drop_ball(sim, height)
    start = sim.time
    impacts = sim.watch_impacts("ball")
    assert impacts.impact("ball") is None
    while sim.time - start < 1.0:
        sim.step(stand_command)
    impact = impacts.impact("ball")
    assert impact is not None
    # The speed is read a physics step or two (3-6 ms) before the touch: up to g * 6 ms
    # (0.06 m/s) short of the free fall's.
    assert impact.speed == pytest.approx(math.sqrt(2 * 9.81 * height), abs=0.07)
    assert impact.time - start == pytest.approx(math.sqrt(2 * height / 9.81), abs=0.004)
    assert impact.peak_force > 5 * 0.044 * 9.81  # an impact, not the ball resting on the floor


def test_only_watched_bodies_and_only_while_watching(stand_command):
    sim = NaoSim(ball=True, noise=0.0)
    with pytest.raises(ValueError, match="no body 'Nose'"):
        sim.watch_impacts("Nose")
    impacts = sim.watch_impacts("Head", "ball")
    with pytest.raises(KeyError, match="not watched"):
        impacts.impact("torso")
    sim.stop_watching()
    _drop_ball(sim, 0.2)
    for _ in range(50):
        sim.step(stand_command)
    assert impacts.impact("ball") is None  # it fell after the watch ended
    assert impacts.impact("Head") is None  # the standing robot's head never touched
