"""Impacts on the floor, as ground truth: whether the robot lies on anything but its feet
(:func:`robot_on_floor`), and how fast a body met the floor and how hard it pressed.

What breaks in a fall is decided in the few milliseconds of an impact, shorter than a LoLA
cycle (12 ms, four physics steps), so :class:`ImpactRecorder` looks after every physics step:
for each watched body, the speed of its frame origin the step before any of its shapes first
touched the floor, and the largest normal force any of its floor contacts carried since.
``NaoSim.watch_impacts`` attaches one; the fall benchmark watches the head.

The speed is the physical figure (the kinetic energy a head brings into the floor). The force
also depends on how soft MuJoCo's contacts are (the solver's default impedance), so it compares
falls with one another in naosim, not with a real robot's sensor.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import mujoco
import numpy as np

from naosim.binding import ModelBinding


@attrs.frozen
class Impact:
    """A body's first touch of the floor: when (simulated s), its speed just before (m/s),
    and the peak normal force of its floor contacts since (N)."""

    time: float
    speed: float
    peak_force: float


class ImpactRecorder:
    """The floor impacts of the ``bodies`` (name → body id) of a model whose floor is the
    geom ``floor``; :meth:`observe` after every physics step."""

    def __init__(self, model: mujoco.MjModel, floor: int, bodies: dict[str, int]) -> None:
        self._model = model
        self._floor = floor
        self._names = dict(bodies)
        self._body_of_geom = {
            g: name
            for name, body in bodies.items()
            for g in range(model.ngeom)
            if int(model.geom_bodyid[g]) == body
        }
        self._speed_before = dict.fromkeys(bodies, 0.0)
        self._first: dict[str, tuple[float, float]] = {}
        self._peak = dict.fromkeys(bodies, 0.0)
        self._wrench = np.zeros(6)
        self._velocity = np.zeros(6)

    def observe(self, data: mujoco.MjData) -> None:
        """Look at the contacts and velocities after one physics step."""
        m = self._model
        for i, geom in floor_contacts(data, self._floor):
            name = self._body_of_geom.get(geom)
            if name is None:
                continue
            mujoco.mj_contactForce(m, data, i, self._wrench)
            self._peak[name] = max(self._peak[name], abs(float(self._wrench[0])))
            if name not in self._first:
                self._first[name] = (float(data.time), self._speed_before[name])
        for name, body in self._names.items():
            mujoco.mj_objectVelocity(m, data, mujoco.mjtObj.mjOBJ_BODY, body, self._velocity, 0)
            self._speed_before[name] = float(np.linalg.norm(self._velocity[3:]))

    def impact(self, name: str) -> Impact | None:
        """``name``'s first impact, or None if it has not touched the floor."""
        if name not in self._names:
            raise KeyError(f"not watched: {name!r} (watching {sorted(self._names)})")
        if name not in self._first:
            return None
        time, speed = self._first[name]
        return Impact(time, speed, self._peak[name])


def floor_contacts(data: mujoco.MjData, floor: int) -> Iterator[tuple[int, int]]:
    """The contacts with the geom ``floor`` now: (contact index, the other geom)."""
    for i in range(data.ncon):
        g1, g2 = int(data.contact.geom1[i]), int(data.contact.geom2[i])
        if g1 == floor:
            yield i, g2
        elif g2 == floor:
            yield i, g1


def robot_on_floor(model: mujoco.MjModel, data: mujoco.MjData, binding: ModelBinding) -> bool:
    """Whether any part of the robot other than its feet touches the floor (an impact)."""
    feet = binding.left_foot.bodies | binding.right_foot.bodies
    for _, geom in floor_contacts(data, binding.floor_geom):
        body = int(model.geom_bodyid[geom])
        if body != binding.ball_body and body not in feet:
            return True
    return False
