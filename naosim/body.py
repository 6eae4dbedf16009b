"""``NaoSimBody``: the MuJoCo NAO as a ``lola_io.body.Body`` a LoLA server can serve."""

from __future__ import annotations

from pathlib import Path

import mujoco

from lola_io.frames import ActuatorFrame, SensorFrame
from naosim.sim import CYCLE, NaoSim
from naosim.truth import TruthLog


class NaoSimBody(NaoSim):
    """A simulated NAO behind the ``lola_io.body.Body`` protocol.

    Each :meth:`step` is one LoLA cycle of physics; with ``truth_log`` set, a ground-truth CSV
    row is written per cycle (and one for the starting state). Everything of :class:`NaoSim`
    (scenarios, pushes, ground truth) is available on the body itself. The same ``seed`` and the
    same commands give the same run, row for row.
    """

    def __init__(
        self,
        mj_model: mujoco.MjModel | None = None,
        *,
        truth_log: str | Path | None = None,
        **kwargs,
    ) -> None:
        self._log: TruthLog | None = None
        super().__init__(mj_model, **kwargs)
        if truth_log is not None:
            self._log = TruthLog(truth_log)
            self._log.write(self.truth())

    def step(self, command: ActuatorFrame | None, dt: float = CYCLE) -> SensorFrame:
        """One cycle of physics under ``command`` (``None``: keep the last one)."""
        frame = super().step(command, dt)
        if self._log is not None:
            self._log.write(self.truth())
        return frame

    def close(self) -> None:
        """Close the truth log, if any."""
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> NaoSimBody:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
