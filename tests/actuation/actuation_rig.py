"""A Director with the whole actuation tree and skills, driven in 12 ms steps, no sockets."""

from __future__ import annotations

from typing import Any

import numpy as np

from director import Director
from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from providers.actuation import ServoTable, build_actuation_tree
from skills import register_skills

PERIOD = 0.012


class FakeState:
    """The runtime's robot state as the tree sees it: measured angles in LoLA order."""

    def __init__(self, position: np.ndarray) -> None:
        self.position = np.array(position, dtype=np.float64)


class Rig:
    """Director + ServoTable + a body that follows its commands exactly (``follow=True``)
    or stays where it is."""

    def __init__(self, initial: np.ndarray | None = None, follow: bool = True) -> None:
        initial = np.zeros(NUM_JOINTS) if initial is None else np.asarray(initial, dtype=float)
        self.state = FakeState(initial)
        self.servos = ServoTable(initial)
        self.director = Director()
        build_actuation_tree(self.director, self.servos, self.state)
        register_skills(self.director, self.servos, self.state)
        self.follow = follow
        self.now = 0.0
        self.cycle = 0
        self.position, self.stiffness = self.servos.targets(0.0)
        self._emitters: dict[str, Any] = {}

    def emitter(self, name: str = "behaviour") -> Any:
        """One emitter per name (created on first use)."""
        if name not in self._emitters:
            self._emitters[name] = self.director.emitter(name)
        return self._emitters[name]

    def emit(self, task: Any, priority: float = 1.0, emitter: str = "behaviour") -> None:
        """Emit a root task from the named emitter."""
        self.emitter(emitter).emit(task, priority=priority)

    def step(self, cycles: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """Run ``cycles`` cycles the way the runtime does; return the last (position,
        stiffness) as copies."""
        for _ in range(cycles):
            self.cycle += 1
            self.now = self.cycle * PERIOD
            self.director.update(self.now)
            self.servos.hold_measured(self.state.position)
            position, stiffness = self.servos.targets(self.now)
            self.position, self.stiffness = position.copy(), stiffness.copy()
            if self.follow:
                self.state.position = self.position.copy()
        assert not self.director.errors, self.director.errors
        return self.position, self.stiffness

    def run_for(self, seconds: float) -> tuple[np.ndarray, np.ndarray]:
        """Step through ``seconds`` of cycles (rounded up)."""
        return self.step(max(1, int(np.ceil(seconds / PERIOD - 1e-9))))

    def angle(self, name: str) -> float:
        """The last commanded angle of a joint."""
        return float(self.position[JOINT_INDEX[name]])
