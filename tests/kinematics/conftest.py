"""Fixtures of the kinematics tests: the MuJoCo reference, built once per session."""

from __future__ import annotations

import pytest
from kinematics_helpers import MujocoReference


@pytest.fixture(scope="session")
def reference() -> MujocoReference:
    return MujocoReference()
