"""A stop planned ahead: the steps a stop asked now would make, found by a dry run.

``WalkEngine.stop_pose`` (where a stop would leave the robot, for ``WalkTo`` and NAOqi's
getNextRobotPosition) reads them. The dry run is the walk's own stopping logic, not a model
of it: a copy of the generator is asked to stop and each of its steps is ended at its
planned time, with no sensors.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

import attrs

from skills.walk.odometry import Pose2D
from skills.walk.request import ZERO

if TYPE_CHECKING:
    from skills.walk.generator import WalkGenerator

#: The most steps a dry-run stop is followed for (the shipped gaits stop in at most 7: the
#: precise one slows from 0.12 m/s by 0.02 a step).
STOP_STEPS = 24


@attrs.frozen
class StopStep:
    """One step of a dry-run stop: the support foot (True: left), and where the step ends the
    support and the swing sole, seen from the body (as ``WalkGenerator.support_end``)."""

    left_support: bool
    support: Pose2D
    swing: Pose2D


def dry_run_stop(generator: WalkGenerator, shared: tuple = ()) -> tuple[StopStep, ...]:
    """The step under way, then the ones that slow down and close the feet, as ``generator``
    would make them if asked to stop now (it is not changed). ``shared`` are objects the copy
    may share because its steps only read them (gaits, geometry, models)."""
    dry = copy.deepcopy(generator, {id(x): x for x in shared})
    dry.set_request(ZERO)
    dry.steps.cancel()
    dry.kick = None
    steps = []
    for _ in range(STOP_STEPS):
        left = not dry.swing_left
        steps.append(StopStep(left, dry.sole_end(left), dry.sole_end(not left)))
        if dry.finish_step():
            break
    return tuple(steps)


__all__ = ["STOP_STEPS", "StopStep", "dry_run_stop"]
