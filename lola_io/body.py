"""What a LoLA server serves: a body that turns the last actuator frame into the next sensors."""

from __future__ import annotations

from typing import Protocol

from lola_io.frames import ActuatorFrame, SensorFrame


class Body(Protocol):
    """A robot body behind a LoLA server (the simulated NAO, a kinematic stand-in, a replay).

    The server calls ``first_frame`` once per client connection, then, every cycle,
    ``step(command, dt)`` with the newest actuator frame received since the last step (``None``
    when the client sent nothing in time) and the simulated time step (0.012 s).
    """

    def first_frame(self) -> SensorFrame:
        """The sensor frame sent before any command has arrived."""
        ...

    def step(self, command: ActuatorFrame | None, dt: float) -> SensorFrame:
        """Advance the body by ``dt`` seconds under ``command`` and return what its sensors read."""
        ...


class BodyFinished(Exception):
    """Raised by ``Body.step`` (or ``first_frame``) when the body has nothing more to serve.

    A replay at the end of its recording raises it; the server then closes the client and
    ``serve`` returns.
    """
