"""The daemon's cycle against the simulated NAO over a real LoLA socket (naosim in lockstep).

Emissions happen between cycles (a behaviour is a trio task); each is applied in the next
cycle. A twin runtime fed the recorded sensor frames, with the same emissions at the same
cycles, shows what the daemon would have sent without a given emission.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.joints import JOINT_INDEX
from motiond.runtime import Runtime
from motiond.simulated import simulated_daemon, start_pose
from providers.model.kinematics import nao_kinematics
from skills.script import Script
from skills.script_files import shipped_script


def expected_torso_height(posture: str) -> float:
    """Torso origin above the floor with both soles flat on it, by the project's kinematics."""
    left, right = nao_kinematics().sole_poses(start_pose(posture))
    return -0.5 * float(left[2, 3] + right[2, 3])


class Recorder:
    """Every cycle's (sensor frame, actuator frame), and what was emitted before which cycle."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.sensors: list[SensorFrame] = []
        self.actuators: list[ActuatorFrame] = []
        self.schedule: dict[int, list[Callable[[Runtime], None]]] = {}
        runtime.observers.append(self._observe)

    def _observe(self, now: float, sensor: SensorFrame, actuator: ActuatorFrame) -> None:
        self.sensors.append(sensor)
        self.actuators.append(actuator)

    def do(self, action: Callable[[Runtime], None], *, twin: bool = True) -> int:
        """Apply ``action`` now (effective next cycle); the twin replays it unless told not to."""
        cycle = len(self.sensors)
        action(self.runtime)
        if twin:
            self.schedule.setdefault(cycle, []).append(action)
        return cycle

    def twin_actuators(self) -> list[ActuatorFrame]:
        """What a runtime given the same frames and the replayed actions would have sent."""
        twin = Runtime()
        out = []
        for i, sensor in enumerate(self.sensors):
            for action in self.schedule.get(i, ()):
                action(twin)
            out.append(twin.step(sensor))
        return out


def _emit(name: str, priority: float, emitter: str) -> Callable[[Runtime], None]:
    script = shipped_script(name)
    return lambda rt: rt.emit(Script(script), priority=priority, emitter=emitter)


async def test_freeze_stand_priorities_and_freeze_again():
    runtime = Runtime()
    rec = Recorder(runtime)
    rec.do(Runtime.freeze)
    async with simulated_daemon(start="Sit", runtime=runtime) as sim:
        await runtime.next_cycle()
        assert np.all(rec.actuators[-1].stiffness == 0.0)  # frozen (and limp) from the start

        rec.do(Runtime.unfreeze)
        started = rec.do(_emit("StandInit", 5.0, "stand"))
        await runtime.wait(0.5)
        # A lower-priority script meanwhile: queued behind the playing one, moves nothing.
        # It is withdrawn before StandInit ends, or it would play next.
        low_from = rec.do(_emit("Crouch", 1.0, "low"), twin=False)
        await runtime.wait(0.6)
        low_until = rec.do(lambda rt: rt.emitter("low").emit_none(Script), twin=False)
        assert low_until - low_from >= 40

        await runtime.wait(3.0 - (len(rec.sensors) - started) * runtime.period)
        truth = sim.body.truth()
        assert not truth.fallen
        expected = expected_torso_height("StandInit")
        assert truth.torso_position[2] == pytest.approx(expected, abs=0.02)

        twin = rec.twin_actuators()
        assert len(twin) == len(rec.actuators)
        for i, (sent, alone) in enumerate(zip(rec.actuators, twin, strict=True)):
            assert np.array_equal(sent.position, alone.position), f"cycle {i}: position differs"
            assert np.array_equal(sent.stiffness, alone.stiffness), f"cycle {i}: stiffness differs"

        # A higher-priority script takes the joints in the very next cycle.
        stand = shipped_script("Stand")
        before = len(rec.actuators)
        rec.do(_emit("Stand", 10.0, "high"))
        await runtime.next_cycle()
        assert len(rec.actuators) == before + 1
        first = stand.frames[0].targets
        for name, target in first.items():
            assert runtime.servos.target(JOINT_INDEX[name]) == pytest.approx(target.position)
        await runtime.wait(0.3)
        knee = JOINT_INDEX["LKneePitch"]
        moved = rec.actuators[-1].position[knee] - rec.actuators[before - 1].position[knee]
        assert abs(moved) > 0.01

        # Freeze drops every stiffness to 0 in one cycle.
        assert np.all(rec.actuators[-1].stiffness > 0.0)
        rec.do(Runtime.freeze)
        await runtime.next_cycle()
        assert np.all(rec.actuators[-1].stiffness == 0.0)
    assert runtime.counters.cycle_errors == 0 and runtime.counters.provider_errors == 0


#: shipped script → the posture it is sensibly played from.
SCRIPT_STARTS = {
    "StandInit": "Sit",
    "Stand": "StandInit",
    "Crouch": "StandInit",
    "Sit": "StandInit",
    "Relax": "StandInit",
    "Zero": "Stand",
}


@pytest.mark.parametrize("name", sorted(SCRIPT_STARTS))
async def test_every_shipped_script_ends_stable_in_naosim(name):
    runtime = Runtime()
    # Before the first frame: the start posture is held stiff from the first cycle.
    runtime.emit(Script(shipped_script(SCRIPT_STARTS[name])), priority=1.0)
    async with simulated_daemon(start=SCRIPT_STARTS[name], runtime=runtime) as sim:
        await runtime.wait(0.2)
        await runtime.play(name, priority=2.0)
        heights = []
        for _ in range(10):  # a further second, sampled: it must stay where it ended
            await runtime.wait(0.1)
            truth = sim.body.truth()
            assert not truth.fallen, f"{name}: fell at t={truth.t:.2f} s"
            heights.append(float(truth.torso_position[2]))
    if name != "Relax":  # Relax ends limp: it settles lower than its posture
        assert heights[-1] == pytest.approx(expected_torso_height(name), abs=0.03)
    assert max(heights) - min(heights) < 0.01, f"{name}: still moving {heights}"
    assert runtime.counters.cycle_errors == 0 and runtime.counters.provider_errors == 0
