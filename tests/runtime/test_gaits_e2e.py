"""Switching gaits while walking fast, in physics (naosim through the daemon): no fall, and
the switch asks the legs for no faster motion than the walk itself does."""

from __future__ import annotations

import attrs
import numpy as np

from lola_io.joints import JOINT_INDEX, LEFT_LEG_JOINTS, RIGHT_LEG_JOINTS
from motiond.runtime import Runtime
from motiond.simulated import simulated_daemon
from skills.walk import Walk
from skills.walk.gaits import apply_foot_move_config, apply_move_config, shipped_gaits
from skills.walk.params import load_gait

LEGS = [JOINT_INDEX[n] for n in (*LEFT_LEG_JOINTS, *RIGHT_LEG_JOINTS)]


async def test_a_gait_switch_while_walking_fast_neither_falls_nor_jumps():
    runtime = Runtime()
    runtime.emit(Walk(), priority=5.0, emitter="test")
    # A very different gait: careful's limits, a lower hip, more lean, a higher step.
    other = apply_move_config(shipped_gaits()["careful"], {"TorsoWy": 0.1, "StepHeight": 0.03})
    other = attrs.evolve(other, hip_height=other.hip_height - 0.018)
    clipped = runtime.safety.velocity_limited
    async with simulated_daemon(scenario="standing", runtime=runtime) as sim:
        await runtime.wait(1.0)
        runtime.emit(Walk(0.3), priority=5.0, emitter="test")
        await runtime.wait(3.0)
        before = int(clipped[LEGS].sum())
        await runtime.wait(1.0)
        steady = int(clipped[LEGS].sum()) - before  # clipped leg targets per second, walking
        for gait, speed in ((other, 0.3), (None, 0.3), (other, 0.3)):
            before = int(clipped[LEGS].sum())
            runtime.emit(Walk(speed, gait=gait), priority=5.0, emitter="test")
            await runtime.wait(1.0)  # the blend takes two steps, well within this second
            switch = int(clipped[LEGS].sum()) - before
            assert not sim.body.truth().fallen
            # The walk's own fast steps are clipped now and then; a switch adds nothing.
            assert switch <= steady + 10, f"{switch} clipped in the switch, {steady} walking"
        assert runtime.walk.generator.gait == other  # the blend arrived
        assert runtime.walk.status().request.forward == other.max_forward  # clamped to it


async def test_per_foot_step_heights_lift_each_foot_as_asked():
    # NAOqi's example: one foot stepping over a cable, the other low.
    feet = apply_foot_move_config(load_gait(), {"LeftStepHeight": 0.035, "RightStepHeight": 0.008})
    runtime = Runtime()
    runtime.emit(Walk(), priority=5.0, emitter="test")
    async with simulated_daemon(scenario="standing", runtime=runtime) as sim:
        await runtime.wait(1.0)
        walk = Walk(0.15, left_gait=feet.left, right_gait=feet.right)
        runtime.emit(walk, priority=5.0, emitter="test")
        await runtime.wait(2.0)
        peaks = np.zeros(2)
        for _ in range(250):  # 3 s
            await runtime.wait(0.012)
            truth = sim.body.truth()
            heights = (truth.left_sole_position[2], truth.right_sole_position[2])
            peaks = np.maximum(peaks, heights)
        assert not sim.body.truth().fallen
        # The servos lag (a 4 cm lift reaches about 2 cm), but the left foot is clearly higher.
        assert peaks[0] > peaks[1] + 0.004, peaks
