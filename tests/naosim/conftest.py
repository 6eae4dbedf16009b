"""Fixtures shared by the naosim tests."""

from __future__ import annotations

import numpy as np
import pytest

from lola_io.frames import ActuatorFrame
from lola_io.joints import NUM_JOINTS
from naosim import postures


@pytest.fixture
def stand_command() -> ActuatorFrame:
    """Hold the standing posture at full stiffness."""
    return ActuatorFrame(position=postures.standing(), stiffness=np.ones(NUM_JOINTS))
