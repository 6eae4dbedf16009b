"""What behaviours ask for: walk, kick, scripts, stand, get-up, look, freeze."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from director import Director
    from providers.actuation import ServoTable
    from skills.kick.engine import KickEngine
    from skills.walk import WalkEngine


def register_skills(
    director: Director, servos: ServoTable, state: Any
) -> tuple[WalkEngine, KickEngine]:
    """Register every skill provider (Script, Freeze, Unfreeze, the walk, the kick) on
    ``director``; returns the walk and kick engines (their state and parameters).

    Build the actuation tree first (``providers.actuation.build_actuation_tree``). The imports
    are here so that reading a script file (``skills.script_files``) does not load the tree.
    """
    from skills.freeze import register_freeze
    from skills.kick.engine import register_kick
    from skills.script import LegsInMotion, register_script
    from skills.walk import register_walk

    walk = register_walk(director, servos, state)
    kick = register_kick(director, servos, state, walk)
    register_script(director, LegsInMotion(walk.stepping, kick.moving))
    register_freeze(director, servos, state)
    return walk, kick
