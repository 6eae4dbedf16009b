"""Building the whole actuation tree on a Director."""

from __future__ import annotations

from typing import Any

from director import Director
from providers.actuation.groups import register_servos_and_groups
from providers.actuation.ik import register_ik
from providers.actuation.sequences import register_sequences
from providers.actuation.servo_table import ServoTable


def build_actuation_tree(director: Director, servos: ServoTable, state: Any) -> None:
    """Register every actuation provider on ``director``: servos, groups, sequences, IK.

    ``state`` is any object with a ``position`` attribute (measured angles, LoLA order); the
    runtime passes its robot state. It is read when a provider runs, never stored as a copy.
    """
    if not hasattr(state, "position"):
        raise TypeError(f"state must have a `position` attribute (LoLA angles), got {state!r}")
    register_servos_and_groups(director, servos)
    register_sequences(director, state)
    register_ik(director, servos, state)
